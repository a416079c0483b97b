"""This checkout's normalizers against another checkout's, in one process, passes alternating.

On a shared machine wall-clock and even CPU time move by 20-30% between processes (other
jobs on the same cores, caches), far more than one change to a step does. This script loads
the package twice in one process: first from ``--base`` (a detached worktree of main, say),
then from this checkout, and times both, plus Whisper's reference normalizer
(``EnglishTextNormalizer`` for en, ``BasicTextNormalizer`` otherwise), on the same corpus in
each round, their order turned every round. Each round uses a new corpus (seed + round);
all three normalizers first warm up on the ``--seed`` corpus. It prints, per language, the
median CPU per text of each side (``time.process_time``), the median of the per-round
ratios this/base (paired: the two passes of one round ran back to back on the same texts),
and each side's ratio to the reference, strings/s over strings/s. With ``--steps``, it then times
each listed step alone the same way: on the texts it receives inside the pipeline (one corpus,
traced through the base side's ``explain``; both sides give the same texts), its trigger and
function, base against this, alternating rounds.

Run (needs the ``bench`` extra; the base checkout must hold ``benchmarks/corpora``)::

    git worktree add --detach /tmp/base main
    python benchmarks/normalize_ab.py --base /tmp/base --languages en de nl fr es it --rounds 9
    python benchmarks/normalize_ab.py --base /tmp/base --languages en de --steps units fillers_any_case

Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
_MODULES = ("pytest_asrbench", "corpora", "normalize_throughput", "_timing")


def _load(root: Path, languages: list[str]) -> tuple[dict, dict]:
    """``({language: normalizer}, {language: corpus maker})`` of the package at ``root``,
    imported afresh (every module of the package and of the benchmark helpers dropped first)."""
    for name in [name for name in sys.modules if name.split(".")[0] in _MODULES]:
        del sys.modules[name]
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    try:
        import corpora
        import normalize_throughput
        from pytest_asrbench.normalize import get_normalizer

        normalizers = {tag: get_normalizer(tag) for tag in languages}
        makers = {tag: normalize_throughput.make_corpus if tag == "en" else corpora.load(tag) for tag in languages}
    finally:
        del sys.path[:2]
    return normalizers, makers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout (its root folder)")
    parser.add_argument("--languages", nargs="+", default=["en", "de", "nl", "fr", "es", "it"])
    parser.add_argument("--rounds", type=int, default=9, help="timed rounds, a new corpus each (default 9)")
    parser.add_argument("--count", type=int, default=3000, help="utterances per corpus (default 3000)")
    parser.add_argument("--seed", type=int, default=20261201, help="warm-up corpus seed; round r uses seed + 1 + r")
    parser.add_argument("--steps", nargs="+", default=[], metavar="STEP",
                        help="also time these steps alone, at each place the pipeline lists them")
    args = parser.parse_args(argv)
    if not (args.base / "pytest_asrbench").is_dir():
        print(f"--base {args.base}: no pytest_asrbench package there; give the root of a checkout", file=sys.stderr)
        return 2
    if args.rounds < 1 or args.count < 1:
        print("--rounds and --count must be at least 1", file=sys.stderr)
        return 2
    try:
        from whisper_normalizer.basic import BasicTextNormalizer
        from whisper_normalizer.english import EnglishTextNormalizer
    except ImportError:
        print("whisper-normalizer is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    base, _ = _load(args.base.resolve(), args.languages)
    this, makers = _load(HERE.parent, args.languages)
    listed = {name for tag in args.languages for name, _, _, _ in base[tag]._plan}
    unknown = [name for name in args.steps if name not in listed]
    if unknown:
        print(f"--steps {' '.join(unknown)}: listed by none of the {' '.join(args.languages)} normalizers; "
              "name steps of their configs' step lists", file=sys.stderr)
        return 2
    times: dict[str, dict[str, list[float]]] = {}
    for tag in args.languages:
        reference = EnglishTextNormalizer() if tag == "en" else BasicTextNormalizer()
        arms = [("base", base[tag]), ("this", this[tag]), ("reference", reference)]
        for text in makers[tag](2000, args.seed):
            for _, normalize in arms:
                normalize(text)
        times[tag] = {name: [] for name, _ in arms}
        for round_ in range(args.rounds):
            corpus = makers[tag](args.count, args.seed + 1 + round_)
            for name, normalize in (arms if round_ % 2 == 0 else arms[::-1]):
                start = time.process_time()
                for text in corpus:
                    normalize(text)
                times[tag][name].append((time.process_time() - start) / args.count * 1e6)
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"{args.rounds} rounds of {args.count} new utterances per language, CPU per text, load average {load}")
    print("| language | base us/text | this us/text | this / base (paired median) | base / reference | this / reference |")
    print("| --- | --- | --- | --- | --- | --- |")
    for tag, arms in times.items():
        paired = statistics.median(new / old for new, old in zip(arms["this"], arms["base"]))
        ratios = {side: statistics.median(ref / own for ref, own in zip(arms["reference"], arms[side]))
                  for side in ("base", "this")}
        print(f"| {tag} | {statistics.median(arms['base']):.1f} | {statistics.median(arms['this']):.1f} | "
              f"{paired:.3f} | {ratios['base']:.2f}x | {ratios['this']:.2f}x |")
    if args.steps:
        print()
        print("| language | step (position) | base us/text | this us/text | this / base (paired median) |")
        print("| --- | --- | --- | --- | --- |")
        for tag in args.languages:
            corpus = makers[tag](args.count, args.seed + 1)
            for row in _step_rows(base[tag], this[tag], corpus, args.steps, args.rounds):
                print(f"| {tag} | {row[0]} ({row[1]}) | {row[2]:.2f} | {row[3]:.2f} | {row[4]:.3f} |")
    return 0


def _step_rows(base, this, corpus: list[str], names: list[str], rounds: int) -> list[tuple[str, int, float, float, float]]:
    """``(step, position, base us/text, this us/text, paired median ratio)`` per place a step of
    ``names`` is listed: its trigger and function timed on the texts it receives there."""
    traces = [base.explain(text) for text in corpus]
    rows = []
    for position, (name, _, _, _) in enumerate(base._plan):
        if name not in names:
            continue
        inputs = [trace[position][1] for trace in traces]
        sides = [("base", _alone(base._plan[position])), ("this", _alone(this._plan[position]))]
        spent: dict[str, list[float]] = {"base": [], "this": []}
        for round_ in range(rounds):
            for side, run in (sides if round_ % 2 == 0 else sides[::-1]):
                start = time.process_time()
                for text in inputs:
                    run(text)
                spent[side].append((time.process_time() - start) / len(inputs) * 1e6)
        paired = statistics.median(new / old for new, old in zip(spent["this"], spent["base"]))
        rows.append((name, position + 1, statistics.median(spent["base"]), statistics.median(spent["this"]), paired))
    return rows


def _alone(planned):
    """One planned step as the pipeline runs it: the function, behind its trigger if it has one."""
    _, function, _, search = planned
    if search is None:
        return function
    return lambda text: function(text) if search(text) is not None else text


if __name__ == "__main__":
    sys.exit(main())
