"""The views a bench run scores each pair with, and their sums over a slice or a corpus.

Which views depend on the manifest's language (:func:`view_set`):

- ``zh``: the Mandarin protocol's four CER views (``zh-eval-v1``), computed by
  :func:`pytest_asrbench.scoring.views.cer_views.cer_views` (the same figures ``score(...,
  "zh").details`` holds): ``cer_raw``, ``cer_punct``, ``cer_normalized`` (the primary view)
  and ``cer_script_normalized``, the last ``None`` when the script converter (OpenCC) is not
  installed or did not load: a ``None`` view is summed as ``None``, never as a copied number;
- every other shipped language: its benchmark metric as ``asrbench bench score`` counts it
  (:func:`pytest_asrbench.bench.scoring.language.measure_for`: ``th_bench_cer`` for Thai,
  else ``stt_wer``, a WER for space-delimited languages and a CER for those the language
  config scores by character: ja, ko), the primary view; and for a word metric also ``cer``
  (the same normalizer, characters aligned), a second view.

Sums are micro-averaged: rate = (S + D + I) / reference length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.cer_views import VIEW_NAMES as VIEWS
from pytest_asrbench.scoring.views.cer_views import cer_views

#: The language whose runs have the four CER views of the Mandarin protocol.
CER_VIEWS_LANGUAGE = "zh"
#: The view a comparison of zh runs decides on unless told otherwise.
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


@dataclass(frozen=True)
class ViewSet:
    """The views of one run: ``names`` in record order, the ``primary`` one a comparison
    decides on, the ``unit`` of the primary view (``word`` or ``char``), and ``pair(reference,
    hypothesis)`` giving ``({view: EditCounts or None}, script conversion or None)``."""

    language: str
    names: tuple[str, ...]
    primary: str
    unit: str
    pair: Callable[[str, str], tuple[dict[str, EditCounts | None], dict | None]]

    @property
    def label(self) -> str:
        """``"WER"`` or ``"CER"``: the primary view's rate by unit."""
        return "WER" if self.unit == "word" else "CER"


def view_set(language: str, script: str | None = None) -> ViewSet:
    """The views of a run in ``language`` (a tag; ``script`` only for ``zh``), module docstring.

    Raises:
        UnknownLanguageError: no shipped config for ``language`` (the message lists them).
    """
    from pytest_asrbench.normalize.registry import resolve_language

    tag = resolve_language(language)
    if tag == CER_VIEWS_LANGUAGE:
        return ViewSet(tag, tuple(VIEWS), PRIMARY_VIEW, "char", lambda ref, hyp: pair_views(ref, hyp, tag, script))
    from pytest_asrbench.bench.scoring.language import measure_for

    primary = measure_for(tag)
    measures = [primary] + ([measure_for(tag, "cer")] if primary.unit == "word" else [])

    def pair(reference: str, hypothesis: str) -> tuple[dict[str, EditCounts | None], None]:
        return {m.metric: m.counts(m.prepare(reference), hypothesis) for m in measures}, None

    return ViewSet(tag, tuple(m.metric for m in measures), primary.metric, primary.unit, pair)


def sum_views(items: Iterable[Mapping[str, EditCounts | None]],
              names: Iterable[str] = VIEWS) -> dict[str, EditCounts | None]:
    """Sum per view (``names``: the run's views); a view that is ``None`` for any pair is
    ``None`` in the sum (a partial sum would be a figure of other pairs)."""
    names = tuple(names)
    totals: dict[str, EditCounts | None] = {name: EditCounts.zero() for name in names}
    for item in items:
        for name in names:
            value = item.get(name)
            totals[name] = None if value is None or totals[name] is None else totals[name] + value
    return totals


def views_dict(totals: Mapping[str, EditCounts | None]) -> dict[str, dict | None]:
    """The record's form: ``{view: {RECORD_FIELDS} or None}``, in ``totals``' order."""
    return {name: None if value is None else value.to_dict(RECORD_FIELDS) for name, value in totals.items()}
