"""Metric names and versions.

A metric's ``version`` is stamped on every :class:`~pytest_asrbench.scoring.Score` and every
snapshot. Bump it whenever this package's scoring code changes an output; bump a language
config's own ``version`` when the config or its lexicons change. The metric signatures
(``asrbench signature``) fail CI when an output-changing edit arrives without a bump.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pytest_asrbench.errors import UnknownMetricError


@dataclass(frozen=True)
class Metric:
    """A named, versioned scoring rule.

    ``unit`` is ``"config"`` when the language config decides between words and characters
    (``stt_wer``: WER for English, CER for Japanese), else a fixed ``"word"`` or ``"char"``.
    ``views`` names the metric views (:mod:`pytest_asrbench.scoring.views`) that ``score()``
    runs after the strict counts, in order; each view decides which languages it applies to.
    """

    name: str
    version: str
    unit: Literal["config", "word", "char"]
    description: str
    views: tuple[str, ...] = ()


METRICS: dict[str, Metric] = {
    metric.name: metric
    for metric in (
        Metric(
            "stt_wer",
            "1.5.8",
            "config",
            "Error rate in the language's own unit (word or character) after its normalizer; "
            "code-switch aware where the config turns it on; split and closed compounds of the same "
            "letters counted as one correct word (en, de, nl); a Latin name and its katakana or Hangul rendering counted as one word (ja, ko); spaces not counted in a "
            "character-scored language that keeps them (Korean); the CER views of an evaluation "
            "protocol where the config defines one (zh-eval-v1).",
            views=("compounds", "code_switch", "loanwords", "spacing", "cer_views"),
        ),
        Metric("cer", "1.3.12", "char", "Character error rate after the language's normalizer; spaces not counted "
               "in a character-scored language that keeps them (Korean); the CER views of an evaluation "
               "protocol where the config defines one (zh-eval-v1).", views=("spacing", "cer_views")),
    )
}


def get_metric(name: str) -> Metric:
    """The metric called ``name``.

    Raises:
        UnknownMetricError: (a ``ValueError``) unknown name; the message lists the known metrics.
    """
    try:
        return METRICS[name]
    except KeyError:
        raise UnknownMetricError(f"unknown metric {name!r}; known metrics: {', '.join(sorted(METRICS))}") from None
