"""The public :func:`score`: normalize both sides, align, count, and compute the rate.

Corpus-level rates are micro-averaged: the errors of every pair are summed and divided by
the summed reference length, as sclite and jiwer do (not a mean of per-pair rates).
"""

from __future__ import annotations

import gc
from collections.abc import Sequence

from pytest_asrbench.errors import InputError, InputTypeError
from pytest_asrbench.normalize.registry import get_config, get_normalizer, resolve_language
from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.alternatives import best_reference
from pytest_asrbench.scoring.metrics import get_metric
from pytest_asrbench.scoring.result import PairScore, Score, aggregate
from pytest_asrbench.scoring.views import apply_views, keeps_spans, pair_rewrites

__all__ = ["PairScore", "Score", "aggregate", "score"]


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
    ``stt_wer``) or the metric's own (``cer``). The corpus rate is micro-averaged. Then the
    metric's views run (:mod:`pytest_asrbench.scoring.views`, in the order the metric lists
    them); each may add ``details`` and one may set the headline counts (the Hindi
    code-switch rescue makes ``rate`` the code-switch-aware WER).

    A reference may hold alternatives in sclite's syntax (``call { Jon / John } today``,
    ``so { um / @ } we left``): the hypothesis is scored against the form it matches best,
    with sclite's counts (:mod:`pytest_asrbench.scoring.alternatives`).

    A view may rewrite each normalized pair before it is aligned (``MetricView.rewrite``: the
    Japanese and Korean loanword rescue has the hypothesis write a name the way the reference
    does when one writes it in Latin and the other in katakana or Hangul); the pair's
    ``normalized_reference``/``normalized_hypothesis`` are then the rewritten texts.

    Raises:
        TypeError: inputs are not two strings or two lists of strings.
        ValueError: lists of different lengths or empty; unknown metric; unknown language;
            a metric that names an unregistered view; a malformed alternative in a reference
            (``InputError``, quoting it).
    """
    metric_info = get_metric(metric)
    tag = resolve_language(language)
    config = get_config(tag)
    unit = config.unit if metric_info.unit == "config" else metric_info.unit
    normalize = get_normalizer(tag)  # fetched once: the tag is resolved above, not per text
    rewrites = pair_rewrites(config, unit, metric_info.views)
    # A view that reads most pairs' spans (the code-switch rescue) gets the spans of the
    # alignment that gave the counts, so no pair is aligned twice.
    scored = PairScore.with_spans if keeps_spans(config, unit, metric_info.views) else PairScore.of
    pairs = _as_pairs(reference, hypothesis)
    # The loop keeps one PairScore per pair and makes no reference cycle: the cyclic garbage
    # collector would only rescan the growing list again and again (a per-pair cost that grows
    # with the corpus), so it is paused for the loop and restored as it was.
    collecting = gc.isenabled()
    gc.disable()
    try:
        pairs = [_pair_score(ref, hyp, normalize, unit, rewrites, scored) for ref, hyp in pairs]
    finally:
        if collecting:
            gc.enable()
    result = aggregate(pairs, unit=unit, metric=metric_info.name, version=metric_info.version,
                       language=tag, config_version=config.version)
    return apply_views(result, config, metric_info.views)


def _pair_score(reference: str, hypothesis: str, normalize, unit: str, rewrites=(),
                scored=PairScore.of) -> PairScore:
    """One pair scored: against the best form of its alternatives (``{ a / b }``) where the
    reference has braces, else against the reference as written; each of ``rewrites`` (the
    metric's views' pair rewrites) applied to the normalized pair first. ``scored`` makes the
    :class:`PairScore` of a normalized pair (``PairScore.of``, or ``PairScore.with_spans``
    to keep its alignment's spans)."""
    normalized_hypothesis = normalize(hypothesis)
    if "{" in reference or "}" in reference:
        best = best_reference(reference, normalized_hypothesis, normalize, unit)
        if best is not None:
            rewritten = _rewrite(best.chosen, hypothesis, best.normalized, normalized_hypothesis, rewrites)
            if rewritten == (best.normalized, normalized_hypothesis):
                return PairScore.from_alignment(reference, hypothesis, best.normalized, normalized_hypothesis, unit,
                                                best.alignment, chosen_reference=best.chosen)
            alignment = align(*rewritten, unit)
            return PairScore.from_alignment(reference, hypothesis, *rewritten, unit, alignment,
                                            chosen_reference=best.chosen)
    # A hypothesis equal to its reference (common in a good system's output) is normalized
    # once: the normalizer is a pure function of the text.
    normalized_reference = normalized_hypothesis if reference == hypothesis else normalize(reference)
    return scored(reference, hypothesis,
                  *_rewrite(reference, hypothesis, normalized_reference, normalized_hypothesis, rewrites), unit)


def _rewrite(reference: str, hypothesis: str, normalized_reference: str, normalized_hypothesis: str,
             rewrites) -> tuple[str, str]:
    for rewrite in rewrites:
        normalized_reference, normalized_hypothesis = rewrite(reference, hypothesis, normalized_reference,
                                                              normalized_hypothesis)
    return normalized_reference, normalized_hypothesis
