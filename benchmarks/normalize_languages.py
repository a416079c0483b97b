"""Throughput of each language's normalizer against Whisper's BasicTextNormalizer and our English one.

For every language asked for (default: every corpus in ``benchmarks/corpora/``), the same
generated corpus of ``--count`` utterances goes through our normalizer for that language and
through ``whisper_normalizer``'s ``BasicTextNormalizer`` (a far simpler normalizer: case,
brackets, symbols, diacritics; the floor any serious normalizer is compared to). Our English
normalizer runs on the English corpus of ``normalize_throughput.py`` in the same run, so every
language can also be read against the English figure. Each figure is the best of ``--repeat``
full passes after a warm-up pass.

Run (needs the ``bench`` extra: ``pip install -e '.[bench]'``):

    python benchmarks/normalize_languages.py                       # every corpus, 20,000 each
    python benchmarks/normalize_languages.py --languages de fr --count 50000
    python benchmarks/normalize_languages.py --languages zh --per-step   # + CPU us per text of each step

Not a test: nothing here asserts a time. Targets: de, nl, fr, es, it at least half
of BasicTextNormalizer's strings/s and half of the English figure; ko and ja at
least a quarter of BasicTextNormalizer's strings/s, raised later to Korean >= 0.6x,
Mandarin >= 0.9x and Thai >= 0.5x (corpora ``zh.py`` and ``th.py``).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpora  # noqa: E402
from normalize_throughput import best_rates, make_corpus as make_english_corpus, warm_up  # noqa: E402

from pytest_asrbench.normalize import get_normalizer  # noqa: E402
from pytest_asrbench.normalize.pipeline import trigger_of  # noqa: E402


def step_costs(normalizer, corpus: list[str], repeat: int) -> list[tuple[str, float, int, int]]:
    """``(step, CPU us per text, texts it ran on, texts it changed)`` for each step of
    ``normalizer`` over ``corpus``, each step fed the texts as the steps before it left them.
    A step with a trigger (``pipeline.triggered``) is timed with its trigger's search, as the
    pipeline runs it. CPU time (``time.process_time``), best of ``repeat`` passes per step."""
    costs, texts = [], list(corpus)
    for step in normalizer.steps:
        trigger = trigger_of(step.function)
        search, function = (None if trigger is None else trigger.search), step.function

        def apply(text: str) -> str:
            return function(text) if search is None or search(text) is not None else text

        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            for text in texts:
                apply(text)
            best = min(best, time.process_time() - start)
        outputs = [apply(text) for text in texts]
        ran = len(texts) if search is None else sum(search(text) is not None for text in texts)
        costs.append((step.name, best / len(texts) * 1e6, ran, sum(out != text for out, text in zip(outputs, texts))))
        texts = outputs
    return costs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", nargs="+", default=None, help="language tags (default: every corpus)")
    parser.add_argument("--count", type=int, default=20_000, help="utterances per language (default 20000)")
    parser.add_argument("--seed", type=int, default=20261201, help="corpus seed")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per normalizer; the best is kept")
    parser.add_argument("--per-step", action="store_true",
                        help="also print each step's CPU us per text (inputs as the steps before left them)")
    args = parser.parse_args(argv)
    try:
        from whisper_normalizer.basic import BasicTextNormalizer
    except ImportError:
        print("whisper-normalizer is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    languages = args.languages or corpora.available()
    try:
        makers = {tag: corpora.load(tag) for tag in languages}
    except LookupError as error:
        print(error, file=sys.stderr)
        return 2

    basic = BasicTextNormalizer()
    english_corpus = make_english_corpus(args.count, args.seed)
    english = get_normalizer("en")
    warm_up([english], english_corpus)
    (english_rate,) = best_rates([english], english_corpus, args.repeat)

    print(f"{args.count} generated utterances per language (seed {args.seed}), best of {args.repeat} passes")
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print(f"English normalizer on the English corpus: {english_rate:,.0f} strings/s")
    print()
    print("| language | ours (strings/s) | BasicTextNormalizer (strings/s) | ours / basic | ours / English |")
    print("| --- | --- | --- | --- | --- |")
    for tag, make in makers.items():
        corpus = make(args.count, args.seed)
        ours = get_normalizer(tag)
        warm_up([ours, basic], corpus)
        ours_rate, basic_rate = best_rates([ours, basic], corpus, args.repeat)  # passes alternate
        print(f"| {tag} | {ours_rate:,.0f} | {basic_rate:,.0f} | {ours_rate / basic_rate:.2f}x | {ours_rate / english_rate:.2f}x |")
        if args.per_step:
            costs = step_costs(ours, corpus, args.repeat)
            print(f"\n{tag}, CPU us per text by step (sum {sum(cost for _, cost, _, _ in costs):.2f}):")
            for name, cost, ran, changed in costs:
                print(f"  {name:<28} {cost:6.2f} us   ran on {ran:>6,}   changed {changed:>6,}")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
