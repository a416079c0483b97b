"""The four CER views of a pair, and their sums over a slice or a corpus.

The views are the Mandarin protocol's (``zh-eval-v1``), computed by
:func:`pytest_asrbench.scoring.views.cer_views.cer_views` (the same figures ``score(...,
"zh").details`` holds): ``cer_raw``, ``cer_punct``, ``cer_normalized`` and
``cer_script_normalized``, the last ``None`` when the script converter (OpenCC) is not
installed or did not load: a ``None`` view is summed as ``None``, never as a copied number.
Sums are micro-averaged: rate = (S + D + I) / reference length.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pytest_asrbench.scoring.views.cer_views import VIEW_NAMES as VIEWS
from pytest_asrbench.scoring.views.cer_views import cer_views

#: The view a comparison decides on unless told otherwise.
PRIMARY_VIEW = "cer_normalized"


@dataclass(frozen=True)
class ViewCounts:
    """S, D, I and the reference length of one view (one pair or summed)."""

    substitutions: int = 0
    deletions: int = 0
    insertions: int = 0
    reference_length: int = 0

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float | None:
        return self.errors / self.reference_length if self.reference_length else None

    def __add__(self, other: ViewCounts) -> ViewCounts:
        return ViewCounts(self.substitutions + other.substitutions, self.deletions + other.deletions,
                          self.insertions + other.insertions, self.reference_length + other.reference_length)

    def to_dict(self) -> dict:
        return {"rate": self.rate, "substitutions": self.substitutions, "deletions": self.deletions,
                "insertions": self.insertions, "errors": self.errors, "reference_length": self.reference_length}


def pair_views(reference: str, hypothesis: str, language: str = "zh",
               script: str | None = None) -> tuple[dict[str, ViewCounts | None], dict]:
    """``({view: ViewCounts or None}, script conversion)`` of one pair.

    Args:
        script: the reference's script (``simplified`` / ``traditional``); ``None`` detects it.

    Returns:
        The counts, and ``cer_views``' script conversion as a dict (``ran``, ``source``,
        ``scripts``, ``libraries``, ``reason``).

    Raises:
        ValueError: the language defines no CER views, or no profile for ``script``.
    """
    result = cer_views(reference, hypothesis, language, script=script)
    counts = {name: None if value is None else
              ViewCounts(value.substitutions, value.deletions, value.insertions, value.reference_length)
              for name, value in result.views.items()}
    return counts, result.script_conversion.as_dict()


def sum_views(items: Iterable[Mapping[str, ViewCounts | None]]) -> dict[str, ViewCounts | None]:
    """Sum per view; a view that is ``None`` for any pair is ``None`` in the sum (a partial
    sum would be a figure of other pairs)."""
    totals: dict[str, ViewCounts | None] = {name: ViewCounts() for name in VIEWS}
    for item in items:
        for name in VIEWS:
            value = item.get(name)
            totals[name] = None if value is None or totals[name] is None else totals[name] + value
    return totals


def views_dict(totals: Mapping[str, ViewCounts | None]) -> dict[str, dict | None]:
    """The record's form: ``{view: {rate, substitutions, ..., reference_length} or None}``."""
    return {name: None if totals[name] is None else totals[name].to_dict() for name in VIEWS}
