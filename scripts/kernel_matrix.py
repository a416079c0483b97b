"""Measure how the sample clips' transcripts move with the CPU kernels.

Transcribes every clip of ``samples/clips.json`` with the embedded model once per
``CT2_FORCE_CPU_ISA`` (GENERIC, AVX, AVX2, AVX512, as far as this CPU has them) × ``CT2_USE_MKL``
(1: Intel MKL, 0: oneDNN) setting, each in a fresh process (CTranslate2 reads the variables
once), with the hypothesis cache bypassed, and prints the table of docs/asr.md ("Transcripts
by CPU"): one letter per distinct transcript of a clip, then its rate::

    python scripts/kernel_matrix.py                 # about 30 s per setting on 2 cores
    python scripts/kernel_matrix.py --threads 1     # the same under another thread count
    python scripts/kernel_matrix.py --native 1 2    # host defaults (no variable forced), per thread count

``--native`` is what the host identity (pytest_asrbench/asr/identity.py) is checked with: a
column per thread count on this CPU as a user runs it; identical columns mean the thread count
does not move transcripts here.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_CHILD = """
import json, sys
from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine
root, threads = sys.argv[1], int(sys.argv[2])
engine = FasterWhisperEngine(cpu_threads=threads)
clips = json.load(open(root + "/samples/clips.json", encoding="utf-8"))["clips"]
print(json.dumps({c["id"]: engine.transcribe(root + "/samples/" + c["file"], language=c["language"]).text
                  for c in clips}, ensure_ascii=False))
"""


def settings() -> list[tuple[str, str]]:
    from pytest_asrbench.asr.fingerprint import X86_ISAS, kernel_fingerprint

    level = kernel_fingerprint()["cpu_isa"]
    isas = X86_ISAS[: X86_ISAS.index(level) + 1] if level in X86_ISAS else ()
    return [(isa, mkl) for isa in isas for mkl in ("1", "0")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2, help="cpu_threads of the engine (default 2)")
    parser.add_argument("--native", type=int, nargs="+", metavar="THREADS",
                        help="no forced variable: one column per thread count given")
    args = parser.parse_args(argv)
    from pytest_asrbench import score

    if args.native:
        combos = [("native", str(threads)) for threads in args.native]
    else:
        combos = settings()
    if not combos:
        print("this CPU has no x86-64 instruction sets to force; nothing to measure", file=sys.stderr)
        return 2
    results = {}
    from pytest_asrbench.asr.fingerprint import KERNEL_ENV

    for isa, mkl in combos:
        if isa == "native":
            env = {name: value for name, value in os.environ.items() if name not in KERNEL_ENV}
            threads = mkl
        else:
            env = {**os.environ, "CT2_FORCE_CPU_ISA": isa, "CT2_USE_MKL": mkl}
            threads = str(args.threads)
        out = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), threads], env=env,
                             capture_output=True, text=True, check=True).stdout
        results[(isa, mkl)] = json.loads(out.strip().splitlines()[-1])
    clips = json.loads((ROOT / "samples" / "clips.json").read_text(encoding="utf-8"))["clips"]
    names = [f"{mkl} thread(s)" if isa == "native" else f"{isa} {'MKL' if mkl == '1' else 'oneDNN'}"
             for isa, mkl in combos]
    print("| clip | " + " | ".join(names) + " | distinct |")
    print("|" + " --- |" * (len(names) + 2))
    for clip in clips:
        letters: dict[str, str] = {}
        cells = []
        for combo in combos:
            text = results[combo][clip["id"]]
            letter = letters.setdefault(text, chr(ord("a") + len(letters)))
            rate = score(clip["text"], text, clip["language"]).rate
            cells.append(f"{letter} {'n/a' if rate is None else f'{rate:.2f}'}")
        print(f"| {clip['id']} | " + " | ".join(cells) + f" | {len(letters)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
