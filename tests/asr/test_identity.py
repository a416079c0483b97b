"""The host numeric identity: read from a CPU description and the kernel variables, never equal
for two CPUs whose CTranslate2 kernel label agrees, simulated whenever a variable is forced."""

from __future__ import annotations

from pytest_asrbench.asr.identity import (
    DISPATCH_FLAGS,
    host_identity,
    identity_name,
    is_simulated,
    read_cpu,
    short_name,
)

AMD_EPYC = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC 9R14
stepping\t: 1
flags\t\t: fpu sse4_2 avx f16c fma avx2 avx512f avx512dq avx512cd avx512bw avx512vl avx512_bf16 avx512_vnni avx512vbmi avx512_vbmi2

processor\t: 1
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
flags\t\t: fpu
"""
INTEL_XEON = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 207
stepping\t: 2
flags\t\t: fpu sse4_2 avx f16c fma avx2 avx512f avx512dq avx512cd avx512bw avx512vl avx_vnni avx512_bf16 avx512_vnni avx512_fp16 amx_tile amx_int8 amx_bf16
"""


def _identity(tmp_path, text, env=None, name="cpuinfo"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return host_identity(env or {}, machine="x86_64", cpuinfo_path=path)


def test_the_first_processor_is_read(tmp_path):
    path = tmp_path / "cpuinfo"
    path.write_text(AMD_EPYC, encoding="utf-8")
    cpu = read_cpu(path)
    assert (cpu.vendor, cpu.family, cpu.model) == ("AuthenticAMD", "25", "17")
    assert "avx512_vnni" in cpu.flags and "fpu" in cpu.flags and len(cpu.flags) > 1


def test_same_kernel_label_different_cpus_are_different_hosts(tmp_path):
    """The failure this identity exists for: an AMD EPYC and an Intel Xeon both forced to oneDNN
    with AVX-512 share the label x86_64-avx2-dnnl-avx512 and still run other int8 kernels."""
    amd = _identity(tmp_path, AMD_EPYC, name="amd")
    intel = _identity(tmp_path, INTEL_XEON, {"CT2_USE_MKL": "0"}, name="intel")
    assert amd["kernels"] == intel["kernels"] == "x86_64-avx2-dnnl-avx512"
    assert identity_name(amd) != identity_name(intel)
    assert identity_name(amd) == ("x86_64 AuthenticAMD 25/17: avx avx2 avx512_bf16 avx512_vnni avx512bw avx512cd "
                                  "avx512dq avx512f avx512vbmi avx512vl f16c fma")


def test_dispatch_extensions_are_part_of_the_identity(tmp_path):
    with_amx = _identity(tmp_path, INTEL_XEON, name="a")
    without = _identity(tmp_path, INTEL_XEON.replace(" amx_tile amx_int8 amx_bf16", ""), name="b")
    assert with_amx["extensions"] != without["extensions"]
    assert identity_name(with_amx) != identity_name(without)
    assert "sse4_2" not in with_amx["extensions"] and "fpu" not in with_amx["extensions"]
    assert set(with_amx["extensions"]) <= set(DISPATCH_FLAGS)


def test_the_stepping_is_not_part_of_the_identity(tmp_path):
    assert identity_name(_identity(tmp_path, INTEL_XEON, name="a")) == identity_name(
        _identity(tmp_path, INTEL_XEON.replace("stepping\t: 2", "stepping\t: 8"), name="b"))


def test_any_kernel_variable_makes_the_host_simulated(tmp_path):
    native = _identity(tmp_path, INTEL_XEON)
    assert not native["simulated"] and not is_simulated(identity_name(native))
    for env in ({"CT2_FORCE_CPU_ISA": "AVX2"}, {"CT2_USE_MKL": "1"}, {"ONEDNN_MAX_CPU_ISA": "AVX2"},
                {"MKL_CBWR": "COMPATIBLE"}):
        forced = _identity(tmp_path, INTEL_XEON, env)
        name = identity_name(forced)
        assert forced["simulated"] and is_simulated(name), env
        assert short_name(name).startswith(f"simulated {forced['kernels']} (") and "=" in short_name(name)
    # even a forced value equal to the default is a simulation: it is not what a user's host runs
    assert identity_name(_identity(tmp_path, INTEL_XEON, {"CT2_FORCE_CPU_ISA": "AVX2"})) != identity_name(native)


def test_a_host_without_cpuinfo_is_unknown(tmp_path):
    identity = host_identity({}, machine="x86_64", cpuinfo_path=tmp_path / "missing")
    assert identity["vendor"] is None and identity["extensions"] == []
    assert identity_name(identity) == "x86_64 unknown-vendor ?/?: no dispatch extensions"


def test_the_engine_identity_carries_the_host(monkeypatch, tmp_path):
    """The hypothesis cache key includes the host, so a transcript decoded on another CPU with
    the same kernel label is never reused."""
    from pytest_asrbench.asr import identity as identity_module
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    amd, intel = tmp_path / "amd", tmp_path / "intel"
    amd.write_text(AMD_EPYC, encoding="utf-8")
    intel.write_text(INTEL_XEON, encoding="utf-8")
    engine = FasterWhisperEngine()
    monkeypatch.setattr(identity_module, "CPUINFO_PATH", amd)
    on_amd = engine.identity()["host"]
    monkeypatch.setattr(identity_module, "CPUINFO_PATH", intel)
    on_intel = engine.identity()["host"]
    assert on_amd["vendor"] == "AuthenticAMD" and on_intel["vendor"] == "GenuineIntel"
