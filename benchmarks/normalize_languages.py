"""Throughput of each language's normalizer against Whisper's BasicTextNormalizer and our English one.

For every language asked for (default: every corpus in ``benchmarks/corpora/``), the same
generated corpus of ``--count`` utterances goes through our normalizer for that language and
through ``whisper_normalizer``'s ``BasicTextNormalizer`` (a far simpler normalizer: case,
brackets, symbols, diacritics; the floor any serious normalizer is compared to). Our English
normalizer runs on the English corpus of ``normalize_throughput.py`` in the same run, so every
language can also be read against the English figure. Each figure is the best of ``--repeat``
full passes, each over a corpus of its own (seed + 1, seed + 2, ...), after a warm-up pass over
the ``--seed`` corpus: a timed pass never meets a text the process has normalized before except
where its corpus repeats itself, so remembering whole texts is not mistaken for speed. The
table gives each corpus's share of distinct texts (real test sets are nearly all distinct).

Run (needs the ``bench`` extra: ``pip install -e '.[bench]'``):

    python benchmarks/normalize_languages.py                       # every corpus, 20,000 each
    python benchmarks/normalize_languages.py --languages de fr --count 50000
    python benchmarks/normalize_languages.py --languages de --count 4000 --steps   # + CPU per step

Not a test: nothing here asserts a time. Targets: de, nl, fr, es, it at least half
of BasicTextNormalizer's strings/s and half of the English figure; ko and ja at
least a quarter of BasicTextNormalizer's strings/s, raised later to Korean >= 0.6x,
Mandarin >= 0.9x and Thai >= 0.5x (corpora ``zh.py`` and ``th.py``).

``--steps`` adds, per language, where the CPU of one text goes: each step of the pipeline
timed alone (``time.process_time``, the best of ``--repeat`` passes) on the very texts it
receives inside the pipeline (its trigger's search included, as the pipeline runs it), in
microseconds per text, beside BasicTextNormalizer's CPU per text on the same corpus and the
share of texts each step changes. The whole-pipeline line is timed on corpora of its own (no
text seen before); the per-step rows re-run the ``--seed`` corpus's texts ``--repeat`` times,
so steps that keep per-word results read below their cost on new text: compare rows with each
other, and the whole pipeline with BasicTextNormalizer. ``--fresh-steps`` times the steps on a
corpus of its own instead (seed + 2 * repeat + 1), read by a twin pipeline, so the first timed
pass meets every text new (the best of ``--repeat`` passes still includes warmer ones: use
``--repeat 1`` for new text only). It also prints the pipeline's own cost: the same runner with
every step an identity function (each trigger still searched). The steps timed alone add up
to less than the whole pipeline by far more than that cost: a step run over the whole corpus
in a tight loop keeps its code and tables in the CPU caches, which 27 steps run one after the
other per text do not; so the sum of the steps is a floor, and a step's share of the whole
is read from its own row.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpora  # noqa: E402
from _timing import positive_int  # noqa: E402
from normalize_throughput import best_rates, make_corpus as make_english_corpus, pass_corpora, warm_up  # noqa: E402

from pytest_asrbench.normalize import get_normalizer  # noqa: E402
from pytest_asrbench.normalize.pipeline import Pipeline, Step, trigger_of, triggered  # noqa: E402
from pytest_asrbench.normalize.registry import build_pipeline, get_config  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", nargs="+", default=None, help="language tags (default: every corpus)")
    parser.add_argument("--count", type=positive_int, default=20_000, help="utterances per language (default 20000)")
    parser.add_argument("--seed", type=int, default=20261201, help="corpus seed")
    parser.add_argument("--repeat", type=positive_int, default=3, help="timed passes per normalizer; the best is kept")
    parser.add_argument("--steps", action="store_true", help="also print each step's CPU per text (see above)")
    parser.add_argument("--fresh-steps", action="store_true",
                        help="with --steps: time each step on new texts (see above) instead of the seed corpus")
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
    (english_rate,) = best_rates([english], pass_corpora(make_english_corpus, args.count, args.seed, args.repeat))

    print(f"{args.count} generated utterances per language and pass, a new corpus each pass (seeds "
          f"{args.seed + 1}..{args.seed + args.repeat}; warm-up on seed {args.seed}, step table on seed "
          f"{args.seed + 2 * args.repeat + 1 if args.fresh_steps else args.seed}), "
          f"best of {args.repeat} passes")
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print(f"English normalizer on the English corpus: {english_rate:,.0f} strings/s")
    print()
    step_rows: dict[str, tuple] = {}
    print("| language | ours (strings/s) | BasicTextNormalizer (strings/s) | ours / basic | ours / English | distinct texts |")
    print("| --- | --- | --- | --- | --- | --- |")
    for tag, make in makers.items():
        corpus = make(args.count, args.seed)
        ours = get_normalizer(tag)
        warm_up([ours, basic], corpus)
        passes = pass_corpora(make, args.count, args.seed, args.repeat)
        ours_rate, basic_rate = best_rates([ours, basic], passes)  # passes alternate
        unique = sum(len(set(texts)) / len(texts) for texts in passes) / len(passes)  # of the timed texts
        print(f"| {tag} | {ours_rate:,.0f} | {basic_rate:,.0f} | {ours_rate / basic_rate:.2f}x | "
              f"{ours_rate / english_rate:.2f}x | {unique:.0%} |")
        if args.steps:
            # The whole-pipeline figures on corpora of their own: the timed passes' texts were seen.
            fresh = pass_corpora(make, args.count, args.seed + args.repeat, args.repeat)
            if args.fresh_steps:  # texts the timed normalizer has not met, traced by a twin
                timed = step_times(ours, make(args.count, args.seed + 2 * args.repeat + 1), args.repeat,
                                   tracer=build_pipeline(tag, get_config(tag).steps))
            else:
                timed = step_times(ours, corpus, args.repeat)
            step_rows[tag] = (timed, cpu_per_text(ours, fresh),
                              cpu_per_text(basic, fresh), cpu_per_text(runner_alone(ours), fresh), unique)
    for tag, (rows, whole, basic_cpu, runner, unique) in step_rows.items():
        print()
        print(f"{tag}: CPU per text, whole pipeline {whole:.1f} us (steps alone: {sum(row[1] for row in rows):.1f} us; "
              f"the runner with identity steps: {runner:.2f} us), BasicTextNormalizer {basic_cpu:.1f} us; "
              f"{unique:.0%} of the timed corpora's texts are distinct")
        print("| step | us per text | texts changed |")
        print("| --- | --- | --- |")
        for name, micros, changed in sorted(rows, key=lambda row: -row[1]):
            print(f"| {name} | {micros:.2f} | {changed:.0%} |")
    return 0


def cpu_per_text(normalize, passes: list[list[str]]) -> float:
    """Microseconds of CPU (``time.process_time``) per text of ``normalize``, best of the
    ``passes`` (one corpus each, :func:`normalize_throughput.pass_corpora`)."""
    best = float("inf")
    for corpus in passes:
        start = time.process_time()
        for text in corpus:
            normalize(text)
        best = min(best, (time.process_time() - start) / len(corpus))
    return best * 1e6


def runner_alone(pipeline: Pipeline) -> Pipeline:
    """``pipeline`` with every step's function an identity that keeps the step's trigger: what
    the pipeline costs by itself (its generated runner, the trigger searches, one call per step)."""
    def identity(text: str) -> str:
        return text

    return Pipeline(pipeline.language, tuple(
        Step(step.name, triggered(trigger_of(step.function), partial(identity)), step.idempotent)
        for step in pipeline.steps))


def step_times(pipeline, corpus: list[str], repeat: int, tracer: Pipeline | None = None) -> list[tuple[str, float, float]]:
    """``(step name, microseconds of CPU per text, share of texts the step changes)`` for each
    listing of ``pipeline``'s steps, each timed alone on the inputs it gets in the pipeline
    (read from :meth:`Pipeline.explain`): its trigger's search, then the step where it matches.
    ``tracer``: another pipeline of the same steps that reads the inputs, so the timed steps'
    per-word caches meet the corpus first in the first timed pass (``--fresh-steps``)."""
    traces = [(tracer or pipeline).explain(text) for text in corpus]
    rows = []
    for index, step in enumerate(pipeline.steps):
        inputs = [trace[index][1] for trace in traces]
        changed = sum(trace[index][1] != trace[index + 1][1] for trace in traces) / len(corpus)
        trigger = trigger_of(step.function)
        search = None if trigger is None else trigger.search
        function = step.function

        def one(inputs=inputs, function=function, search=search):
            for text in inputs:
                if search is None or search(text) is not None:
                    function(text)

        listed = sum(other.name == step.name for other in pipeline.steps[:index])  # a step listed twice
        name = f"{step.name} (again)" if listed else step.name
        rows.append((name, cpu_per_text(lambda _: one(), [[None]] * repeat) / len(corpus), changed))
    return rows


if __name__ == "__main__":
    sys.exit(main())
