"""Throughput of the English normalizer against Whisper's English normalizer, same corpus, same run.

The corpus is generated here, reproducibly (fixed seed): call-centre style English utterances
with the things our rules handle — spoken and written numbers, times, money, percentages,
years, ordinals, spelled IDs with spoken symbols, contractions (straight and curly), titles,
British spellings, fillers, bracketed annotations and odd whitespace. Both normalizers see
every string; each is timed over a whole corpus in this process's CPU time (best of ``--repeat``
passes, each pass over a corpus of its own, after one warm-up pass on another that also builds
our cached pipeline), and the ratio is printed.

Run (needs the ``bench`` extra: ``pip install -e '.[bench]'``):

    python benchmarks/normalize_throughput.py              # 60,000 utterances
    python benchmarks/normalize_throughput.py --count 100000 --repeat 5
    python benchmarks/normalize_throughput.py --steps --count 20000   # cost per listed step

Not a test: nothing here asserts a time. The target is at least 8x Whisper's
``EnglishTextNormalizer`` in strings per second (it was 3x). ``--steps`` prints our cost per
listed step instead (microseconds per text, texts each step ran on and changed).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from _timing import positive_int

from pytest_asrbench.normalize import get_normalizer

NAMES = ["Will", "Bill", "May", "Mark", "Grace", "Dellwood", "Ramirez", "Okafor", "Chen", "Patel", "Nguyen"]
UNITS = "one two three four five six seven eight nine".split()
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
MONTHS = ["January", "March", "May", "July", "September", "November"]
ORDINALS = ["first", "second", "third", "fourth", "fifth", "twenty first", "thirtieth", "12th", "3rd"]
LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
BRITISH = ["colour", "favourite", "centre", "organise", "travelling", "cheque", "programme", "neighbour", "licence"]
FILLERS = ["um", "uh", "Um,", "hmm"]
ANNOTATIONS = ["[laughter]", "(inaudible)", "<noise>", "[crosstalk]"]
SPACES = [" ", " ", " ", " ", "\t", "\u00a0", "\u200b "]


def spoken_number(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(UNITS)
    if kind == 1:
        return rng.choice(TEENS)
    if kind == 2:
        return f"{rng.choice(TENS)} {rng.choice(UNITS)}"
    return f"{rng.choice(UNITS)} hundred and {rng.choice(TENS)} {rng.choice(UNITS)}"


def spelled_id(rng: random.Random) -> str:
    letters = " ".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 3)))
    digits = " ".join(rng.choice(UNITS + ["oh", "zero"]) for _ in range(rng.randint(2, 4)))
    symbol = rng.choice(["dash", "dash", "underscore", "slash"])
    if rng.random() < 0.5:
        return f"{letters} {symbol} {digits}"
    written = {"dash": "-", "underscore": "_", "slash": "/"}[symbol]
    return f"{letters.replace(' ', '')}{written}{rng.randint(10, 9999)}"


TEMPLATES = [
    lambda r: f"I'd like to book a table for {spoken_number(r)} at {r.choice(UNITS)} thirty p.m.",
    lambda r: f"My order number is {spelled_id(r)}, can you check it?",
    lambda r: f"It costs {spoken_number(r)} dollars and {r.choice(TENS)} cents",
    lambda r: f"It costs ${r.randint(1, 999)}.{r.randint(0, 99):02d} plus tax",
    lambda r: f"That's about {r.choice(TENS)} {r.choice(UNITS)} percent of the {r.choice(BRITISH)} budget",
    lambda r: f"I was born in nineteen {r.choice(TENS)} {r.choice(UNITS)} in {r.choice(MONTHS)}",
    lambda r: f"We’re meeting on {r.choice(MONTHS)} {r.choice(ORDINALS)} at {r.randint(1, 12)}:{r.choice(['00', '15', '30', '45'])}",
    lambda r: f"Dr. {r.choice(NAMES)} won't be available until {r.choice(TEENS)} {r.choice(TENS)}",
    lambda r: f"{r.choice(FILLERS)} I can't remember the {r.choice(BRITISH)}, {r.choice(ANNOTATIONS)} it was room {r.choice(UNITS)} oh {r.choice(UNITS)}",
    lambda r: f"Mr. {r.choice(NAMES)} said the well-known account has {r.randint(1, 99)},{r.randint(0, 999):03d} points",
    lambda r: f"It's about {r.choice(UNITS)} and a half hours, or {r.choice(UNITS)} point {r.choice(UNITS)} to be exact",
    lambda r: f"Please call me back at {r.randint(200, 999)}-{r.randint(1000, 9999)} before {r.choice(UNITS)} o'clock",
    lambda r: f"The username is {r.choice(['mag', 'data', 'jon'])} underscore {r.choice(['mutual', 'sync', 'admin'])}, and that's it",
    lambda r: f"In twenty twenty {r.choice(UNITS)} we grew {r.randint(2, 95)} % year over year",
    lambda r: f"{r.choice(NAMES)} and {r.choice(NAMES)} will meet in {r.choice(MONTHS)} to discuss the {r.choice(BRITISH)}",
]


def make_corpus(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    corpus = []
    for _ in range(count):
        text = rng.choice(TEMPLATES)(rng)
        # Odd whitespace between some words, as copy-pasted references and ASR output have.
        words = text.split(" ")
        corpus.append("".join(word + rng.choice(SPACES) for word in words).strip())
    return corpus


def one_pass(normalize, corpus: list[str]) -> float:
    """Seconds of this process's CPU (``time.process_time``) for one full pass of ``normalize``
    over ``corpus``: on a shared machine other programs' load does not stretch one arm's pass
    and not the other's, as it stretches wall-clock time."""
    start = time.process_time()
    for text in corpus:
        normalize(text)
    return time.process_time() - start


