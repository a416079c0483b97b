"""The token streams an export writes for one scored utterance: the headline view and the others.

A score's headline counts are those of its strict alignment unless a metric view sets them
(:class:`~pytest_asrbench.scoring.views.MetricView` with ``sets_counts``). For each such view
this module writes the alignment whose counts *are* the headline
(:mod:`pytest_asrbench.scoring.headline`), so that a tool that only sees tokens (sclite)
counts what the run printed:

- no counting view (words of en, de, ...; characters of ja, zh, th): the strict alignment
  is the headline, its tokens as the metric counts them;
- ``spacing`` (Korean, docs/korean.md): the headline aligns both sides with every space
  removed (character tokens, no space token); the strict alignment, spaces counted, is the
  second stream ``spaced``;
- ``code_switch`` (Hindi, docs/hindi.md): the headline is the strict Hindi alignment with
  every rescued error region counted correct: the region's reference words stand on both
  sides (the hypothesis words they were accepted for are not written) and its insertions
  are dropped, which is how the view counts it; the strict alignment is the second stream
  ``strict``;
- ``compounds`` (en, de, nl): the headline is the word alignment with split compounds closed
  up on the side that splits them ("data base" written "database"); the strict alignment is
  the second stream ``strict``.

:func:`streams_of` checks that the headline stream's counts equal the score's headline counts,
so a view whose rule changes without this module cannot export a stream that disagrees.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.scoring.alignment import Alignment, AlignmentOp
from pytest_asrbench.scoring.headline import counting_view, headline_alignments

#: Name of the stream whose counts are the score's headline counts.
HEADLINE = "headline"


class StreamError(AsrbenchError):
    """A score cannot be exported as token streams (a counting view this module does not know,
    or a headline stream whose counts differ from the score's)."""


@dataclass(frozen=True)
class Stream:
    """One named token stream of one utterance.

    Attributes:
        name: :data:`HEADLINE` or the second view's name (``spaced``, ``strict``).
        view: what the stream is, in words (for the export's README).
        alignment: the alignment whose tokens and counts the stream holds.
    """

    name: str
    view: str
    alignment: Alignment


def counts_of(alignment: Alignment) -> tuple[int, int, int, int, int]:
    """``(hits, substitutions, deletions, insertions, reference_length)`` of an alignment, in tokens."""
    return (alignment.count("equal"), alignment.count("substitute"), alignment.count("delete"),
            alignment.count("insert"), len(alignment.reference))


def alignment_from_columns(columns: list[tuple[str, str | None, str | None]]) -> Alignment:
    """An :class:`Alignment` from ``(op, reference token or None, hypothesis token or None)``
    columns in order; runs of one op become one span."""
    reference: list[str] = []
    hypothesis: list[str] = []
    spans: list[AlignmentOp] = []
    run: list[tuple[str, str | None, str | None]] = []

    def close() -> None:
        if run:
            ref = tuple(token for _, token, _ in run if token is not None)
            hyp = tuple(token for _, _, token in run if token is not None)
            spans.append(AlignmentOp(run[0][0], ref, hyp, len(reference) - len(ref), len(hypothesis) - len(hyp)))
            run.clear()

    for column in columns:
        if run and run[0][0] != column[0]:
            close()
        _, ref_token, hyp_token = column
        if ref_token is not None:
            reference.append(ref_token)
        if hyp_token is not None:
            hypothesis.append(hyp_token)
        run.append(column)
    close()
    return Alignment(tuple(reference), tuple(hypothesis), tuple(spans))


def _strict(result) -> Alignment:
    return result.pairs[0].alignment


def _headline(result) -> Alignment:
    """The headline alignment of the pair (:mod:`pytest_asrbench.scoring.headline`) as sclite
    must count it: a rescued column's reference token on both sides, a rescued insertion left out."""
    headline = headline_alignments(result)[0]
    if not headline.rescued:
        return headline.alignment
    columns = []
    for op, ref, hyp, rescued in headline.columns():
        if rescued:
            if ref is not None:  # the rescued region's reference word, counted correct
                columns.append(("equal", ref, ref))
            continue  # an insertion inside a rescued region is not counted
        columns.append((op, ref, hyp))
    return alignment_from_columns(columns)


#: For each metric view that sets the headline counts: how to rebuild the headline alignment,
#: what it is, and the name and description of the strict alignment as the second stream.
_COUNTING_VIEWS = {
    "spacing": (_headline, "characters without spaces (the headline CER: a space is not counted)",
                "spaced", "characters with spaces, a space written <sp> (the spaced CER in the details)"),
    "code_switch": (_headline, "code-switch-aware words: each rescued region's reference words "
                    "on both sides, counted correct (the headline WER)",
                    "strict", "the strict word alignment, no region rescued (strict_rate in the details)"),
    "compounds": (_headline, "words with each split compound closed up where the other side writes it "
                  "closed (the headline WER)",
                  "strict", "the strict word alignment, compounds as written (strict_rate in the details)"),
}


def streams_of(result) -> list[Stream]:
    """The streams of a one-pair score (``score(reference, hypothesis, ...)``): the headline
    first, then the second view where a metric view sets the headline counts.

    Raises:
        StreamError: the score has more than one pair; a view sets its counts that this
            module has no stream for; the headline stream's counts differ from the score's.
    """
    if len(result.pairs) != 1:
        raise StreamError(f"streams_of takes a score of one pair, got {len(result.pairs)}")
    unit_words = ("words" if result.unit == "word"
                  else "characters as the CER counts them (a space it counts is written <sp>)")
    view = counting_view(result)
    if view is None:
        streams = [Stream(HEADLINE, f"{result.metric}: the strict alignment, {unit_words}", _strict(result))]
    elif view in _COUNTING_VIEWS:
        build, described, second, second_described = _COUNTING_VIEWS[view]
        streams = [Stream(HEADLINE, f"{result.metric}: {described}", build(result)),
                   Stream(second, f"{result.metric}: {second_described}", _strict(result))]
    else:
        raise StreamError(f"metric view {view!r} sets the headline counts of {result.metric} in {result.language}, "
                          "and the export has no token stream for it: add one to pytest_asrbench/export/streams.py")
    expected = (result.hits, result.substitutions, result.deletions, result.insertions, result.reference_length)
    if counts_of(streams[0].alignment) != expected:
        raise StreamError(f"the {view or 'strict'} stream of {result.language} counts (C, S, D, I, N) "
                          f"{counts_of(streams[0].alignment)} but the score has {expected}: the view's rule and "
                          "pytest_asrbench/export/streams.py disagree; fix the stream before exporting")
    return streams
