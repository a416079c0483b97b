"""The kernel fingerprint: which CPU code paths decide a CTranslate2 engine's numerics.

The same model, audio and decode settings give different transcripts on different CPUs,
because CTranslate2 and the GEMM library under it pick their kernels at run time
(CTranslate2 ``src/cpu/cpu_isa.cc`` and ``src/cpu/backend.cc``):

- **the instruction set CTranslate2 dispatches to** (``GENERIC``, ``AVX``, ``AVX2``,
  ``AVX512`` on x86-64, ``NEON`` on ARM64): AVX2 where the CPU has it, else AVX, else
  GENERIC; AVX512 (avx512f, cd, vl, dq and bw) only when ``CT2_FORCE_CPU_ISA`` asks for it,
  which may name any level the CPU has (``CT2_VERBOSE=1`` prints "Selected ISA"; checked
  against this module by ``tests/asr/test_fingerprint.py``);
- **the GEMM backend**: Intel MKL on a ``GenuineIntel`` CPU, oneDNN (``DNNL``) on every other
  x86-64 vendor, unless ``CT2_USE_MKL`` says otherwise; Ruy on ARM64;
- **the GEMM library's own instruction set**: MKL and oneDNN dispatch by CPU as well,
  independently of ``CT2_FORCE_CPU_ISA``; ``MKL_ENABLE_INSTRUCTIONS``, ``MKL_CBWR`` and
  ``ONEDNN_MAX_CPU_ISA`` (``DNNL_MAX_CPU_ISA``) cap or pin them.

Measured on the sample clips (docs/asr.md, "Transcripts by CPU"): each of these moves some
transcripts; the thread count did not. The fingerprint is computed from the CPU's feature
flags and those variables, without loading CTranslate2, so a run whose transcripts all come
from the hypothesis cache still knows the fingerprint it would decode with.

:func:`kernel_fingerprint` returns a plain dict; :func:`fingerprint_label` its short stable
name (``x86_64-avx512-mkl-avx512``). The label says which code path CTranslate2 takes, not
which kernels MKL or oneDNN run under it (they dispatch again by vendor and extension), so it
is one part of the host identity (:mod:`pytest_asrbench.asr.identity`) that keys an ``asr``
snapshot's recordings, never the key alone.
"""

from __future__ import annotations

import functools
import os
import platform
from collections.abc import Mapping
from pathlib import Path

#: CTranslate2's x86-64 instruction sets, weakest first.
X86_ISAS = ("GENERIC", "AVX", "AVX2", "AVX512")
#: The CPU flags CTranslate2 requires for AVX512 (``cpu_supports_avx512``).
AVX512_FLAGS = frozenset({"avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"})
#: Environment variables that change which kernels run, and so the transcripts.
KERNEL_ENV = (
    "CT2_FORCE_CPU_ISA",
    "CT2_USE_MKL",
    "MKL_ENABLE_INSTRUCTIONS",
    "MKL_CBWR",
    "ONEDNN_MAX_CPU_ISA",
    "DNNL_MAX_CPU_ISA",
)
_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no"}
#: Values of the GEMM libraries' own variables (Intel oneMKL developer guide, "Instruction
#: Set Specific Dispatching" and "Conditional Numerical Reproducibility"; oneDNN "CPU
#: dispatcher control"). Checked so that a typo never becomes a fingerprint of its own.
MKL_INSTRUCTIONS = ("SSE4_2", "AVX", "AVX2", "AVX2_E1", "AVX512", "AVX512_E1", "AVX512_E2", "AVX512_E3",
                    "AVX512_E4", "AVX512_E5", "AVX10")
MKL_CBWR = ("AUTO", "COMPATIBLE", "SSE2", "SSE3", "SSSE3", "SSE4_1", "SSE4_2", "AVX", "AVX2", "AVX512",
            "AVX512_MIC", "AVX512_E1", "AVX512_MIC_E1")
