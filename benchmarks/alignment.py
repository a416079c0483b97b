"""Alignment and corpus scoring against kaldialign, texterrors and jiwer, side by side in one run.

Three figures, each printed with its baseline from the same process:

1. ``align``: alignment + counts only, on pre-normalized English token lists. Ours: the
   alignment seam's counts (``edit_tallies``, what ``score()`` runs per pair) and its spans
   (``align_tokens``, what a snapshot or report reads). Peers: ``kaldialign.batch_error_rate``
   (one call for the corpus), ``kaldialign.align`` per pair, ``texterrors.align_texts`` per
   pair (plain Levenshtein costs: ``use_chardiff=False``), ``jiwer.process_words`` on the lists
   (one call). The corpus totals (S + D + I) must be equal everywhere: every one of them is
   the minimum edit distance; the S/D/I split may differ where totals tie.
2. ``end-to-end``: ``score(references, hypotheses, "en")`` on raw texts (normalize + align +
   aggregate) against Whisper's ``EnglishTextNormalizer`` + ``jiwer.process_words``.
3. ``scaling``: ``score()`` per-pair cost on the first 10,000 pairs and on ``--large`` pairs
   (default 100,000), with the garbage collector as it is and switched off around the whole
   call (``score()`` pauses it around its pair loop itself, so the share left is the rest of
   the call's), and the peak memory of the large run (tracemalloc, a separate untimed pass).

The pairs: English utterances generated as in ``normalize_throughput.py`` and every English
case text, the hypotheses seeded random perturbations of the references (substitutions,
deletions, insertions from the corpus's own vocabulary). Times are this process's CPU time
(``time.process_time``: other programs on a shared machine slow both arms alike, not one);
rounds alternate the arms and each figure is the median of ``--repeat`` rounds; the load
average is printed (compare ratios, not absolute rates).

    python benchmarks/alignment.py [--pairs 92000] [--large 100000] [--repeat 5] [--only align]

Not a test: nothing here asserts a time. Targets: alignment + counts >= 0.8x
kaldialign's batch call with identical totals; end to end >= 6x Whisper + jiwer; the large
run's per-pair cost <= 1.1x the 10k run's.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from normalize_throughput import make_corpus  # noqa: E402

from pytest_asrbench import score  # noqa: E402
from pytest_asrbench.normalize import get_normalizer  # noqa: E402
from pytest_asrbench.scoring.alignment import align_tokens, edit_tallies  # noqa: E402

CASES = Path(__file__).resolve().parents[1] / "cases" / "en"


def case_texts() -> list[str]:
    """Every English case's texts (references, hypotheses, equal texts, normalize inputs)."""
    texts = []
    for path in sorted(CASES.glob("*.yaml")):
        for case in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cases") or []:
            texts += [case[key] for key in ("reference", "hypothesis", "text") if isinstance(case.get(key), str)]
            texts += [text for text in case.get("texts") or [] if isinstance(text, str)]
    return texts


