"""Hosts the ASR tests pretend to run on: a pytest plugin file that points the host identity at
another CPU's ``/proc/cpuinfo`` (an AMD EPYC no shipped snapshot records), for child runs."""

from __future__ import annotations

from pathlib import Path

#: The first processor of a 2-core AMD EPYC (Zen 4) cloud host: AVX-512 with VNNI and BF16, no AMX.
AMD_EPYC_CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC 9R14
stepping\t: 1
flags\t\t: fpu sse4_1 sse4_2 avx f16c fma avx2 avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl avx512_bf16 avx512vbmi avx512_vbmi2 avx512_vnni avx512_bitalg avx512_vpopcntdq
"""
AMD_NAME = "x86_64 AuthenticAMD 25/17"

_PLUGIN = '''"""Run as the CPU described by the cpuinfo file beside this plugin."""
from pathlib import Path

from pytest_asrbench.asr import identity

identity.CPUINFO_PATH = Path(__file__).with_name("cpuinfo")
'''


def other_cpu_plugin(folder: Path, cpuinfo: str = AMD_EPYC_CPUINFO) -> tuple[str, dict[str, str]]:
    """Write the plugin into ``folder``; returns its ``-p`` name and the environment entry
    (``PYTHONPATH``) a child pytest needs to load it."""
    import os

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cpuinfo").write_text(cpuinfo, encoding="utf-8")
    (folder / "asrbench_other_cpu.py").write_text(_PLUGIN, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    return "asrbench_other_cpu", {"PYTHONPATH": path}
