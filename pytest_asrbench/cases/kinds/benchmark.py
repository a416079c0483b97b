"""The ``benchmark`` kind: score a benchmark's hypotheses folder and snapshot every figure.

Fields: ``references`` and ``hypotheses`` (folders of ``<set>.jsonl``, relative to the YAML
file), optional ``compare`` (a second system's hypotheses: the paired comparison), ``sets``,
``seed`` (default 0), ``resamples`` (default 1,000), ``allow_extra`` and ``expect`` (values
to check, by dotted path: ``overall.rate``, ``sets.synthetic.ci95``, ``overall.compare.difference``;
floats to ``tolerance``, default 1e-9). The language is the case's (``language`` of the
file or the entry); a set whose sidecar ``<set>.meta.json`` names another language fails the
case (:mod:`pytest_asrbench.bench.scoring.language`). Thai is scored with the benchmark's own
metric, ``th_bench_cer``, unless the entry names a ``metric``; every other language with the
case's ``metric`` (default ``stt_wer``) through ``score()``. ``th_bench_cer``'s version and
signature are in ``asrbench bench score --json``, not in the snapshot, and its signature case
(``th_bench_cer-signature`` in ``cases/th/signature.yaml``) gates Thai benchmark cases under
``--snapshot-update``; another language's cases are gated by their metric's signature case.

The output snapshotted: the metric (and, for a metric other than ``th_bench_cer``, which
names Thai, the language), per set and overall the counts, rate, 95% cluster bootstrap interval,
missing and extra ids (and the comparison), and the bootstrap's seed and resamples; the seed
makes it deterministic. Bad files fail the case with the scorer's message (``file:line``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_asrbench.cases.kinds.score import DEFAULT_TOLERANCE, EXPECT_VALUE, check_expectations
from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import RunContext, register

_FOLDER = {"type": "string", "minLength": 1, "description": "a folder of <set>.jsonl files, relative to the YAML file"}

SCHEMA: dict = {
    "properties": {
        "references": {**_FOLDER, "examples": ["benchmark/refs"]},
        "hypotheses": {**_FOLDER, "examples": ["benchmark/hyps"]},
        "compare": _FOLDER,
        "sets": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "uniqueItems": True},
        "seed": {"type": "integer", "minimum": 0},
        "resamples": {"type": "integer", "minimum": 1},
        "allow_extra": {"type": "boolean"},
        "expect": {"type": "object", "minProperties": 1,
                   "additionalProperties": {"anyOf": [EXPECT_VALUE, {"type": "array", "items": {"type": ["number", "string"]}}]},
                   "description": "Figures to check by dotted path: overall.rate, sets.<set>.deletions, "
                                  "overall.compare.second_better ..."},
        "tolerance": {"type": "number", "minimum": 0},
    },
    "required": ["references", "hypotheses"],
}


def _keyed(output: dict[str, Any]) -> dict[str, Any]:
    """The output with ``sets`` as a mapping by set name, so ``expect`` can say ``sets.<name>.rate``."""
    return {**output, "sets": {entry["set"]: entry for entry in output["sets"]}}


def _same(actual: Any, wanted: Any, tolerance: float) -> bool:
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (actual, wanted))
    return abs(actual - wanted) <= tolerance if numbers else actual == wanted


def _check_list(actual: Any, wanted: list, key: str, tolerance: float) -> list[str]:
    """An expected list (an interval, ids) against the output's: numbers to ``tolerance``."""
    if not isinstance(actual, list) or len(actual) != len(wanted) or not all(
            _same(a, w, tolerance) for a, w in zip(actual, wanted)):
        return [f"{key} {actual!r} != expected {wanted!r} (tolerance {tolerance})"]
    return []


def case_metric(case: Case) -> str:
    """The metric a benchmark case is scored with: ``th_bench_cer`` for Thai unless the entry
    names a ``metric``, else the case's ``metric``."""
    from pytest_asrbench.bench.scoring.measure import THAI, THAI_METRIC

    return THAI_METRIC if case.language == THAI and "metric" not in case.lines else case.metric


@register
class BenchmarkRunner:
    kind = "benchmark"

    def gated_metric(self, case: Case) -> str:
        """The metric whose signature case gates ``case`` under --snapshot-update
        (:func:`pytest_asrbench.cases.version_gate_session.gated_metric`): :func:`case_metric`."""
        return case_metric(case)

    def run(self, case: Case, context: RunContext) -> CaseResult:
        from pytest_asrbench.bench.scoring.corpus import resolve_sets, score_benchmark
        from pytest_asrbench.bench.scoring.language import benchmark_language, measure_for
        from pytest_asrbench.bench.scoring.measure import THAI_METRIC
        from pytest_asrbench.bench.scoring.report import scores_dict

        fields = case.fields
        here = Path(case.file).parent
        compare = here / fields["compare"] if "compare" in fields else None
        names = resolve_sets(here / fields["references"], fields.get("sets"))
        measure = measure_for(benchmark_language(here / fields["references"], names, case.language), case_metric(case))
        scores = score_benchmark(here / fields["references"], here / fields["hypotheses"], names,
                                 compare_dir=compare, seed=fields.get("seed", 0),
                                 resamples=fields.get("resamples", 1000), allow_extra=fields.get("allow_extra", False),
                                 measure=measure)
        named = {} if measure.metric == THAI_METRIC else {"language": measure.language}
        output = {"kind": case.kind, "metric": measure.metric, **named, **scores_dict(scores)}
        expect = fields.get("expect", {})
        tolerance = fields.get("tolerance", DEFAULT_TOLERANCE)
        lists = {key: value for key, value in expect.items() if isinstance(value, list)}
        plain = {key: value for key, value in expect.items() if key not in lists}
        keyed = _keyed(output)
        failures = check_expectations(keyed, plain, tolerance) if plain else []
        for key, wanted in lists.items():
            node: Any = keyed
            for part in key.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            failures += _check_list(node, wanted, key, tolerance)
        return CaseResult(output, failures)
