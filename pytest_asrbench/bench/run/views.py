"""The four CER views of a pair, and their sums over a slice or a corpus.

The views are those of the Mandarin protocol (``zh-eval-v1``), computed by the zh scoring
views: ``score(reference, hypothesis, "zh").details[name]`` for each name of :data:`VIEWS`.
Each is a mapping with ``substitutions``, ``deletions``, ``insertions`` and
``reference_length`` (and ``rate``), or ``None`` when the view cannot be computed
(``cer_script_normalized`` without OpenCC): a ``None`` view is summed as ``None``, never as
a copied number. Sums are micro-averaged: rate = (S + D + I) / reference length.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pytest_asrbench.bench.errors import BenchError

#: The views, in the protocol's order.
VIEWS = ("cer_raw", "cer_punct", "cer_normalized", "cer_script_normalized")
#: The view a comparison decides on unless told otherwise.
PRIMARY_VIEW = "cer_normalized"


class ViewMissingError(BenchError, LookupError):
    """``score()`` gave no CER view of that name for the language: the zh-eval-v1 views are
    not installed or the language is not scored with them."""


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


def _counts(value: object, name: str) -> ViewCounts | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ViewMissingError(f"the {name} view gave {value!r}; a view must give its S/D/I counts "
                               "(substitutions, deletions, insertions, reference_length) or None")
    try:
        return ViewCounts(int(value["substitutions"]), int(value["deletions"]), int(value["insertions"]),
                          int(value["reference_length"]))
    except KeyError as exc:
        raise ViewMissingError(f"the {name} view has no {exc.args[0]!r} count; it must give "
                               "substitutions, deletions, insertions and reference_length") from None


def pair_views(reference: str, hypothesis: str, language: str = "zh") -> dict[str, ViewCounts | None]:
    """``{view: ViewCounts or None}`` of one pair.

    Raises:
        ViewMissingError: ``score()`` has no such view for ``language``.
    """
    from pytest_asrbench.scoring.score import score

    details = score(reference, hypothesis, language).details
    missing = [name for name in VIEWS if name not in details]
    if missing:
        raise ViewMissingError(f"scoring {language!r} gives no {', '.join(missing)} view; the Mandarin views "
                               "(zh-eval-v1) are missing from this installation")
    return {name: _counts(details[name], name) for name in VIEWS}


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
