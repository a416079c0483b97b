"""Record the ``asr`` cases' transcripts on every kernel fingerprint this host can produce.

A transcript depends on the CPU code path (docs/asr.md, "Transcripts by CPU"). One host can
produce many fingerprints by forcing them: CTranslate2's instruction set
(``CT2_FORCE_CPU_ISA``), its GEMM backend (``CT2_USE_MKL``: MKL as on Intel, oneDNN as on
AMD and other vendors), and a cap on the GEMM library's own instruction set
(``MKL_ENABLE_INSTRUCTIONS`` / ``ONEDNN_MAX_CPU_ISA``, as on a host without AVX-512). This
script runs ``pytest --asrbench <cases> -k asr --snapshot-update --asrbench-record-fingerprint``
once per combination, so
each fingerprint's transcript is added to the snapshots (existing recordings are kept; an
unchanged snapshot is not rewritten)::

    python scripts/record_fingerprints.py                 # every combination this CPU has
    python scripts/record_fingerprints.py --list          # print them, run nothing
    python scripts/record_fingerprints.py --check         # plain runs: every one must pass

Afterwards regenerate the README's clip table: ``python scripts/clip_rates.py --write``.
Exit status: 0 when every run passed, else the first failing run's status.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_asrbench.asr.fingerprint import X86_ISAS, fingerprint_label, kernel_fingerprint  # noqa: E402

_CAP_ENV = {"MKL": "MKL_ENABLE_INSTRUCTIONS", "DNNL": "ONEDNN_MAX_CPU_ISA"}


def combinations() -> list[dict[str, str]]:
    """The environments that give this host's distinct kernel fingerprints (x86-64 only;
    elsewhere the host's own fingerprint alone)."""
    here = kernel_fingerprint()
    if here["arch"] != "x86_64" or here["cpu_isa"] not in X86_ISAS:
        return [{}]
    levels = X86_ISAS[: X86_ISAS.index(here["cpu_isa"]) + 1]
    envs = []
    for gemm, use_mkl in (("MKL", "1"), ("DNNL", "0")):
        caps = [None] + (["AVX2"] if here["cpu_isa"] == "AVX512" else [])
        for cap in caps:
            for isa in levels:
                if cap == "AVX2" and isa == "AVX512":
                    continue  # a host without AVX-512 cannot force it
                env = {"CT2_FORCE_CPU_ISA": isa, "CT2_USE_MKL": use_mkl}
                if cap:
                    env[_CAP_ENV[gemm]] = cap
                envs.append(env)
    # the hosts' own defaults first (AVX2 kernels on each backend and cap), forced ones after
    return sorted(envs, key=lambda env: env["CT2_FORCE_CPU_ISA"] != "AVX2")


def label_of(env: dict[str, str]) -> str:
    merged = {key: value for key, value in os.environ.items()}
    merged.update(env)
    return fingerprint_label(kernel_fingerprint(merged))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=["cases"], help="case folders or files (default: cases)")
    parser.add_argument("--list", action="store_true", help="print the combinations and their labels, run nothing")
    parser.add_argument("--check", action="store_true", help="plain runs (no --snapshot-update): each must pass")
    args = parser.parse_args(argv)
    envs = combinations()
    status = 0
    for env in envs:
        shown = " ".join(f"{k}={v}" for k, v in env.items()) or "(host defaults)"
        print(f"{label_of(env)}: {shown}", flush=True)
        if args.list:
            continue
        command = [sys.executable, "-m", "pytest", "--asrbench", *args.cases, "-k", "asr", "-q",
                   "-p", "no:cacheprovider", "--no-header"]
        if not args.check:
            command += ["--snapshot-update", "--asrbench-record-fingerprint"]
        result = subprocess.run(command, cwd=ROOT, env={**os.environ, **env}, check=False)
        if result.returncode and not status:
            status = result.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