ONEDNN_ISAS = ("ALL", "DEFAULT", "SSE41", "AVX", "AVX2", "AVX2_VNNI", "AVX2_VNNI_2", "AVX512_CORE",
               "AVX512_CORE_VNNI", "AVX512_CORE_BF16", "AVX512_CORE_FP16", "AVX512_CORE_AMX",
               "AVX512_CORE_AMX_FP16", "AVX10_1_512", "AVX10_1_512_AMX", "AVX10_1_512_AMX_FP16")


def check_kernel_environment(environ: Mapping[str, str] | None = None, *, machine: str | None = None,
                             cpuinfo: tuple[str | None, frozenset[str]] | None = None) -> None:
    """Refuse kernel variables the libraries would reject or misread, before anything loads.

    ``CT2_FORCE_CPU_ISA`` must be exactly (upper case, as CTranslate2 compares it) one of
    :data:`X86_ISAS` that the CPU supports (``GENERIC`` or ``NEON`` on ARM64); ``CT2_USE_MKL``
    a boolean (``1``/``0``, ``true``/``false``, ``on``/``off``); ``MKL_ENABLE_INSTRUCTIONS``,
    ``MKL_CBWR`` (optionally ``,STRICT``) and ``ONEDNN_MAX_CPU_ISA``/``DNNL_MAX_CPU_ISA`` one of
    the values their libraries document.

    Raises:
        KernelEnvironmentError: the first bad variable, with the values it takes.
    """
    from pytest_asrbench.asr.errors import KernelEnvironmentError

    env = os.environ if environ is None else environ
    arch = (machine or platform.machine() or "").lower()
    forced = env.get("CT2_FORCE_CPU_ISA")
    if forced:
        if arch in ("aarch64", "arm64"):
            allowed = ("GENERIC", "NEON")
        else:
            _, flags = read_cpuinfo() if cpuinfo is None else cpuinfo
            level = x86_level(flags) if flags else "AVX512"
            allowed = X86_ISAS[: X86_ISAS.index(level) + 1]
        if forced not in allowed:
            hint = " (upper case: CTranslate2 compares it exactly)" if forced.upper() in allowed else ""
            raise KernelEnvironmentError(
                f"CT2_FORCE_CPU_ISA={forced!r}{hint}: this CPU takes one of {', '.join(allowed)}; "
                "unset it to let CTranslate2 choose")
    use_mkl = env.get("CT2_USE_MKL")
    if use_mkl and _env_bool(use_mkl) is None:
        raise KernelEnvironmentError(f"CT2_USE_MKL={use_mkl!r}: use 1 (Intel MKL) or 0 (oneDNN), or unset it")
    checks = (("MKL_ENABLE_INSTRUCTIONS", MKL_INSTRUCTIONS), ("ONEDNN_MAX_CPU_ISA", ONEDNN_ISAS),
              ("DNNL_MAX_CPU_ISA", ONEDNN_ISAS))
    for name, values in checks:
        value = env.get(name)
        if value and value.strip().upper() not in values:
            raise KernelEnvironmentError(f"{name}={value!r}: use one of {', '.join(values)}, or unset it")
    cbwr = env.get("MKL_CBWR")
    if cbwr:
        branch, _, strict = cbwr.strip().upper().partition(",")
        if branch not in MKL_CBWR or strict not in ("", "STRICT"):
            raise KernelEnvironmentError(f"MKL_CBWR={cbwr!r}: use one of {', '.join(MKL_CBWR)}, optionally "
                                         "followed by ',STRICT', or unset it")


