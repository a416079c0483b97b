"""The ``spacing`` metric view: the CER without spaces is the headline, the spaced CER a detail.

Applies to character-level scores of a language scored by characters whose normalized form
keeps its word spaces (its config's ``unit`` is ``"char"`` and its steps do not remove
spaces: Korean today). Such a language writes spaces that speakers do not say and writers
place differently (Korean 띄어쓰기: 할 수 있다 / 할수있다, 3월 25일 / 3월25일), so a space is
not a recognition error: the view aligns both sides again with every space removed, and
those counts become the headline (``rate`` is the CER without spaces). The CER that counts
spaces as characters stays in ``details``, so spacing drift is still visible. Source: the
original requirements ("Korean keeps its word spaces") and Korean reviewers ("a spacing difference alone must
not look like a recognition error"); KsponSpeech (Bang et al., 2020) reports a
space-normalized error rate for the same reason.

Details added (all in characters):

- ``rate_with_spaces``: the CER of the normalized forms as written, spaces counted;
- ``rate_without_spaces``: the CER with every space removed (equal to ``rate``);
- ``with_spaces``: the spaced counts (``hits``, ``substitutions``, ``deletions``,
  ``insertions``, ``reference_length``);
- ``spacing_errors``: spaced errors minus unspaced errors, what spacing alone added (it can
  be negative when a space lets the spaced alignment pair characters more cheaply).
"""

from __future__ import annotations

from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.base import MetricView, ViewResult, register_view


def applies(config, unit: str) -> bool:
    """True for character scores of a character-scored language that keeps its spaces."""
    return unit == "char" and config.unit == "char" and "remove_spaces" not in config.steps


def spacing_view(result, config) -> ViewResult:
    """Counts of ``result``'s pairs re-aligned without spaces, and the spaced figures as details.

    ``result`` is a strict character-level ``Score``; its pairs keep the spaced alignment.
    Returns headline :class:`~pytest_asrbench.scoring.counts.EditCounts` whose
    ``reference_length`` is the reference's characters other than spaces (an all-space
    reference gives ``rate=None``).
    """
    hits = substitutions = deletions = insertions = length = 0
    for pair in result.pairs:
        alignment = align(pair.normalized_reference.replace(" ", ""), pair.normalized_hypothesis.replace(" ", ""),
                          "char")
        hits += alignment.count("equal")
        substitutions += alignment.count("substitute")
        deletions += alignment.count("delete")
        insertions += alignment.count("insert")
        length += len(alignment.reference)
    unspaced = EditCounts(hits, substitutions, deletions, insertions, length)
    details = {
        "rate_with_spaces": result.rate,
        "rate_without_spaces": unspaced.rate,
        "with_spaces": {"hits": result.hits, "substitutions": result.substitutions, "deletions": result.deletions,
                        "insertions": result.insertions, "reference_length": result.reference_length},
        "spacing_errors": result.errors - unspaced.errors,
    }
    return ViewResult(details, unspaced)


SPACING = register_view(MetricView("spacing", applies, spacing_view, sets_counts=True))
