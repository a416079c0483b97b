"""The shipped ``asr`` snapshots pass on other CPU kernels than the host's own: the cases run
in a child pytest under forced CTranslate2 instruction sets and GEMM backends, and pass."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from pytest_asrbench.asr.fingerprint import kernel_fingerprint

from .conftest import ROOT, needs_faster_whisper

FORCED = [
    {"CT2_FORCE_CPU_ISA": "GENERIC"},
    {"CT2_FORCE_CPU_ISA": "AVX", "CT2_USE_MKL": "0"},
]


@needs_faster_whisper
@pytest.mark.asr
@pytest.mark.parametrize("env", FORCED, ids=lambda env: "-".join(f"{k}={v}" for k, v in env.items()))
def test_asr_cases_pass_under_forced_kernels(env):
    if kernel_fingerprint({})["arch"] != "x86_64":
        pytest.skip("CT2_FORCE_CPU_ISA names x86-64 instruction sets")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--asrbench", "cases", "-k", "asr", "-q", "-p", "no:cacheprovider",
         "--asrbench-no-cache",  # decode under the forced kernels; store nothing in the shared cache
         "--no-header"],
        cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=900, check=False,
    )
    tail = "\n".join((result.stdout + result.stderr).splitlines()[-40:])
    assert result.returncode == 0, tail
    # pytest's own outcome line (the asrbench summary above it has a "failed" column)
    outcome = result.stdout.strip().splitlines()[-1]
    assert re.search(r"\d+ passed", outcome) and not re.search(r"\d+ failed", outcome), tail
