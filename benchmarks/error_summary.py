"""Cost of a run's error summary: a corpus scored alone, and scored then summarized, side by side.

The turns are :mod:`benchmarks.codeswitch`'s generated code-switched pairs (deterministic
seed; Hindi, or a same-script language), so the summary's headline alignments rebuild every
rescue (the costliest case: a language without a counting view only reads the alignments).
In one process, alternating ``--repeat`` times (the arms alternate which goes first):

- *score*: ``score(references, hypotheses, language)`` and each pair's alignment (what
  ``asrbench score --references ... --hypotheses ...`` needs for its worst utterances anyway);
- *score + summary*: the same, then :func:`pytest_asrbench.scoring.error_summary.error_summary`.

Reports the best CPU time (``time.process_time``) of each as turns/s and the ratio.

    python benchmarks/error_summary.py [--languages hi de] [--turns 5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.codeswitch import LATIN, make_latin_pair, make_pair  # noqa: E402
from pytest_asrbench import score  # noqa: E402
from pytest_asrbench.scoring.error_summary import error_summary  # noqa: E402


def _score(references: list[str], hypotheses: list[str], language: str):
    result = score(references, hypotheses, language)
    for pair in result.pairs:
        pair.alignment  # noqa: B018 - built, as the file report builds it
    return result


def measure(language: str, turns: int, repeat: int) -> None:
    rng = random.Random(24)
    pairs = [make_pair(rng) if language == "hi" else make_latin_pair(rng, language) for _ in range(turns)]
    references, hypotheses = [ref for ref, _ in pairs], [hyp for _, hyp in pairs]
    _score(references, hypotheses, language)  # warm the normalizer and the rescuer's caches
    arms = {"score": lambda: _score(references, hypotheses, language),
            "score + summary": lambda: error_summary(_score(references, hypotheses, language))}
    best = {name: float("inf") for name in arms}
    for round_ in range(repeat):
        for name in (list(arms) if round_ % 2 == 0 else list(reversed(arms))):
            start = time.process_time()
            arms[name]()
            best[name] = min(best[name], time.process_time() - start)
    base, summed = best["score"], best["score + summary"]
    print(f"{language}: {turns} turns  score {turns / base:,.0f} turns/s  score + summary {turns / summed:,.0f} "
          f"turns/s  ratio {summed / base:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["hi"], choices=["hi", *LATIN])
    parser.add_argument("--turns", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for language in args.languages:
        measure(language, args.turns, args.repeat)


if __name__ == "__main__":
    main()
