"""The aligned views a report shows for one case: each pair of its figures now and, when its
output changed, as recorded, rebuilt from the normalized forms (snapshots keep only the error
spans) with :func:`pytest_asrbench.scoring.alignment.align`, with the pair's texts as written.

This run's views are the headline alignments, the ones the rate counts (the figures'
``headline``, :mod:`pytest_asrbench.cases.figures`): a split compound closed up, Korean
without spaces, and a region the code-switch rescue counts correct marked ``R``, so a case
rescued to 0% shows no error. A recorded view is the strict alignment of the recorded
normalized forms (a recording keeps no headline alignment).

A character-scored language aligns code points, but a page cannot show a Thai tone mark, a
Devanagari vowel sign or a combining accent apart from its consonant: :func:`cluster_cells`
joins the aligned positions into cells that each start at a grapheme cluster boundary
(extended grapheme clusters, Unicode UAX #29, the ``regex`` module's ``\\X``), so no cell
starts with a combining mark in any script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import regex

from pytest_asrbench.reports.model import CaseEntry
from pytest_asrbench.scoring.alignment import Alignment, align
from pytest_asrbench.scoring.alignment_view import GAP, MARKS, RESCUED, shown_token

#: A report shows at most this many pairs of one case (a corpus case may hold hundreds).
MAX_PAIRS = 10
_CLUSTER = regex.compile(r"\X")


@dataclass(frozen=True)
class PairView:
    """One aligned pair to show: ``label`` (``"now"``, ``"recorded"``, ``"pair 2 now"`` ...),
    its alignment, its texts as written (``(reference, hypothesis)``; ``None`` when the
    figures do not carry them) and the ``rescued`` columns of the alignment (counted correct
    by a metric view, marked ``R``)."""

    label: str
    alignment: Alignment
    written: tuple[str, str] | None = None
    rescued: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Cell:
    """One column of a report's aligned view: the reference and hypothesis text as shown
    (:data:`GAP` on a side with nothing), and the marks of the aligned positions it joins
    (``"S"``, ``"D"``, ``"I"``, several when a cluster holds more than one edit; ``"R"`` for a
    rescued position, counted correct; ``""`` when all are hits)."""

    reference: str
    hypothesis: str
    marks: str


def _starts_cluster(before: str, token: str) -> bool:
    """Whether ``token`` begins a new grapheme cluster when it follows ``before``."""
    if not before or not token:
        return True
    boundary, joined = len(before), before + token
    end = 0
    for cluster in _CLUSTER.finditer(joined):
        end = cluster.end()
        if end >= boundary:
            break
    return end == boundary


def cluster_cells(alignment: Alignment, rescued: frozenset[int] = frozenset()) -> list[Cell]:
    """The aligned positions of ``alignment`` joined into :class:`Cell` s that each start at
    a grapheme cluster boundary on both sides: a position whose reference or hypothesis token
    continues the cluster of that side's previous token (a combining mark, a Thai vowel or
    tone mark, a virama's consonant) is joined to the cell holding that token, with every
    cell between them (the reference of ``ครับ`` / ``คับ`` is one cell ``รั`` against ``ั``'s
    consonant cell ``ค``, so both sides stay whole). Word tokens start clusters, so a
    word-scored view keeps one cell per word. Positions whose column index is in ``rescued``
    are marked ``R`` and shown as hits."""
    rows: list[list[Any]] = []  # [reference tokens, hypothesis tokens, marks]
    last = [None, None]  # per side: the index of the row holding that side's latest token
    position = -1
    for span in alignment.ops:
        for index in range(max(len(span.reference), len(span.hypothesis))):
            position += 1
            mark = RESCUED if position in rescued and span.op != "equal" else MARKS[span.op].strip()
            tokens = (span.reference[index] if index < len(span.reference) else "",
                      span.hypothesis[index] if index < len(span.hypothesis) else "")
            joins = [last[side] for side in (0, 1) if tokens[side] and last[side] is not None
                     and not _starts_cluster("".join(rows[last[side]][side]), tokens[side])]
            if joins:
                target = min(joins)
                for row in rows[target + 1:]:
                    rows[target][0] += row[0]
                    rows[target][1] += row[1]
                    rows[target][2] += "".join(m for m in row[2] if m not in rows[target][2])
                del rows[target + 1:]
                rows[target][0].append(tokens[0])
                rows[target][1].append(tokens[1])
                rows[target][2] += mark if mark not in rows[target][2] else ""
                # the rows from target on are one now: a side's latest token is in it
                last = [target if tokens[side] or (last[side] is not None and last[side] >= target) else last[side]
                        for side in (0, 1)]
            else:
                rows.append([[tokens[0]], [tokens[1]], mark])
                last = [len(rows) - 1 if tokens[side] else last[side] for side in (0, 1)]
    return [Cell(_shown(references, marks), _shown(hypotheses, marks), marks) for references, hypotheses, marks in rows]


def _shown(tokens: list[str], marks: str) -> str:
    """A cell side's tokens as the view shows them (:func:`shown_token`), :data:`GAP` for none."""
    text = "".join(tokens)
    return shown_token(text, bool(marks.replace(RESCUED, ""))) if text else GAP


def _views(figures: dict[str, Any], when: str) -> list[PairView]:
    pairs = figures["pairs"][:MAX_PAIRS]
    written = figures.get("written") or [None] * len(pairs)
    headline = figures.get("headline") or [None] * len(pairs)
    many = len(figures["pairs"]) > 1
    views = []
    for number, ((reference, hypothesis), texts, shown) in enumerate(zip(pairs, written, headline), 1):
        if shown is not None:  # the headline alignment is not the one the normalized forms give
            reference, hypothesis = shown["reference"], shown["hypothesis"]
        views.append(PairView(f"pair {number} {when}" if many else when, align(reference, hypothesis, figures["unit"]),
                              tuple(texts) if texts else None, frozenset(shown["rescued"]) if shown else frozenset()))
    return views


def pair_views(entry: CaseEntry) -> list[PairView]:
    """The pairs to show for ``entry``: this run's, then (an output that changed) the
    recorded ones whose forms or texts differ from this run's; none for kinds that do not
    score."""
    if not entry.figures:
        return []
    views = _views(entry.figures, "now")
    recorded = entry.recorded
    if recorded and entry.changed and (recorded["pairs"] != entry.figures["pairs"]
                                       or recorded.get("written") != entry.figures.get("written")):
        views += _views(recorded, "recorded")
    return views


def hidden_pairs(entry: CaseEntry) -> int:
    """How many of this run's pairs :func:`pair_views` leaves out."""
    return max(0, len(entry.figures["pairs"]) - MAX_PAIRS) if entry.figures else 0
