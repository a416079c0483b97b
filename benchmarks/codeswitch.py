"""Cost of the Hindi code-switch rescuer: the same turns scored with and without it, side by side.

Generates ``--turns`` code-switched Hindi reference/hypothesis pairs (deterministic seed):
Hindi carrier sentences with English words in Latin or Devanagari, and hypotheses that
switch scripts (नेटवर्क -> network), write English numbers as digits (seven -> 7), expand
contractions, or make real errors (substitutions, deletions, insertions). Then, in one
process and alternating ``--repeat`` times:

- *plain*: the strict Hindi score (normalize both sides, align, count: score() without its
  metric views);
- *rescued*: ``score(..., "hi")``, the full code-switch-aware score.

Reports the best time of each as turns/s and the ratio (target: rescued at most 2x plain).
Times are this process's CPU time (``time.process_time``), so other programs on a shared
machine do not slow one arm and not the other; the arms alternate which goes first.

    python benchmarks/codeswitch.py [--turns 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time

from pytest_asrbench import score
from pytest_asrbench.normalize.registry import get_config, normalize_text
from pytest_asrbench.scoring.metrics import get_metric
from pytest_asrbench.scoring.result import PairScore, aggregate

# English words as a Hindi speaker's reference may write them, and as an STT may.
ENGLISH = [("नेटवर्क", "network"), ("प्रॉब्लम", "problem"), ("कन्फर्म", "confirm"), ("मैनेजर", "manager"),
           ("बुकिंग", "booking"), ("पासवर्ड", "password"), ("ट्रांसफर", "transfer"), ("डॉलर", "dollar"),
           ("टिकट", "ticket"), ("होटल", "hotel"), ("अपॉइंटमेंट", "appointment"), ("नंबर", "number"),
           ("कोड", "code"), ("टाइम", "time"), ("फ़्लाइट", "flight")]
NUMBERS = [("seven", "7"), ("twenty five", "25"), ("eleven", "11"), ("three", "3")]
HINDI = ["मेरा", "मेरी", "आप", "कृपया", "है", "हैं", "चाहिए", "करना", "कल", "आज", "बजे", "की", "में", "से",
         "क्या", "नहीं", "ठीक", "बात", "जल्दी", "फिर"]
TEMPLATES = [
    "{h} {e} {h} {h}",
    "{h} {e} {e} {h} {h}",
    "{h} {n} बजे {h} {e} {h}",
    "I'm not sure {h} {h} {e} {h}",
    "{h} {h} {e} {h} {n} {h} {h}",
    "{h} {e} {h}",
]


def make_pair(rng: random.Random) -> tuple[str, str]:
    template = rng.choice(TEMPLATES)
    ref_words: list[str] = []
    hyp_words: list[str] = []
    for piece in template.split():
        if piece == "{h}":
            word = rng.choice(HINDI)
            ref_words.append(word)
            roll = rng.random()
            if roll < 0.06:
                hyp_words.append(rng.choice(HINDI))  # a real substitution
            elif roll < 0.09:
                pass  # a deletion
            elif roll < 0.11:
                hyp_words.extend([word, rng.choice(HINDI)])  # an insertion
            else:
                hyp_words.append(word)
        elif piece == "{e}":
            devanagari, latin = rng.choice(ENGLISH)
            ref_words.append(rng.choice((devanagari, latin)))
            hyp_words.append(rng.choice((devanagari, latin, latin)) if rng.random() < 0.9 else "fight")
        elif piece == "{n}":
            words, digits = rng.choice(NUMBERS)
            ref_words.append(words)
            hyp_words.append(rng.choice((digits, words)))
        else:
            ref_words.append(piece)
            hyp_words.append(piece if piece != "I'm" else rng.choice(("I'm", "I am")))
    return " ".join(ref_words), " ".join(hyp_words)


def plain_score(references: list[str], hypotheses: list[str]):
    """The strict Hindi score: what score() computes before the metric views run (the code_switch view)."""
    config = get_config("hi")
    metric = get_metric("stt_wer")
    pairs = [PairScore.of(reference, hypothesis, normalize_text(reference, "hi"), normalize_text(hypothesis, "hi"),
                          config.unit) for reference, hypothesis in zip(references, hypotheses)]
    return aggregate(pairs, unit=config.unit, metric=metric.name, version=metric.version, language="hi",
                     config_version=config.version)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rng = random.Random(2026)
    pairs = [make_pair(rng) for _ in range(args.turns)]
    references = [reference for reference, _ in pairs]
    hypotheses = [hypothesis for _, hypothesis in pairs]
    score(references[:10], hypotheses[:10], "hi")  # build and cache both normalizers first

    best = {"plain": float("inf"), "rescued": float("inf")}
    results = {}
    arms = [("plain", plain_score), ("rescued", lambda r, h: score(r, h, "hi"))]
    for repeat in range(args.repeat):
        for name, function in arms if repeat % 2 == 0 else arms[::-1]:
            start = time.process_time()
            results[name] = function(references, hypotheses)
            best[name] = min(best[name], time.process_time() - start)

    plain, rescued = results["plain"], results["rescued"]
    if plain.rate != rescued.details["strict_rate"]:
        raise SystemExit(f"strict rates disagree: {plain.rate} vs {rescued.details['strict_rate']}")
    cs = rescued.details["code_switch"]
    print(f"turns: {args.turns}  reference words: {plain.reference_length}  repeat: {args.repeat} (best of)")
    print(f"strict WER {plain.rate:.4f}  code-switch-aware WER {rescued.rate:.4f}  "
          f"rescued {cs['rescued_errors']} errors in {len(cs['rescues'])} regions")
    for name in ("plain", "rescued"):
        print(f"{name:<8} {best[name]:.3f} s CPU  {args.turns / best[name]:,.0f} turns/s")
    print(f"ratio rescued/plain: {best['rescued'] / best['plain']:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
