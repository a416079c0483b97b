"""What a benchmark is scored with: the metric's per-pair counts (:class:`Measure`).

- Thai (``th``) is scored with the frozen benchmark metric ``th_bench_cer`` (:mod:`.metric`):
  both sides cleaned with ``th-bench-v1``, every whitespace character removed, characters
  aligned. ``--metric stt_wer`` or ``cer`` scores Thai with :func:`~pytest_asrbench.scoring.score`
  instead.
- Every other shipped language is scored with a metric of
  :data:`~pytest_asrbench.scoring.metrics.METRICS` (default ``stt_wer``, as ``score()``):
  each pair goes through :func:`~pytest_asrbench.scoring.score` and its headline counts (after
  the metric's views) are summed, so a set's rate is the corpus rate of ``score()`` and of
  ``asrbench score -l LANG --references ... --hypotheses ...`` on the same pairs.

The Thai measure lives here (the corpus scorer uses it by default); the others, and
which language a benchmark is in, are built by :mod:`.language` (which the commands and
the case kind call), so ``th_bench_cer``'s code stays apart from ``score()``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytest_asrbench.bench.references.cleaning import clean_reference
from pytest_asrbench.bench.scoring.metric import VERSION
from pytest_asrbench.scoring.alignment import char_counts
from pytest_asrbench.scoring.counts import EditCounts

#: The benchmark metric of Thai, and its language.
THAI_METRIC = "th_bench_cer"
THAI = "th"


def clean_for_scoring(text: str) -> str:
    """``text`` as ``th_bench_cer`` compares it: ``th-bench-v1`` cleaned, all whitespace removed.

    Raises:
        BenchDependencyError: pythainlp 5.3.5 is not installed.
    """
    return "".join(clean_reference(text).split())


@dataclass(frozen=True)
class Measure:
    """How pairs are counted: ``metric`` (name), ``version``, ``language`` (the config tag),
    ``unit`` (``"word"`` or ``"char"``); ``prepare`` turns a reference into what
    ``counts(prepared_reference, hypothesis)`` takes (done once per reference)."""

    metric: str
    version: str
    language: str
    unit: str
    prepare: Callable[[str], str]
    counts: Callable[[str, str], EditCounts]

    @property
    def label(self) -> str:
        """``"WER"`` or ``"CER"``: the rate's name by unit."""
        return "WER" if self.unit == "word" else "CER"


def _thai_counts(reference: str, hypothesis: str) -> EditCounts:
    return char_counts(reference, clean_for_scoring(hypothesis))


#: Thai's benchmark measure: ``th_bench_cer`` (:mod:`.metric`).
THAI_BENCHMARK = Measure(THAI_METRIC, VERSION, THAI, "char", clean_for_scoring, _thai_counts)
