"""The ``benchmark`` kind: score a benchmark's hypotheses folder and snapshot every figure.

Fields: ``references`` and ``hypotheses`` (folders of ``<set>.jsonl``, relative to the YAML
file), optional ``compare`` (a second system's hypotheses: the paired comparison), ``sets``,
``seed`` (default 0), ``resamples`` (default 1,000), ``allow_extra`` and ``expect`` (values
to check, by dotted path: ``overall.rate``, ``sets.synthetic.ci95``, ``overall.compare.difference``;
floats to ``tolerance``, default 1e-9). The metric is the benchmark's own, ``th_bench_cer``
(:mod:`pytest_asrbench.bench.scoring`); its version and signature are in ``asrbench bench
score --json``, not in the snapshot, and its signature case (``th_bench_cer-signature`` in
``cases/th/signature.yaml``) gates this kind under ``--snapshot-update``.

The output snapshotted: per set and overall the counts, rate, 95% cluster bootstrap interval,
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
        "references": _FOLDER,
        "hypotheses": _FOLDER,
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
        return [f"{key} is {actual!r}, expected {wanted!r} (tolerance {tolerance})"]
    return []


@register
class BenchmarkRunner:
    kind = "benchmark"
    #: The metric whose signature case gates this kind under --snapshot-update
    #: (:func:`pytest_asrbench.cases.signature_gate.gated_metric`).
    metric = "th_bench_cer"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        from pytest_asrbench.bench.scoring.corpus import score_benchmark
        from pytest_asrbench.bench.scoring.report import scores_dict

        fields = case.fields
        here = Path(case.file).parent
        compare = here / fields["compare"] if "compare" in fields else None
        scores = score_benchmark(here / fields["references"], here / fields["hypotheses"], fields.get("sets"),
                                 compare_dir=compare, seed=fields.get("seed", 0),
                                 resamples=fields.get("resamples", 1000), allow_extra=fields.get("allow_extra", False))
        output = {"kind": case.kind, "metric": self.metric, **scores_dict(scores)}
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
