"""Which language a benchmark is in, and the :class:`~.measure.Measure` it is scored with.

- Thai (``th``) is scored with the frozen benchmark metric ``th_bench_cer`` (:mod:`.metric`)
  unless another metric is named (``stt_wer``, ``cer``: then as every other language).
- Every other shipped language is scored with a metric of
  :data:`~pytest_asrbench.scoring.metrics.METRICS` (default ``stt_wer``, ``score()``'s): each
  pair goes through :func:`~pytest_asrbench.scoring.score` and its headline counts (after the
  metric's views) are summed, so a set's rate is the corpus rate of ``score()`` and of
  ``asrbench score -l LANG --references ... --hypotheses ...`` on the same pairs (a missing
  hypothesis counts as ``""`` in both).

The language is the one given (``--language``, a case file's ``language``) or, without one,
the ``language`` of every scored set's sidecar ``<set>.meta.json`` (:mod:`.sidecar`); they
must agree, and a set with neither is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pytest_asrbench.bench.errors import SetLanguageError
from pytest_asrbench.bench.scoring.measure import THAI, THAI_BENCHMARK, THAI_METRIC, Measure
from pytest_asrbench.bench.scoring.sidecar import read_sidecar, sidecar_path
from pytest_asrbench.scoring.counts import EditCounts

#: The sidecar key naming the language of a set's texts (a language tag: ``en``, ``de``, ``fr-CA``).
LANGUAGE_KEY = "language"
#: The metric of every language but Thai when none is named: ``score()``'s default.
DEFAULT_METRIC = "stt_wer"


def set_language(references: Path) -> str | None:
    """The ``language`` of the sidecar of ``references`` (``<set>.jsonl``); ``None`` without one.

    Raises:
        JsonlFormatError: a bad sidecar (:func:`.sidecar.read_sidecar`).
        SetLanguageError: ``language`` is there but not a non-empty string.
    """
    meta = read_sidecar(references)
    if meta is None or LANGUAGE_KEY not in meta:
        return None
    value = meta[LANGUAGE_KEY]
    if not isinstance(value, str) or not value.strip():
        raise SetLanguageError(f"{sidecar_path(references)}: {LANGUAGE_KEY} must be a language tag such as \"en\", "
                               f"got {value!r}")
    return value


def benchmark_language(refs_dir: Path, names: Sequence[str], language: str | None) -> str:
    """The config tag the sets ``names`` of ``refs_dir`` are scored in.

    Args:
        language: the language given (``--language``); ``None``: the sets' sidecars say.

    Raises:
        UnknownLanguageError: the language (given or a sidecar's) has no config; the message
            lists the shipped languages.
        SetLanguageError: no language given and a set's sidecar names none; sets (or a set and
            the given language) disagree; a sidecar's ``language`` is not a string.
        JsonlFormatError: a bad sidecar.
    """
    from pytest_asrbench.normalize.registry import resolve_language

    declared = {name: set_language(Path(refs_dir) / f"{name}.jsonl") for name in names}
    tags = {name: resolve_language(value) for name, value in declared.items() if value is not None}
    if language is not None:
        tag = resolve_language(language)
        wrong = [f"{name} ({declared[name]})" for name, other in tags.items() if other != tag]
        if wrong:
            raise SetLanguageError(f"--language {language} but the sidecar of {', '.join(wrong)} names another "
                                   f"language; score those sets separately or fix {LANGUAGE_KEY} in their .meta.json")
        return tag
    unknown = [name for name in names if declared[name] is None]
    if unknown:
        raise SetLanguageError(f"set(s) {', '.join(unknown)} in {refs_dir} name no language: pass --language LANG "
                               f"or write \"{LANGUAGE_KEY}\": \"<tag>\" in {unknown[0]}.meta.json")
    found = sorted(set(tags.values()))
    if len(found) > 1:
        shown = ", ".join(f"{name} ({declared[name]})" for name in names)
        raise SetLanguageError(f"the sets are in different languages: {shown}; score each language on its own "
                               "(--sets) so rates of one unit are summed")
    return found[0]


def measure_for(language: str, metric: str | None = None) -> Measure:
    """The :class:`Measure` of ``language`` (a config tag) with ``metric`` (``None``: ``th_bench_cer``
    for Thai, ``stt_wer`` otherwise).

    Raises:
        SetLanguageError: ``th_bench_cer`` asked for another language than Thai.
        UnknownMetricError: an unknown metric name (the message lists the known ones).
    """
    if metric is None:
        metric = THAI_METRIC if language == THAI else DEFAULT_METRIC
    if metric == THAI_METRIC:
        if language != THAI:
            raise SetLanguageError(f"{THAI_METRIC} scores Thai only, not {language!r}; leave --metric out "
                                   f"({DEFAULT_METRIC}) or name cer")
        return THAI_BENCHMARK
    from pytest_asrbench.normalize.registry import get_config
    from pytest_asrbench.scoring.metrics import get_metric

    info = get_metric(metric)
    unit = get_config(language).unit if info.unit == "config" else info.unit

    def counts(reference: str, hypothesis: str) -> EditCounts:
        from pytest_asrbench.scoring.score import score

        result = score(reference, hypothesis, language, info.name)
        return EditCounts(result.hits, result.substitutions, result.deletions, result.insertions,
                          result.reference_length)

    return Measure(info.name, info.version, language, unit, _identity, counts)


def _identity(text: str) -> str:
    return text


def describe(measure: Measure) -> dict[str, str]:
    """The metric as a scores JSON records it: for ``th_bench_cer`` :func:`.signature.describe`
    (with its signature and cleaning), else name, version, language, the language config's
    version and the unit."""
    if measure is THAI_BENCHMARK:
        import pytest_asrbench.bench.scoring.signature as signature

        return signature.describe()
    from pytest_asrbench.normalize.registry import get_config

    return {"name": measure.metric, "version": measure.version, "language": measure.language,
            "config_version": get_config(measure.language).version, "unit": measure.unit}
