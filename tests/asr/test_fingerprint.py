"""The kernel fingerprint: computed from CPU flags and environment, checked against what
CTranslate2 itself reports (``CT2_VERBOSE=1``), and used by the ``asr`` case kind."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_asrbench.asr.fingerprint import fingerprint_label, kernel_fingerprint, read_cpuinfo, x86_level

from .conftest import ROOT, needs_faster_whisper

AVX512 = frozenset({"avx", "avx2", "avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"})
AVX2 = frozenset({"avx", "avx2", "fma"})


def fp(env=None, vendor="GenuineIntel", flags=AVX512, machine="x86_64"):
    return kernel_fingerprint(env or {}, machine=machine, cpuinfo=(vendor, flags))


def test_levels_follow_ctranslate2s_flag_rules():
    assert x86_level(AVX512) == "AVX512"
    assert x86_level(AVX512 - {"avx512bw"}) == "AVX2"  # AVX512 needs all five flags
    assert x86_level(AVX2) == "AVX2"
    assert x86_level(frozenset({"avx"})) == "AVX"
    assert x86_level(frozenset({"sse4_1"})) == "GENERIC"


def test_intel_defaults_to_avx2_kernels_and_mkl():
    assert fingerprint_label(fp()) == "x86_64-avx2-mkl-avx512"
    assert fp()["cpu_isa"] == "AVX512"


def test_other_vendors_use_onednn():
    assert fingerprint_label(fp(vendor="AuthenticAMD")) == "x86_64-avx2-dnnl-avx512"
    assert fingerprint_label(fp(vendor="AuthenticAMD", flags=AVX2)) == "x86_64-avx2-dnnl-avx2"


@pytest.mark.parametrize(
    ("env", "label"),
    [
        ({"CT2_FORCE_CPU_ISA": "AVX512"}, "x86_64-avx512-mkl-avx512"),
        ({"CT2_FORCE_CPU_ISA": "GENERIC"}, "x86_64-generic-mkl-avx512"),
        ({"CT2_USE_MKL": "0"}, "x86_64-avx2-dnnl-avx512"),
        ({"CT2_USE_MKL": "false", "ONEDNN_MAX_CPU_ISA": "avx2"}, "x86_64-avx2-dnnl-avx2"),
        ({"MKL_ENABLE_INSTRUCTIONS": "AVX2"}, "x86_64-avx2-mkl-avx2"),
        ({"MKL_CBWR": "COMPATIBLE"}, "x86_64-avx2-mkl-avx512-cbwr=compatible"),
        # a cap of the other backend does not apply
        ({"ONEDNN_MAX_CPU_ISA": "AVX2"}, "x86_64-avx2-mkl-avx512"),
    ],
)
def test_environment_overrides(env, label):
    assert fingerprint_label(fp(env)) == label
    assert fp(env)["env"] is not None


def test_arm_and_unknown_hosts():
    assert fingerprint_label(fp(machine="aarch64", flags=frozenset())) == "aarch64-neon-ruy-neon"
    assert fingerprint_label(fp(machine="riscv64")) == "riscv64-unknown-unknown-unknown"
    assert fingerprint_label(fp(vendor=None, flags=frozenset())) == "x86_64-unknown-unknown-unknown"


def test_cpuinfo_is_parsed(tmp_path):
    path = tmp_path / "cpuinfo"
    path.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu avx avx2\n\nprocessor\t: 1\n")
    assert read_cpuinfo(path) == ("AuthenticAMD", frozenset({"fpu", "avx", "avx2"}))
    assert read_cpuinfo(tmp_path / "missing") == (None, frozenset())


_PROBE = """
import sys, ctranslate2
ctranslate2.models.Whisper(sys.argv[1], device="cpu", compute_type="int8")
"""


def _ctranslate2_report(model_dir: Path, env: dict) -> tuple[str, str]:
    """(Selected ISA, GEMM_S8 backend) as CTranslate2 logs them on model load."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, str(model_dir)],
        env={**os.environ, **env, "CT2_VERBOSE": "1"}, capture_output=True, text=True, timeout=120, check=True,
    )
    isa = re.search(r"Selected ISA: (\w+)", result.stderr)
    gemm = re.search(r"GEMM_S8 backend: (\w+)", result.stderr)
    assert isa and gemm, result.stderr
    return isa.group(1), gemm.group(1)


