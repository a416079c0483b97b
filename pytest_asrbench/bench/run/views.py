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

from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.cer_views import VIEW_NAMES as VIEWS
from pytest_asrbench.scoring.views.cer_views import cer_views

#: The view a comparison decides on unless told otherwise.
PRIMARY_VIEW = "cer_normalized"
#: The fields of each view in the run record, in this order (no ``hits``; ``errors`` is S + D + I).
RECORD_FIELDS: tuple[str, ...] = ("rate", "substitutions", "deletions", "insertions", "errors", "reference_length")
#: The fields of each view of one utterance in the run record, in this order.
UTTERANCE_FIELDS: tuple[str, ...] = ("substitutions", "deletions", "insertions", "reference_length")


def pair_views(reference: str, hypothesis: str, language: str = "zh",
               script: str | None = None) -> tuple[dict[str, EditCounts | None], dict]:
    """``({view: EditCounts or None}, script conversion)`` of one pair.

    Args:
        script: the reference's script (``simplified`` / ``traditional``); ``None`` detects it.

    Returns:
        The counts, and ``cer_views``' script conversion as a dict (``ran``, ``source``,
        ``scripts``, ``libraries``, ``reason``).

    Raises:
        ValueError: the language defines no CER views, or no profile for ``script``.
    """
    result = cer_views(reference, hypothesis, language, script=script)
    return dict(result.views), result.script_conversion.as_dict()


def sum_views(items: Iterable[Mapping[str, EditCounts | None]]) -> dict[str, EditCounts | None]:
    """Sum per view; a view that is ``None`` for any pair is ``None`` in the sum (a partial
    sum would be a figure of other pairs)."""
    totals: dict[str, EditCounts | None] = {name: EditCounts.zero() for name in VIEWS}
    for item in items:
        for name in VIEWS:
            value = item.get(name)
            totals[name] = None if value is None or totals[name] is None else totals[name] + value
    return totals


def views_dict(totals: Mapping[str, EditCounts | None]) -> dict[str, dict | None]:
    """The record's form: ``{view: {RECORD_FIELDS} or None}``."""
    return {name: None if totals[name] is None else totals[name].to_dict(RECORD_FIELDS) for name in VIEWS}
