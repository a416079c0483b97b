"""The th_bench_cer signature case end to end, in a copy of the project run by a child pytest.

Each input of the benchmark metric (the bench_v1 profile of configs/th.toml, the cleaning's
normalizer steps, the scorer) is edited in the copy: the signature case then fails with
"metric changed without a version bump", a benchmark case is refused by --snapshot-update,
and a bump of bench/scoring/metric.py's VERSION plus the documented command re-records.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.signatures.test_signatures_e2e import REPO, child

METRIC_FILE = "pytest_asrbench/bench/scoring/metric.py"


def run_th(copy: Path, *extra: str):
    return child(copy, "-m", "pytest", "--asrbench", "cases/th", "-p", "no:cacheprovider", "-q", "-rN", *extra)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "pytest_asrbench", tmp_path / "pytest_asrbench", ignore=ignore)
    shutil.copytree(REPO / "configs", tmp_path / "configs", ignore=ignore)
    shutil.copytree(REPO / "cases" / "th" / "benchmark", tmp_path / "cases" / "th" / "benchmark")
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_snapshot_dir = snapshots\n", encoding="utf-8")
    (tmp_path / "cases" / "th" / "benchmark.yaml").write_text(
        "language: th\ncases:\n  - id: bench-a\n    kind: benchmark\n    references: benchmark/refs\n"
        "    hypotheses: benchmark/hyps_a\n    resamples: 50\n", encoding="utf-8")
    printed = child(tmp_path, "-m", "pytest_asrbench.cli", "signature", "-l", "th", "--metric", "th_bench_cer", "--case")
    assert printed.returncode == 0, printed.stderr
    entry = "".join(line + "\n" for line in printed.stdout.splitlines() if not line.startswith("#"))
    (tmp_path / "cases" / "th" / "signature.yaml").write_text("language: th\ncases:\n" + entry, encoding="utf-8")
    recorded = run_th(tmp_path, "--snapshot-update")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    return tmp_path


def edit_profile(copy: Path) -> str:
    config = copy / "configs" / "th.toml"
    text = config.read_text(encoding="utf-8")
    assert '[profiles.bench_v1]\nnote = "' in text
    config.write_text(text.replace('[profiles.bench_v1]\nnote = "', '[profiles.bench_v1]\nnote = "edited ', 1),
                      encoding="utf-8")
    return "config th.toml [profiles.bench_v1]"


def _append_code(copy: Path, rel: str) -> str:
    path = copy / rel
    path.write_text(path.read_text(encoding="utf-8") + "\n\nEDITED_CONSTANT = 1\n", encoding="utf-8")
    return f"module {rel}"


EDITS = {
    "profile": edit_profile,
    "cleaning-steps": lambda copy: _append_code(copy, "pytest_asrbench/normalize/languages/th/bench.py"),
    "scorer": lambda copy: _append_code(copy, "pytest_asrbench/bench/scoring/corpus.py"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_unbumped_input_change_fails_the_case(copy, edit):
    changed = EDITS[edit](copy)
    done = run_th(copy, "-k", "signature")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "metric changed without a version bump (th_bench_cer, th)" in out
    assert f"changed: {changed}" in out
    if changed.startswith("module "):
        assert f"metric th_bench_cer in {METRIC_FILE}" in out  # where its version lives


def test_a_benchmark_case_is_gated_by_its_own_metric(copy):
    EDITS["scorer"](copy)
    refused = run_th(copy, "--snapshot-update")
    out = refused.stdout + refused.stderr
    assert refused.returncode == 1, out
    assert "not re-recorded: (th_bench_cer, th) changed without a version bump" in out  # bench-a, not the stt_wer pair


def test_bump_then_the_one_command_rerecords(copy):
    EDITS["scorer"](copy)
    metric = copy / METRIC_FILE
    text = metric.read_text(encoding="utf-8")
    major, minor, patch = re.search(r'(?m)^VERSION = "(\d+)\.(\d+)\.(\d+)"', text).groups()
    before, after = f"{major}.{minor}.{patch}", f"{major}.{int(minor) + 1}.0"  # the scorer's output moves
    metric.write_text(text.replace(f'VERSION = "{before}"', f'VERSION = "{after}"'), encoding="utf-8")
    stale = run_th(copy, "-k", "signature")
    assert stale.returncode == 1 and f"version bumped (metric th_bench_cer {before}→{after})" in stale.stdout
    updated = run_th(copy, "--snapshot-update")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert f'version: "{after}"' in (copy / "cases" / "th" / "signature.yaml").read_text(encoding="utf-8")
    assert run_th(copy).returncode == 0