def _host_envs() -> list[dict]:
    here = kernel_fingerprint({})
    if here["arch"] != "x86_64" or here["cpu_isa"] == "unknown":
        return [{}]
    return [{}, {"CT2_USE_MKL": "0"}, {"CT2_FORCE_CPU_ISA": "AVX"}, {"CT2_FORCE_CPU_ISA": "GENERIC", "CT2_USE_MKL": "1"}]


@needs_faster_whisper
@pytest.mark.asr
def test_fingerprint_agrees_with_ctranslate2s_own_report(engine):
    """The rules above are ours; CTranslate2's log is the truth. A new CTranslate2 release
    that dispatches differently fails here, before a snapshot lies about its fingerprint."""
    model_dir = engine.model_files.path
    for env in _host_envs():
        isa, gemm = _ctranslate2_report(model_dir, env)
        ours = kernel_fingerprint({**os.environ, **env})
        assert (ours["ct2_isa"], ours["gemm"]) == (isa, gemm), env


def test_fingerprint_is_part_of_the_engine_identity(monkeypatch):
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    engine = FasterWhisperEngine()
    monkeypatch.setenv("CT2_FORCE_CPU_ISA", "GENERIC")
    generic = engine.identity()
    monkeypatch.setenv("CT2_FORCE_CPU_ISA", "AVX")
    avx = engine.identity()
    assert generic["kernels"]["ct2_isa"] == "GENERIC" and avx["kernels"]["ct2_isa"] == "AVX"
    from pytest_asrbench.asr.cache import HypothesisCache

    keys = {HypothesisCache.key(HypothesisCache.key_fields("0" * 64, "en", identity)) for identity in (generic, avx)}
    assert len(keys) == 2  # a transcript decoded on other kernels is never reused


def test_pinned_libraries_are_pinned_exactly_by_the_asr_extra():
    """Versions written into asr snapshots must not move under a fresh install."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    from pytest_asrbench.asr.faster_whisper_engine import PINNED_LIBRARIES

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["asr"]
    pins = {re.split(r"==", item)[0].strip().lower() for item in extra if "==" in item}
    assert set(PINNED_LIBRARIES) <= pins


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"CT2_FORCE_CPU_ISA": "FOO"}, ["CT2_FORCE_CPU_ISA='FOO'", "GENERIC, AVX, AVX2"]),
        ({"CT2_FORCE_CPU_ISA": "avx2"}, ["upper case"]),
        ({"CT2_USE_MKL": "maybe"}, ["CT2_USE_MKL='maybe'", "use 1 (Intel MKL) or 0 (oneDNN)"]),
        ({"ONEDNN_MAX_CPU_ISA": "garbage"}, ["ONEDNN_MAX_CPU_ISA='garbage'", "AVX512_CORE"]),
        ({"MKL_ENABLE_INSTRUCTIONS": "AVX3"}, ["MKL_ENABLE_INSTRUCTIONS='AVX3'", "AVX512"]),
        ({"MKL_CBWR": "AVX2,LOOSE"}, ["MKL_CBWR='AVX2,LOOSE'", ",STRICT"]),
    ],
)
def test_bad_kernel_variables_are_refused_before_anything_loads(env, words):
    from pytest_asrbench.asr.errors import KernelEnvironmentError
    from pytest_asrbench.asr.fingerprint import check_kernel_environment

    with pytest.raises(KernelEnvironmentError) as info:
        check_kernel_environment(env, machine="x86_64", cpuinfo=("GenuineIntel", AVX512))
    for word in words:
        assert word in str(info.value)


def test_an_instruction_set_the_cpu_lacks_is_refused():
    from pytest_asrbench.asr.errors import KernelEnvironmentError
    from pytest_asrbench.asr.fingerprint import check_kernel_environment

    check_kernel_environment({"CT2_FORCE_CPU_ISA": "AVX2", "MKL_CBWR": "compatible"}, machine="x86_64",
                             cpuinfo=("AuthenticAMD", AVX2))
    with pytest.raises(KernelEnvironmentError, match="this CPU takes one of GENERIC, AVX, AVX2;"):
        check_kernel_environment({"CT2_FORCE_CPU_ISA": "AVX512"}, machine="x86_64", cpuinfo=("AuthenticAMD", AVX2))


def test_the_engine_identity_refuses_a_bad_kernel_variable(monkeypatch):
    from pytest_asrbench.asr.errors import KernelEnvironmentError
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    monkeypatch.setenv("CT2_FORCE_CPU_ISA", "FOO")
    engine = FasterWhisperEngine()
    with pytest.raises(KernelEnvironmentError):
        engine.identity()
    assert not engine.loaded
