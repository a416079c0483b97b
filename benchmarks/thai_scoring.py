"""Thai scoring speed: the benchmark scorer's counting against ``jiwer.cer``, same pairs, same run.

    python benchmarks/thai_scoring.py [--pairs 55000]

Pairs come from scripts/make_thai_benchmark.py's generator (sentences and ASR-like errors).
Two comparisons: (1) counting only, on pairs already cleaned (th-bench-v1, spaces removed):
``char_counts`` per pair (S/D/I per pair, the bootstrap's inputs) against one ``jiwer.cer``
call on the lists (a rate only); (2) end to end, cleaning included on both sides. The corpus
rates must agree.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from pathlib import Path

import jiwer

from pytest_asrbench.bench.scoring.corpus import clean_for_scoring
from pytest_asrbench.scoring.alignment import char_counts

ROOT = Path(__file__).resolve().parents[1]


def pairs(n: int) -> list[tuple[str, str]]:
    spec = importlib.util.spec_from_file_location("make", ROOT / "scripts/make_thai_benchmark.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    r = random.Random(0)
    out = []
    for _ in range(n):
        ref = r.choice(make.TEMPLATES)(r)
        out.append((ref, make.hypothesis(r, ref, 0.2)))
    return out


def ours(cleaned):
    errors = length = 0
    for ref, hyp in cleaned:
        counts = char_counts(ref, hyp)
        errors += counts.errors
        length += counts.reference_length
    return errors / length


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=55000)
    args = parser.parse_args()
    raw = pairs(args.pairs)
    t = time.perf_counter()
    cleaned = [(clean_for_scoring(a), clean_for_scoring(b)) for a, b in raw]
    t_clean = time.perf_counter() - t
    refs, hyps = [a for a, _ in cleaned], [b for _, b in cleaned]
    t = time.perf_counter()
    rate_ours = ours(cleaned)
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    rate_jiwer = jiwer.cer(refs, hyps)
    t_jiwer = time.perf_counter() - t
    n = len(raw)
    print(f"{n} pairs; cleaning both sides: {t_clean:.2f} s ({n / t_clean:,.0f} pairs/s)")
    print(f"counting   char_counts {t_ours:.3f} s ({n / t_ours:,.0f} pairs/s)  CER {rate_ours:.6f}")
    print(f"counting   jiwer.cer   {t_jiwer:.3f} s ({n / t_jiwer:,.0f} pairs/s)  CER {rate_jiwer:.6f}")
    print(f"same rate: {abs(rate_ours - rate_jiwer) < 1e-12}; counting ratio {t_jiwer / t_ours:.1f}x; "
          f"end to end (cleaning included) {(t_clean + t_jiwer) / (t_clean + t_ours):.2f}x")


if __name__ == "__main__":
    main()
