"""The public :func:`score`: normalize both sides, align, count, and compute the rate.

Corpus-level rates are micro-averaged: the errors of every pair are summed and divided by
the summed reference length, as sclite and jiwer do (not a mean of per-pair rates).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench.codeswitch.summary import apply_code_switch
from pytest_asrbench.errors import InputError, InputTypeError
from pytest_asrbench.normalize.registry import get_config, normalize_text, resolve_language
from pytest_asrbench.scoring.alignment import Alignment, align
from pytest_asrbench.scoring.metrics import get_metric


@dataclass(frozen=True)
class PairScore:
    """One reference/hypothesis pair: raw and normalized texts, alignment and counts."""

    reference: str
    hypothesis: str
    normalized_reference: str
    normalized_hypothesis: str
    alignment: Alignment

    @property
    def hits(self) -> int:
        return self.alignment.count("equal")

    @property
    def substitutions(self) -> int:
        return self.alignment.count("substitute")

    @property
    def deletions(self) -> int:
        return self.alignment.count("delete")

    @property
    def insertions(self) -> int:
        return self.alignment.count("insert")

    @property
    def reference_length(self) -> int:
        return len(self.alignment.reference)

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float | None:
        """Errors per reference token, or ``None`` for an empty reference."""
        return self.errors / self.reference_length if self.reference_length else None


@dataclass(frozen=True)
class Score:
    """The result of :func:`score`.

    Attributes:
        rate: (S + D + I) / reference_length, micro-averaged over pairs; ``None`` when the
            reference is empty (then ``insertions`` says how many words were hallucinated).
        unit: ``"word"`` (WER) or ``"char"`` (CER).
        hits, substitutions, deletions, insertions, reference_length: summed counts, in units.
        metric, version: the metric's name and version.
        language, config_version: the normalizer config used and its version.
        details: extra figures (a language may add e.g. ``strict_rate``).
        pairs: one :class:`PairScore` per input pair, in input order.
    """

    rate: float | None
    unit: str
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    reference_length: int
    metric: str
    version: str
    language: str
    config_version: str
    details: dict[str, Any] = field(default_factory=dict)
    pairs: tuple[PairScore, ...] = ()

    def __post_init__(self) -> None:
        for name in ("hits", "substitutions", "deletions", "insertions", "reference_length"):
            if getattr(self, name) < 0:
                raise ValueError(f"Score.{name} must be >= 0, got {getattr(self, name)}")
        if self.hits + self.substitutions + self.deletions != self.reference_length:
            raise ValueError("Score: hits + substitutions + deletions must equal reference_length")

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions


def _as_pairs(reference, hypothesis) -> list[tuple[str, str]]:
    if isinstance(reference, str) and isinstance(hypothesis, str):
        return [(reference, hypothesis)]
    if isinstance(reference, str) or isinstance(hypothesis, str):
        raise InputTypeError("score() takes two strings or two equal-length lists of strings, not a mix")
    if not isinstance(reference, Sequence) or not isinstance(hypothesis, Sequence):
        raise InputTypeError(
            f"score() takes str or list of str, got {type(reference).__name__} and {type(hypothesis).__name__}"
        )
    if len(reference) != len(hypothesis):
        raise InputError(
            f"score() got {len(reference)} references and {len(hypothesis)} hypotheses; pass one hypothesis per reference"
        )
    if not reference:
        raise InputError("score() got empty lists; pass at least one reference/hypothesis pair")
    for index, (ref, hyp) in enumerate(zip(reference, hypothesis)):
        if not isinstance(ref, str) or not isinstance(hyp, str):
            raise InputTypeError(f"score(): pair {index} is not two strings ({type(ref).__name__}, {type(hyp).__name__})")
    return list(zip(reference, hypothesis))


def score(
    reference: str | Sequence[str],
    hypothesis: str | Sequence[str],
    language: str,
    metric: str = "stt_wer",
) -> Score:
    """Score one reference/hypothesis pair, or a corpus of them (two equal-length lists).

    Both sides go through the normalizer of ``language``; the unit is the config's (for
    ``stt_wer``) or the metric's own (``cer``). The corpus rate is micro-averaged.

    Raises:
        TypeError: inputs are not two strings or two lists of strings.
        ValueError: lists of different lengths or empty; unknown metric; unknown language.
    """
    metric_info = get_metric(metric)
    tag = resolve_language(language)
    config = get_config(tag)
    unit = config.unit if metric_info.unit == "config" else metric_info.unit
    pairs = []
    for ref, hyp in _as_pairs(reference, hypothesis):
        norm_ref = normalize_text(ref, tag)
        norm_hyp = normalize_text(hyp, tag)
        pairs.append(PairScore(ref, hyp, norm_ref, norm_hyp, align(norm_ref, norm_hyp, unit)))
    result = aggregate(pairs, unit=unit, metric=metric_info.name, version=metric_info.version,
                       language=tag, config_version=config.version)
    if config.code_switch_languages and unit == "word":
        # Code-switch rescue (Hindi): rate becomes the aware WER, details gain strict_rate and
        # the rescues. Languages without code_switch_languages never reach this line.
        result = apply_code_switch(result, config)
    return result


def aggregate(pairs: Sequence[PairScore], *, unit: str, metric: str, version: str, language: str,
              config_version: str, details: dict[str, Any] | None = None) -> Score:
    """Sum the counts of ``pairs`` into one corpus-level :class:`Score`."""
    hits = sum(pair.hits for pair in pairs)
    substitutions = sum(pair.substitutions for pair in pairs)
    deletions = sum(pair.deletions for pair in pairs)
    insertions = sum(pair.insertions for pair in pairs)
    length = sum(pair.reference_length for pair in pairs)
    errors = substitutions + deletions + insertions
    return Score(
        rate=errors / length if length else None,
        unit=unit,
        hits=hits,
        substitutions=substitutions,
        deletions=deletions,
        insertions=insertions,
        reference_length=length,
        metric=metric,
        version=version,
        language=language,
        config_version=config_version,
        details=dict(details or {}),
        pairs=tuple(pairs),
    )
