"""The shipped ``asr`` cases pass on hosts nobody recorded natively, judged by tolerance and never
exactly: under forced CTranslate2 kernels (a simulated host, whatever the CPU underneath) and
as a CPU no snapshot records (an AMD EPYC's identity). The cases decode for real in a child
pytest; the hypothesis cache is bypassed or keyed by the pretended host, so nothing decoded
elsewhere is reused."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from pytest_asrbench.asr.fingerprint import kernel_fingerprint

from .conftest import ROOT, needs_faster_whisper
from .hosts import AMD_NAME, other_cpu_plugin

FORCED = [
    {"CT2_FORCE_CPU_ISA": "GENERIC"},
    {"CT2_FORCE_CPU_ISA": "AVX", "CT2_USE_MKL": "0"},
    {"CT2_FORCE_CPU_ISA": "AVX2"},
]


def _asr_case_count() -> int:
    """The shipped ``asr`` cases (every clip of every case file, whatever model it names)."""
    import yaml

    return sum(1 for path in sorted((ROOT / "cases").glob("*/*.yaml"))
               for case in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cases") or []
               if case.get("kind") == "asr")


CLIPS = _asr_case_count()


def _run_asr_cases(env: dict[str, str], *extra: str) -> tuple[subprocess.CompletedProcess, str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--asrbench", "cases", "-k", "asr", "-q", "-p", "no:cacheprovider",
         "--no-header", *extra],
        cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=1200, check=False,
    )
    tail = "\n".join((result.stdout + result.stderr).splitlines()[-60:])
    assert result.returncode == 0, tail
    # pytest's own outcome line (the asrbench summary above it has a "failed" column)
    outcome = result.stdout.strip().splitlines()[-1]
    assert re.search(rf"\b{CLIPS} passed", outcome) and not re.search(r"\d+ failed", outcome), tail
    return result, tail


@needs_faster_whisper
@pytest.mark.asr
@pytest.mark.parametrize("env", FORCED, ids=lambda env: "-".join(f"{k}={v}" for k, v in env.items()))
def test_asr_cases_pass_under_forced_kernels_judged_by_tolerance(env):
    if kernel_fingerprint({})["arch"] != "x86_64":
        pytest.skip("CT2_FORCE_CPU_ISA names x86-64 instruction sets")
    # decode under the forced kernels; store nothing in the cache
    result, tail = _run_asr_cases(env, "--asrbench-no-cache")
    header = re.search(r"(\d+) asr case\(s\) judged by tolerance, not exactly, on simulated (\S+) \(([^)]*)\) "
                       r"\(kernel variables set", result.stdout)
    assert header, tail
    assert int(header.group(1)) == CLIPS  # every case, including those with a native recording of this CPU
    assert all(f"{name}={value}" in header.group(3) for name, value in env.items())
    assert "FAILED" not in result.stdout.split("judged by tolerance", 1)[1]


@needs_faster_whisper
@pytest.mark.asr
def test_asr_cases_pass_on_a_cpu_no_snapshot_records(tmp_path):
    """An AMD EPYC identity (vendor, family, model and extensions no recording has): every case
    is judged by tolerance against the recordings, and passes."""
    plugin, env = other_cpu_plugin(tmp_path / "amd")
    result, tail = _run_asr_cases(env, "-p", plugin)
    assert (f"{CLIPS} asr case(s) judged by tolerance, not exactly, on {AMD_NAME} "
            "(no native recording of this host)") in result.stdout, tail
