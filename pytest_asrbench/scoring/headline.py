"""The headline alignment of each pair of a score: the alignment whose counts are the headline.

A score's headline counts are those of its pairs' strict alignments unless a metric view sets
them (:class:`~pytest_asrbench.scoring.views.MetricView` with ``sets_counts``). Whatever shows
or tallies errors (the aligned view, the error summary, an export) must read the alignment the
headline counts, or it disagrees with the rate printed above it: a Hindi turn rescued to 0%
whose view still marks ``seven``/``7`` as a substitution. For each view that sets counts this
module rebuilds that alignment, one :class:`HeadlineAlignment` per pair:

- no counting view (en and de words without a split compound, ja, zh and th characters): the
  pair's own alignment (after any pair rewrite: ja and ko write a matched loanword as the
  reference does before aligning, so those pairs need nothing more);
- ``spacing`` (Korean, docs/korean.md): both sides aligned by characters with every space
  removed;
- ``compounds`` (en, de, nl): the word alignment with each split compound closed up where the
  other side writes it closed (``data base`` / ``database``);
- ``code_switch`` (hi, de, nl, fr, es, it; docs/code_switching.md): the strict alignment with
  the columns of every rescued error region marked *rescued*: counted correct (a rescued
  reference word is a hit; an insertion inside a rescued region is not counted), shown with
  their words as written; a turn whose split compounds the ``compounds`` view merged keeps
  that merged alignment and no rescue, as the view counts it.

:func:`headline_alignments` checks that the pairs' headline counts sum to the score's, so a
view whose rule changes without this module fails loudly instead of showing other errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.scoring.alignment import Alignment, align
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.result import PairScore, Score


class HeadlineError(AsrbenchError):
    """A score's headline alignments cannot be rebuilt: a metric view sets the counts that this
    module has no rule for, or the rebuilt alignments count other errors than the score."""


@dataclass(frozen=True)
class HeadlineAlignment:
    """The alignment of one pair whose counts are the headline, and the ``rescued`` column
    indices (one column per aligned token, in the order of the spans, as
    :func:`~pytest_asrbench.scoring.alignment_view.alignment_columns` lists them) that a view
    counts correct although their tokens differ.

    Raises:
        ValueError: a rescued index outside the alignment's columns.
    """

    alignment: Alignment
    rescued: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.rescued:
            total = sum(max(len(span.reference), len(span.hypothesis)) for span in self.alignment.ops)
            wrong = sorted(index for index in self.rescued if not 0 <= index < total)
            if wrong:
                raise ValueError(f"rescued column(s) {wrong} outside the alignment's {total} column(s)")

    def columns(self) -> Iterator[tuple[str, str | None, str | None, bool]]:
        """``(op, reference token or None, hypothesis token or None, rescued)`` per column."""
        index = 0
        for span in self.alignment.ops:
            for offset in range(max(len(span.reference), len(span.hypothesis))):
                yield (span.op, span.reference[offset] if offset < len(span.reference) else None,
                       span.hypothesis[offset] if offset < len(span.hypothesis) else None, index in self.rescued)
                index += 1

    def counts(self) -> EditCounts:
        """The headline counts: the alignment's, a rescued column with a reference token a hit
        and a rescued insertion not counted."""
        if not self.rescued:
            return self.alignment.counts()
        tally = {"equal": 0, "substitute": 0, "delete": 0, "insert": 0}
        for op, reference, _, rescued in self.columns():
            if rescued:
                if reference is not None:
                    tally["equal"] += 1
            else:
                tally[op] += 1
        return EditCounts(tally["equal"], tally["substitute"], tally["delete"], tally["insert"],
                          len(self.alignment.reference))


def _strict(result: Score, pair: PairScore) -> HeadlineAlignment:
    return HeadlineAlignment(pair.alignment)


def _without_spaces(result: Score, pair: PairScore) -> HeadlineAlignment:
    return HeadlineAlignment(align(pair.normalized_reference.replace(" ", ""),
                                   pair.normalized_hypothesis.replace(" ", ""), "char"))


def _compounds_merged(result: Score, pair: PairScore) -> HeadlineAlignment:
    from pytest_asrbench.scoring.views.compounds import merged_alignment

    return HeadlineAlignment(merged_alignment(pair.alignment)[0])


def _code_switch_aware(result: Score, pair: PairScore) -> HeadlineAlignment:
    from pytest_asrbench.scoring.views.codeswitch.view import rescued_columns
    from pytest_asrbench.scoring.views.compounds import merged_alignment

    strict = pair.alignment
    if not pair.errors:
        return HeadlineAlignment(strict)
    if "compounds" in result.details:  # the compounds view merged a turn of this score
        merged, merges = merged_alignment(strict)
        if merges:  # the code_switch view keeps a merged turn's counts and rescues none of it
            return HeadlineAlignment(merged)
    return HeadlineAlignment(strict, rescued_columns(result.language, pair))


#: For each metric view that sets the headline counts, how to rebuild a pair's headline alignment.
_COUNTING_VIEWS = {
    "spacing": _without_spaces,
    "compounds": _compounds_merged,
    "code_switch": _code_switch_aware,
}


def counting_view(result: Score) -> str | None:
    """The metric view that set ``result``'s headline counts (the last of the metric's views
    that sets counts and applies to its language and unit: ``code_switch`` builds on
    ``compounds``), or ``None`` when the strict counts are the headline."""
    from pytest_asrbench.normalize.registry import get_config
    from pytest_asrbench.scoring.metrics import get_metric
    from pytest_asrbench.scoring.views import get_view

    config = get_config(result.language)
    names = [name for name in get_metric(result.metric).views
             if get_view(name).sets_counts and get_view(name).applies(config, result.unit)]
    return names[-1] if names else None


def headline_alignments(result: Score) -> list[HeadlineAlignment]:
    """One :class:`HeadlineAlignment` per pair of ``result``, in order (module docstring).

    Raises:
        HeadlineError: a view this module has no rule for sets the counts; the alignments'
            counts summed differ from the score's headline counts.
    """
    view = counting_view(result)
    if view is not None and view not in _COUNTING_VIEWS:
        raise HeadlineError(f"metric view {view!r} sets the headline counts of {result.metric} in {result.language} "
                            "and has no headline alignment: add its rule to pytest_asrbench/scoring/headline.py")
    build = _strict if view is None else _COUNTING_VIEWS[view]
    found = [build(result, pair) for pair in result.pairs]
    total = sum((item.counts() for item in found), EditCounts.zero())
    expected = EditCounts(result.hits, result.substitutions, result.deletions, result.insertions,
                          result.reference_length)
    if total != expected:
        raise HeadlineError(f"the {view or 'strict'} headline alignments of {result.language} count {total} but the "
                            f"score has {expected}: the view's rule and pytest_asrbench/scoring/headline.py disagree")
    return found
