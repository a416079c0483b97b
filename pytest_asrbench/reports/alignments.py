"""The aligned views a report shows for one case: each pair of its figures now and, when its
output changed, as recorded, rebuilt from the normalized forms (snapshots keep only the error
spans) with :func:`pytest_asrbench.scoring.alignment.align`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pytest_asrbench.reports.model import CaseEntry
from pytest_asrbench.scoring.alignment import Alignment, align

#: A report shows at most this many pairs of one case (a corpus case may hold hundreds).
MAX_PAIRS = 10


@dataclass(frozen=True)
class PairView:
    """One aligned pair to show: ``label`` (``"now"``, ``"recorded"``, ``"pair 2 now"`` ...)
    and its alignment."""

    label: str
    alignment: Alignment


def _views(figures: dict[str, Any], when: str) -> list[PairView]:
    pairs = figures["pairs"][:MAX_PAIRS]
    many = len(figures["pairs"]) > 1
    return [PairView(f"pair {number} {when}" if many else when, align(reference, hypothesis, figures["unit"]))
            for number, (reference, hypothesis) in enumerate(pairs, 1)]


def pair_views(entry: CaseEntry) -> list[PairView]:
    """The pairs to show for ``entry``: this run's, then (an output that changed) the
    recorded ones whose forms differ from this run's; none for kinds that do not score."""
    if not entry.figures:
        return []
    views = _views(entry.figures, "now")
    recorded = entry.recorded
    if recorded and entry.changed and recorded["pairs"] != entry.figures["pairs"]:
        views += _views(recorded, "recorded")
    return views


def hidden_pairs(entry: CaseEntry) -> int:
    """How many of this run's pairs :func:`pair_views` leaves out."""
    return max(0, len(entry.figures["pairs"]) - MAX_PAIRS) if entry.figures else 0
