"""The headline figures of a case that scores (``score`` and ``asr`` kinds), as plain data for
the run summary, the reports and the JUnit properties.

A figures dict is ``{"unit": "word" | "char", "rate": float | None, "errors": int,
"reference_length": int, "pairs": [[normalized reference, normalized hypothesis], ...],
"written": [[reference, hypothesis], ...]}``: what a corpus (micro-averaged) rate over many
cases needs (errors and reference length are summed, never rates averaged), the normalized
forms from which the aligned view is rebuilt (``scoring.alignment.align``), since snapshots
keep only the error spans, and each pair's texts as written (an ``asr`` case's reference and
transcript), which the reports show above the aligned view.

Figures made from the :class:`~pytest_asrbench.scoring.Score` itself (this run's, not a
recording's, and only in a run that writes a report file, the only reader:
:attr:`~pytest_asrbench.cases.registry.RunContext.headlines`) add two keys from its headline alignments
(:mod:`pytest_asrbench.scoring.headline`): ``"headline"``, per pair ``None`` when the aligned
view rebuilt from the normalized forms is the headline one, else ``{"reference",
"hypothesis", "rescued"}`` (the headline alignment's tokens joined by the unit's separator,
re-aligned by the reports, and the columns a view counts correct: a merged compound, Korean
without spaces, a code-switch rescue); and ``"error_tally"``, the case's errors counted in
those alignments (:meth:`pytest_asrbench.scoring.error_summary.ErrorTally.to_data`), which
the reports sum into each language's error summary.
"""

from __future__ import annotations

from typing import Any

import pytest

#: The figures' keys, in order.
FIGURE_KEYS = ("unit", "rate", "errors", "reference_length", "pairs", "written")
#: The keys figures made from a ``Score`` add (module docstring).
HEADLINE_KEYS = ("headline", "error_tally")
#: In ``config.stash``: whether this run's scoring cases compute :data:`HEADLINE_KEYS` (set by
#: the reports' hooks, ``reports.pytest_hooks.reports_requested``; unset: they do).
HEADLINES_WANTED = pytest.StashKey[bool]()


def score_figures(data: Any, result: Any = None) -> dict[str, Any] | None:
    """The figures of a score dict (``scoring.serialize.score_to_dict``'s shape, or a recorded
    snapshot of one, which lacks only the versions); ``None`` when ``data`` is not one (a
    snapshot of another shape, an error record), so an old or foreign recording is simply
    not compared. ``result``, the :class:`~pytest_asrbench.scoring.Score` ``data`` was made
    from, adds :data:`HEADLINE_KEYS`."""
    if not isinstance(data, dict) or any(key not in data for key in ("unit", "rate", "reference_length")):
        return None
    counts = [data.get(key) for key in ("substitutions", "deletions", "insertions")]
    errors = data.get("errors", sum(counts) if all(isinstance(c, int) for c in counts) else None)
    if not isinstance(errors, int) or not isinstance(data["reference_length"], int):
        return None
    found = [pair for pair in data.get("pairs", []) if isinstance(pair, dict)]
    pairs = [[pair.get("normalized_reference", ""), pair.get("normalized_hypothesis", "")] for pair in found]
    written = [[pair.get("reference", ""), pair.get("hypothesis", "")] for pair in found]
    figures = {"unit": data["unit"], "rate": data["rate"], "errors": errors,
               "reference_length": data["reference_length"], "pairs": pairs, "written": written}
    if result is not None:
        figures.update(headline_figures(result))
    return figures


def headline_figures(result: Any) -> dict[str, Any]:
    """:data:`HEADLINE_KEYS` of a ``Score`` (module docstring).

    Raises:
        HeadlineError: the score's headline alignments cannot be rebuilt.
    """
    from pytest_asrbench.scoring.error_summary import ErrorTally
    from pytest_asrbench.scoring.headline import headline_alignments

    headlines = headline_alignments(result)
    joiner = " " if result.unit == "word" else ""
    shown = [None if headline.alignment is pair.alignment and not headline.rescued else
             {"reference": joiner.join(headline.alignment.reference),
              "hypothesis": joiner.join(headline.alignment.hypothesis), "rescued": sorted(headline.rescued)}
             for pair, headline in zip(result.pairs, headlines)]
    return {"headline": shown, "error_tally": ErrorTally.of(headlines).to_data()}
