"""CER by interval of a long-form row (the protocol's long-recording slice: repetition and
omission show up as intervals whose CER jumps, which one corpus figure hides).

A long-form row lists ``intervals`` (``[{start, end, reference}]`` seconds). The hypothesis of
an interval is the text of the engine segments whose midpoint lies in ``[start, end)``; a
segment outside every interval is counted as ``unassigned`` (text the reference does not
cover: a repeat or a hallucination). Each interval is scored with the run's views
(:func:`~pytest_asrbench.bench.run.views.view_set`: zh's four CER views, another language's metric).
"""

from __future__ import annotations

from pytest_asrbench.asr.engine import Segment
from pytest_asrbench.bench.manifest.rows import Interval
from pytest_asrbench.bench.run.views import ViewSet, views_dict


def interval_hypotheses(intervals: tuple[Interval, ...], segments: tuple[Segment, ...],
                        joiner: str = "") -> tuple[list[str], list[str]]:
    """(hypothesis text per interval, its segments' stripped texts joined by ``joiner``; texts
    of segments in no interval)."""
    texts: list[list[str]] = [[] for _ in intervals]
    unassigned = []
    for segment in segments:
        middle = (segment.start + segment.end) / 2
        for index, interval in enumerate(intervals):
            if interval.start <= middle < interval.end:
                texts[index].append(segment.text.strip())
                break
        else:
            unassigned.append(segment.text.strip())
    return [joiner.join(parts) for parts in texts], unassigned


def longform_entry(row_id: str, intervals: tuple[Interval, ...], segments: tuple[Segment, ...],
                   views: ViewSet, share: bool) -> dict:
    """The record's entry for one long-form row: per interval its times and views (and its
    texts when the corpus permits sharing), and the unassigned segments' count."""
    # word languages keep a space between segments; zh, ja, th write none
    hypotheses, unassigned = interval_hypotheses(intervals, segments, " " if views.unit == "word" else "")
    out = []
    for interval, hypothesis in zip(intervals, hypotheses):
        entry = {"start": interval.start, "end": interval.end,
                 "views": views_dict(views.pair(interval.reference, hypothesis)[0])}
        if share:
            entry.update(reference=interval.reference, hypothesis=hypothesis)
        out.append(entry)
    return {"id": row_id, "intervals": out, "unassigned_segments": len(unassigned)}