@functools.lru_cache(maxsize=8)
def read_cpuinfo(path: Path = Path("/proc/cpuinfo")) -> tuple[str | None, frozenset[str]]:
    """The CPU vendor id and feature flags from ``/proc/cpuinfo`` (Linux); ``(None, {})``
    where the file does not exist (macOS, Windows). Read once per path and process."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None, frozenset()
    vendor, flags = None, frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "vendor_id" and vendor is None:
            vendor = value.strip()
        elif key in ("flags", "Features") and not flags:
            flags = frozenset(value.split())
        if vendor and flags:
            break
    return vendor, flags


def x86_level(flags: frozenset[str]) -> str:
    """The best of :data:`X86_ISAS` that ``flags`` support (what ``CT2_FORCE_CPU_ISA`` may ask for)."""
    if AVX512_FLAGS <= flags:
        return "AVX512"
    if "avx2" in flags:
        return "AVX2"
    if "avx" in flags:
        return "AVX"
    return "GENERIC"


def _env_bool(value: str) -> bool | None:
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    return None


def kernel_fingerprint(
    environ: Mapping[str, str] | None = None,
    *,
    machine: str | None = None,
    cpuinfo: tuple[str | None, frozenset[str]] | None = None,
) -> dict[str, str | None]:
    """What decides the numerics of a CTranslate2 CPU decode on this host.

    Args:
        environ: the environment to read (default ``os.environ``).
        machine: the architecture (default ``platform.machine()``).
        cpuinfo: ``(vendor, flags)`` (default :func:`read_cpuinfo`).

    Returns:
        ``{"arch", "vendor", "cpu_isa", "ct2_isa", "gemm", "gemm_isa"}`` plus ``"env"``
        (the :data:`KERNEL_ENV` variables that are set, as one sorted ``NAME=value`` string,
        or ``None``). ``cpu_isa`` is what the CPU has, ``ct2_isa`` what CTranslate2 dispatches
        to, ``gemm`` the GEMM backend (``MKL``, ``DNNL``, ``RUY`` or ``unknown``) and
        ``gemm_isa`` the instruction-set cap of that backend.
    """
    env = os.environ if environ is None else environ
    arch = (machine or platform.machine() or "unknown").lower()
    vendor, flags = read_cpuinfo() if cpuinfo is None else cpuinfo
    overrides = {name: env[name] for name in KERNEL_ENV if env.get(name)}
    if arch in ("x86_64", "amd64", "i686", "i386"):
        arch = "x86_64" if arch in ("x86_64", "amd64") else arch
        cpu_isa = x86_level(flags) if flags else "unknown"
        forced = overrides.get("CT2_FORCE_CPU_ISA", "").strip()
        # CTranslate2 4.x never picks AVX512 by itself (measured: "Selected ISA: AVX2" on an
        # AVX-512 Xeon); the GEMM libraries below it do use AVX-512.
        auto = "AVX2" if cpu_isa == "AVX512" else cpu_isa
        ct2_isa = forced if forced else auto
        use_mkl = _env_bool(overrides.get("CT2_USE_MKL", ""))
        if use_mkl is None:
            use_mkl = vendor == "GenuineIntel" if vendor else None
        gemm = "unknown" if use_mkl is None else ("MKL" if use_mkl else "DNNL")
        cap_names = ("MKL_ENABLE_INSTRUCTIONS",) if gemm == "MKL" else ("ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA")
        cap = next((overrides[name].strip().upper() for name in cap_names if name in overrides), None)
        gemm_isa = cap or cpu_isa
    elif arch in ("aarch64", "arm64"):
        arch, cpu_isa, ct2_isa = "aarch64", "NEON", "NEON"
        gemm, gemm_isa = "RUY", "NEON"
    else:
        cpu_isa = ct2_isa = gemm = gemm_isa = "unknown"
    return {
        "arch": arch,
        "vendor": vendor,
        "cpu_isa": cpu_isa,
        "ct2_isa": ct2_isa,
        "gemm": gemm,
        "gemm_isa": gemm_isa,
        "env": " ".join(f"{k}={v}" for k, v in sorted(overrides.items())) or None,
    }


def fingerprint_label(fingerprint: Mapping[str, str | None]) -> str:
    """A short stable name: ``<arch>-<ct2 isa>-<gemm>-<gemm isa>`` in lower case, plus
    ``-cbwr=<value>`` when ``MKL_CBWR`` pins MKL's code path (``x86_64-avx2-dnnl-avx512``).

    The vendor is not part of it: only the GEMM backend it selects decides the numerics."""
    parts = [fingerprint["arch"], fingerprint["ct2_isa"], fingerprint["gemm"], fingerprint["gemm_isa"]]
    label = "-".join(str(part).lower() for part in parts)
    env = fingerprint.get("env") or ""
    for item in env.split():
        if item.startswith("MKL_CBWR=") and fingerprint.get("gemm") == "MKL":
            label += "-cbwr=" + item.partition("=")[2].lower()
    return label
