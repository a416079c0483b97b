"""Record the ``asr`` cases' transcripts on this host: natively, and on every simulated kernel
setting it can produce.

A transcript depends on the CPU (docs/asr.md, "Transcripts by CPU"). The first run records
this host natively (no kernel variable set): on a host of the same identity (CPU vendor,
family, model, dispatch extensions) the cases are compared exactly from then on. The others
force a code path: CTranslate2's instruction set (``CT2_FORCE_CPU_ISA``), its GEMM backend
(``CT2_USE_MKL``: MKL as on Intel, oneDNN as on AMD and other vendors) and a cap on the GEMM
library's own instruction set (``MKL_ENABLE_INSTRUCTIONS`` / ``ONEDNN_MAX_CPU_ISA``, as on a
host without AVX-512). Those are *simulated* recordings: evidence of how far transcripts move,
the reference points of the tolerance other hosts are judged by, never exact for any host.
Each run is ``pytest --asrbench <cases> -k asr --snapshot-update --asrbench-record-fingerprint``
(existing recordings are kept; an unchanged snapshot is not rewritten)::

    python scripts/record_fingerprints.py                 # native, then every simulated setting
    python scripts/record_fingerprints.py --native-only   # this host's native recording alone
    python scripts/record_fingerprints.py --list          # print them, run nothing
    python scripts/record_fingerprints.py --check         # plain runs: every one must pass

Record natively only on a host CI really runs on. Afterwards regenerate the README's clip
table: ``python scripts/clip_rates.py --write``. Exit status: 0 when every run passed, else
the first failing run's status.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_asrbench.asr.fingerprint import KERNEL_ENV, X86_ISAS, kernel_fingerprint  # noqa: E402
from pytest_asrbench.asr.identity import host_identity, identity_name, short_name  # noqa: E402

_CAP_ENV = {"MKL": "MKL_ENABLE_INSTRUCTIONS", "DNNL": "ONEDNN_MAX_CPU_ISA"}


def combinations() -> list[dict[str, str]]:
    """The kernel variables of each run: none (native) first, then the settings that give this
    host's distinct simulated code paths (x86-64 only)."""
    here = kernel_fingerprint(_without_kernel_variables())
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
    # the vendors' defaults first (AVX2 kernels on each backend and cap), the others after
    return [{}] + sorted(envs, key=lambda env: env["CT2_FORCE_CPU_ISA"] != "AVX2")


def _without_kernel_variables() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in KERNEL_ENV}


def label_of(env: dict[str, str]) -> str:
    """The short name of the host identity a run with ``env`` records."""
    return short_name(identity_name(host_identity({**_without_kernel_variables(), **env})))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=["cases"], help="case folders or files (default: cases)")
    parser.add_argument("--list", action="store_true", help="print the combinations and their labels, run nothing")
    parser.add_argument("--check", action="store_true", help="plain runs (no --snapshot-update): each must pass")
    parser.add_argument("--native-only", action="store_true", help="record this host natively, nothing simulated")
    args = parser.parse_args(argv)
    envs = [{}] if args.native_only else combinations()
    status = 0
    for env in envs:
        print(label_of(env) if env else f"{label_of(env)} (native: no kernel variable set)", flush=True)
        if args.list:
            continue
        command = [sys.executable, "-m", "pytest", "--asrbench", *args.cases, "-k", "asr", "-q",
                   "-p", "no:cacheprovider", "--no-header"]
        if not args.check:
            command += ["--snapshot-update", "--asrbench-record-fingerprint"]
        result = subprocess.run(command, cwd=ROOT, env={**_without_kernel_variables(), **env}, check=False)
        if result.returncode and not status:
            status = result.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