def perturb(rng: random.Random, words: list[str], vocabulary: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        roll = rng.random()
        if roll < 0.06:
            out.append(rng.choice(vocabulary))
        elif roll < 0.09:
            continue
        elif roll < 0.11:
            out += [word, rng.choice(vocabulary)]
        else:
            out.append(word)
    return out


def raw_pairs(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` raw (reference, hypothesis) pairs: generated utterances and case texts, the
    hypothesis a perturbation of the reference's words."""
    rng = random.Random(seed)
    texts = case_texts()
    references = (texts * (count // (20 * max(len(texts), 1)) + 1))[: count // 20] if texts else []
    references += make_corpus(count - len(references), seed)
    rng.shuffle(references)
    vocabulary = sorted({word for text in references[:5000] for word in text.split()})
    return [(text, " ".join(perturb(rng, text.split(), vocabulary))) for text in references]


def medians(arms: dict, repeat: int) -> tuple[dict[str, float], dict]:
    """Median seconds of each arm over ``repeat`` alternating rounds, and each arm's last result."""
    times: dict[str, list[float]] = {name: [] for name in arms}
    results = {}
    names = list(arms)
    for round_index in range(repeat):
        for name in names if round_index % 2 == 0 else names[::-1]:
            start = time.process_time()
            results[name] = arms[name]()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}, results


def tally(alignments, empty: str) -> tuple[int, int, int]:
    """``(S, D, I)`` over a peer's alignments: each an iterable of ``(reference token,
    hypothesis token)`` with ``empty`` standing for the missing side."""
    s = d = i = 0
    for alignment in alignments:
        for r, h in alignment:
            if r == empty:
                i += 1
            elif h == empty:
                d += 1
            elif r != h:
                s += 1
    return s, d, i


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def alignment_figure(pairs: list[tuple[str, str]], repeat: int) -> None:
    normalize = get_normalizer("en")
    refs = [normalize(ref).split() for ref, _ in pairs]
    hyps = [normalize(hyp).split() for _, hyp in pairs]

    def ours_counts():
        s = d = i = 0
        for ref, hyp in zip(refs, hyps):
            _, sub, dele, ins, _ = edit_tallies(ref, hyp)
            s, d, i = s + sub, d + dele, i + ins
        return s, d, i

    def ours_spans():
        s = d = i = 0
        for ref, hyp in zip(refs, hyps):
            counts = align_tokens(ref, hyp).counts()
            s, d, i = s + counts.substitutions, d + counts.deletions, i + counts.insertions
        return s, d, i

    arms = {"ours: counts (edit_tallies)": ours_counts, "ours: spans (align_tokens)": ours_spans}
    try:
        import kaldialign

        def kaldi_batch():
            result = kaldialign.batch_error_rate(refs, hyps)
            return result["sub"], result["del"], result["ins"]

        def kaldi_align():
            return tally((kaldialign.align(ref, hyp, "\x00") for ref, hyp in zip(refs, hyps)), "\x00")

        arms["kaldialign.batch_error_rate"] = kaldi_batch
        arms["kaldialign.align per pair"] = kaldi_align
    except ImportError:
        print("kaldialign not installed (pip install -e '.[bench]'): its rows are left out")
    try:
        import texterrors

        def texterrors_align():
            def aligned(ref, hyp):
                a, b, _ = texterrors.align_texts(ref, hyp, use_chardiff=False)
                return zip(a, b)
            return tally((aligned(ref, hyp) for ref, hyp in zip(refs, hyps)), "<eps>")

        arms["texterrors.align_texts per pair"] = texterrors_align
    except ImportError:
        print("texterrors not installed (pip install -e '.[bench]'): its row is left out")
    try:
        import jiwer

        def jiwer_lists():
            output = jiwer.process_words([" ".join(ref) for ref in refs], [" ".join(hyp) for hyp in hyps])
            return output.substitutions, output.deletions, output.insertions

        arms["jiwer.process_words (one call)"] = jiwer_lists
    except ImportError:
        print("jiwer not installed: its row is left out")

    seconds, results = medians(arms, repeat)
    base = seconds["ours: counts (edit_tallies)"]
    print(f"\n[align] alignment + counts, {len(refs):,} pre-normalized English pairs, "
          f"{sum(map(len, refs)):,} reference words; median of {repeat} alternating rounds")
    for name, value in seconds.items():
        s, d, i = results[name]
        print(f"  {name:<34} {len(refs) / value:>10,.0f} pairs/s  ours (counts) {value / base:5.2f}x its speed  "
              f"S {s} D {d} I {i} total {s + d + i}")
    totals = {sum(result) for result in results.values()}
    print(f"  corpus totals {'identical' if len(totals) == 1 else 'DIFFER: ' + str(sorted(totals))}")


def end_to_end_figure(pairs: list[tuple[str, str]], repeat: int) -> None:
    references = [ref for ref, _ in pairs]
    hypotheses = [hyp for _, hyp in pairs]
    arms = {"ours: score(..., 'en')": lambda: score(references, hypotheses, "en").rate}
    try:
        import jiwer
        from whisper_normalizer.english import EnglishTextNormalizer

        whisper = EnglishTextNormalizer()

        def whisper_jiwer():
            return jiwer.process_words([whisper(text) for text in references],
                                       [whisper(text) for text in hypotheses]).wer

        arms["whisper normalizer + jiwer"] = whisper_jiwer
    except ImportError:
        print("whisper-normalizer or jiwer not installed (pip install -e '.[bench]'): no baseline")
    score(references[:2000], hypotheses[:2000], "en")  # builds and warms the normalizer
    seconds, results = medians(arms, repeat)
    print(f"\n[end-to-end] normalize + align + aggregate, {len(pairs):,} raw English pairs; "
          f"median of {repeat} alternating rounds")
    ours = seconds["ours: score(..., 'en')"]
    for name, value in seconds.items():
        print(f"  {name:<34} {len(pairs) / value:>10,.0f} pairs/s  WER {results[name]:.4f}  "
              f"ours {value / ours:5.2f}x its speed")


def scaling_figure(pairs: list[tuple[str, str]], small: int, repeat: int) -> None:
    references = [ref for ref, _ in pairs]
    hypotheses = [hyp for _, hyp in pairs]
    sizes = {"small": small, "large": len(pairs)}

    def run(size: int, collect: bool):
        def arm():
            enabled = gc.isenabled()
            if not collect:
                gc.disable()
            try:
                return score(references[:size], hypotheses[:size], "en").rate
            finally:
                if enabled:
                    gc.enable()
        return arm

    arms = {f"{name} {collect}": run(size, collect == "gc on")
            for name, size in sizes.items() for collect in ("gc on", "gc off")}
    score(references[:2000], hypotheses[:2000], "en")
    seconds, _ = medians(arms, repeat)
    print(f"\n[scaling] score(..., 'en') per pair, {small:,} vs {len(pairs):,} pairs; median of {repeat} "
          f"alternating rounds")
    per_pair = {}
    for name, size in sizes.items():
        on, off = seconds[f"{name} gc on"] / size, seconds[f"{name} gc off"] / size
        per_pair[name] = on
        print(f"  {size:>8,} pairs: {on * 1e6:7.1f} us/pair (gc off {off * 1e6:7.1f}; collector share "
              f"{max(0.0, 1 - off / on):5.1%})")
    print(f"  large/small per-pair cost: {per_pair['large'] / per_pair['small']:.2f}x")
    tracemalloc.start()
    result = score(references, hypotheses, "en")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  peak memory of score() on {len(pairs):,} pairs (tracemalloc): {peak / 2**20:,.1f} MiB "
          f"({peak / len(pairs):,.0f} bytes/pair; rate {result.rate:.4f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=92_000, help="pairs for the align and end-to-end figures")
    parser.add_argument("--large", type=int, default=100_000, help="pairs of the large scaling run")
    parser.add_argument("--small", type=int, default=10_000, help="pairs of the small scaling run")
    parser.add_argument("--repeat", type=int, default=5, help="alternating rounds; each figure is their median")
    parser.add_argument("--seed", type=int, default=20261201, help="corpus seed")
    parser.add_argument("--only", choices=["align", "end-to-end", "scaling"], nargs="+", default=None)
    args = parser.parse_args(argv)
    figures = args.only or ["align", "end-to-end", "scaling"]
    print(f"python {platform.python_version()} on {platform.machine()}; load average at start {load()}")
    if "align" in figures or "end-to-end" in figures:
        pairs = raw_pairs(args.pairs, args.seed)
        if "align" in figures:
            alignment_figure(pairs, args.repeat)
        if "end-to-end" in figures:
            end_to_end_figure(pairs, args.repeat)
    if "scaling" in figures:
        scaling_figure(raw_pairs(args.large, args.seed + 1), min(args.small, args.large), args.repeat)
    print(f"\nload average at end {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