def warm_up(normalizers: list, corpus: list[str], count: int = 2000) -> None:
    """One untimed pass over the first ``count`` strings: caches, regex compilation, branch predictors."""
    for text in corpus[:count]:
        for normalize in normalizers:
            normalize(text)


def pass_corpora(make_corpus, count: int, seed: int, repeat: int) -> list[list[str]]:
    """One corpus per timed pass, ``make_corpus(count, seed + 1 + k)`` for pass ``k``.

    The warm-up runs on ``seed``'s corpus and every timed pass on texts of its own, so no pass
    normalizes a text the process has seen before except where the generated corpus repeats
    itself (as a real test set rarely does): a cache of whole texts cannot turn a timed pass
    into look-ups, while caches of words and patterns stay warm as they are in a real run."""
    return [make_corpus(count, seed + 1 + index) for index in range(repeat)]


def best_rates(normalizers: list, passes: list[list[str]]) -> list[float]:
    """Strings per second of each normalizer's fastest pass; ``passes`` holds one corpus per
    pass (:func:`pass_corpora`). Within a pass every normalizer runs the same corpus, one after
    the other, so a change of machine load during the run hits both sides alike instead of only
    the one that ran later. The order turns round from pass to pass (ours first, then theirs
    first, ...): the first to read a just-made corpus pays for bringing its strings into the
    CPU's caches, and that must not always be the same side."""
    best = [0.0] * len(normalizers)
    for number, corpus in enumerate(passes):
        shift = number % len(normalizers)
        for index in [*range(shift, len(normalizers)), *range(shift)]:
            best[index] = max(best[index], len(corpus) / one_pass(normalizers[index], corpus))
    return best


def step_costs(normalize, corpus: list[str]) -> list[tuple[str, float, int, int]]:
    """Per listed step of ``normalize`` (a :class:`Pipeline`), walked by hand over ``corpus``
    exactly as its ``__call__`` does (trigger, repeat skip): ``(step, microseconds per text,
    texts it ran on, texts it changed)``, in list order. The clock is read around every
    step, so the sum is a little above one plain pass."""
    plan = normalize._plan
    spent = [0] * len(plan)
    ran = [0] * len(plan)
    changed = [0] * len(plan)
    clock = time.perf_counter_ns
    for text in corpus:
        last_output: dict[str, str] = {}
        for index, (name, function, idempotent, search) in enumerate(plan):
            start = clock()
            if search is not None and search(text) is None:
                spent[index] += clock() - start
                continue
            if idempotent and last_output.get(name) is text:
                spent[index] += clock() - start
                continue
            out = function(text)
            if idempotent:
                last_output[name] = out
            spent[index] += clock() - start
            ran[index] += 1
            changed[index] += out != text
            text = out
    return [(plan[index][0], spent[index] / 1000 / len(corpus), ran[index], changed[index])
            for index in range(len(plan))]


def print_step_costs(normalize, corpus: list[str]) -> None:
    """Print :func:`step_costs` (after one untimed walk that fills the caches)."""
    step_costs(normalize, corpus[:2000])
    rows = step_costs(normalize, corpus)
    total = sum(row[1] for row in rows)
    print(f"per-step cost over {len(corpus)} texts (us per text; ran / changed: texts)")
    for name, micros, ran, changed in rows:
        print(f"  {name:22s} {micros:7.2f} us  {100 * micros / total:5.1f}%  ran {ran:6d}  changed {changed:6d}")
    print(f"  {'total':22s} {total:7.2f} us")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=positive_int, default=60_000, help="utterances to generate (default 60000)")
    parser.add_argument("--seed", type=int, default=20240601, help="corpus seed")
    parser.add_argument("--repeat", type=positive_int, default=3, help="timed passes per normalizer; the best is kept")
    parser.add_argument("--steps", action="store_true",
                        help="print our normalizer's cost per listed step (us per text) instead of the ratio")
    args = parser.parse_args(argv)
    if args.steps:
        print_step_costs(get_normalizer("en"), make_corpus(args.count, args.seed))
        return 0
    try:
        from whisper_normalizer.english import EnglishTextNormalizer
    except ImportError:
        print("whisper-normalizer is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2

    corpus = make_corpus(args.count, args.seed)
    ours = get_normalizer("en")
    whisper = EnglishTextNormalizer()
    warm_up([ours, whisper], corpus)

    passes = pass_corpora(make_corpus, args.count, args.seed, args.repeat)
    ours_rate, whisper_rate = best_rates([ours, whisper], passes)
    print(f"corpus: {len(corpus)} English utterances per pass, a new corpus each pass (seeds {args.seed + 1}.."
          f"{args.seed + args.repeat}; warm-up on seed {args.seed}), best of {args.repeat} alternating passes")
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    distinct = sum(len(set(texts)) / len(texts) for texts in passes) / len(passes)
    print(f"strings/s in this process's CPU time; {distinct:.0%} of the timed texts are distinct")
    print(f"pytest-asrbench en normalizer : {ours_rate:12,.0f} strings/s")
    print(f"whisper EnglishTextNormalizer : {whisper_rate:12,.0f} strings/s")
    print(f"ratio (ours / whisper)        : {ours_rate / whisper_rate:12.2f}x   (target >= 8x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
