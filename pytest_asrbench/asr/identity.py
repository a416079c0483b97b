"""The host numeric identity: what a CPU decode's numbers depend on beyond the engine settings.

A transcript is reproducible bit for bit only where every code path under the engine is the
same. CTranslate2 picks its instruction set and GEMM backend
(:mod:`pytest_asrbench.asr.fingerprint`), and the GEMM libraries under it (Intel oneMKL,
oneDNN) dispatch again at run time by CPU vendor and by instruction-set extension: oneMKL's
code branches AVX2, AVX2_E1 (AVX-VNNI), AVX512, AVX512_E1 (VNNI), AVX512_E3 (BF16),
AVX512_E4 (AMX, FP16) (oneMKL developer reference, ``mkl_enable_instructions`` and
``MKL_ENABLE_INSTRUCTIONS``); oneDNN's ISA
levels ``avx2``, ``avx2_vnni``, ``avx2_vnni_2``, ``avx512_core`` (f, cd, bw, dq, vl),
``avx512_core_vnni``, ``avx512_core_bf16``, ``avx512_core_fp16``, ``avx512_core_amx``
(oneDNN "CPU Dispatcher Controls", ``ONEDNN_MAX_CPU_ISA``). Two CPUs whose CTranslate2 label
agrees can still run different int8 kernels (measured: an AMD EPYC and an Intel Xeon, both
``x86_64-avx2-dnnl-avx512``, gave different transcripts for 7 of the 24 sample clips).

The identity therefore names:

- the architecture, CPU vendor (``vendor_id``), ``cpu family`` and ``model`` from
  ``/proc/cpuinfo`` (the stepping is left out: neither library dispatches on it);
- :data:`DISPATCH_FLAGS` the CPU has (the extensions above, by their ``/proc/cpuinfo`` names);
- the kernel variables set (:data:`~pytest_asrbench.asr.fingerprint.KERNEL_ENV`): a host with
  any of them set is **simulated** (it imitates another code path on this CPU, and is never
  what a real host of that kind runs).

The engine library versions (ctranslate2, faster-whisper), the compute type and the other
output-changing decode settings are the ``engine`` header of every ``asr`` snapshot, so they
are part of the identity through it. The thread count is not: on the sample clips
``cpu_threads`` 1, 2 and 4 gave the same transcripts (docs/asr.md, "Transcripts by CPU").

:func:`host_identity` returns a plain dict; :func:`identity_name` its one-line stable name, the
key of an ``asr`` snapshot's recordings (``x86_64 GenuineIntel 6/207: avx avx2 ...``, or
``simulated x86_64-avx-dnnl-avx2 (CT2_FORCE_CPU_ISA=AVX CT2_USE_MKL=0) on x86_64 GenuineIntel 6/207: ...``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.asr.fingerprint import KERNEL_ENV, fingerprint_label, kernel_fingerprint

#: The ``/proc/cpuinfo`` flags that oneMKL and oneDNN select int8/float kernels by (see the
#: module docstring for the libraries' dispatch levels they make up).
DISPATCH_FLAGS = (
    "avx", "fma", "f16c", "avx2", "avx_vnni", "avx_vnni_int8", "avx_ne_convert",
    "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512vbmi", "avx512_vnni",
    "avx512_bf16", "avx512_fp16", "amx_tile", "amx_int8", "amx_bf16", "amx_fp16",
    "asimd", "asimddp", "i8mm", "bf16", "sve",  # ARM64 (Ruy, oneDNN on aarch64)
)
#: Where the CPU description is read (Linux); tests point it at a copy of another host's.
CPUINFO_PATH = Path("/proc/cpuinfo")
#: The prefix of a simulated host's name.
SIMULATED = "simulated"


@dataclass(frozen=True)
class CpuDescription:
    """The first processor of a ``/proc/cpuinfo``: vendor id, family, model and flags
    (``None``/empty for a field the file does not have)."""

    vendor: str | None
    family: str | None
    model: str | None
    flags: frozenset[str]


def read_cpu(path: Path | None = None) -> CpuDescription:
    """Read the vendor, ``cpu family``, ``model`` and flags of the first processor in
    ``path`` (default :data:`CPUINFO_PATH`); all empty where the file does not exist (macOS,
    Windows), which names the host ``unknown``."""
    path = CPUINFO_PATH if path is None else Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return CpuDescription(None, None, None, frozenset())
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break  # the first processor only
            continue
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    flags = fields.get("flags") or fields.get("Features") or ""
    return CpuDescription(
        vendor=fields.get("vendor_id") or fields.get("CPU implementer"),
        family=fields.get("cpu family") or fields.get("CPU architecture"),
        model=fields.get("model") or fields.get("CPU part"),
        flags=frozenset(flags.split()),
    )


def host_identity(environ: Mapping[str, str] | None = None, *, machine: str | None = None,
                  cpuinfo_path: Path | None = None) -> dict:
    """The numeric identity of this host for a CPU decode.

    Args:
        environ: the environment to read (default ``os.environ``).
        machine: the architecture (default ``platform.machine()``).
        cpuinfo_path: the CPU description (default :data:`CPUINFO_PATH`).

    Returns:
        ``{"arch", "vendor", "family", "model", "extensions", "kernels", "env", "simulated"}``:
        ``extensions`` the sorted :data:`DISPATCH_FLAGS` the CPU has, ``kernels`` the
        CTranslate2 kernel label (:func:`~pytest_asrbench.asr.fingerprint.fingerprint_label`),
        ``env`` the set kernel variables (``NAME=value`` sorted, space-separated, or ``None``)
        and ``simulated`` whether any is set.
    """
    env = os.environ if environ is None else environ
    cpu = read_cpu(cpuinfo_path)
    kernels = kernel_fingerprint(env, machine=machine, cpuinfo=(cpu.vendor, cpu.flags))
    forced = " ".join(f"{name}={env[name]}" for name in sorted(KERNEL_ENV) if env.get(name)) or None
    return {
        "arch": kernels["arch"],
        "vendor": cpu.vendor,
        "family": cpu.family,
        "model": cpu.model,
        "extensions": sorted(flag for flag in DISPATCH_FLAGS if flag in cpu.flags),
        "kernels": fingerprint_label(kernels),
        "env": forced,
        "simulated": forced is not None,
    }


def identity_name(identity: Mapping) -> str:
    """The one-line name of :func:`host_identity`'s result: ``<arch> <vendor> <family>/<model>:
    <extensions>``, prefixed by ``simulated <kernel label> (<variables>) on`` for a simulated host.
    Equal names mean equal identities."""
    cpu = (f"{identity['arch']} {identity['vendor'] or 'unknown-vendor'} "
           f"{identity['family'] or '?'}/{identity['model'] or '?'}: "
           + (" ".join(identity["extensions"]) or "no dispatch extensions"))
    if identity["simulated"]:
        return f"{SIMULATED} {identity['kernels']} ({identity['env']}) on {cpu}"
    return cpu


def is_simulated(name: str) -> bool:
    """Whether the recording name ``name`` (:func:`identity_name`) is of a simulated host."""
    return name.startswith(SIMULATED + " ")


def short_name(name: str, *, compact: bool = False) -> str:
    """A short form of ``name`` for failures: the CPU without its extensions list, and for a
    simulated host its kernel label and variables (``simulated x86_64-avx-dnnl-avx2 (...)``);
    ``compact`` (summaries) drops the variables (``simulated x86_64-avx-dnnl-avx2``)."""
    if is_simulated(name):
        head = name.split(" on ", 1)[0]
        return head.split(" (", 1)[0] if compact else head
    return name.split(":", 1)[0]
