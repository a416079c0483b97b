"""Cost of the Japanese and Korean loanword rescue: the same turns scored with and without it.

Generates ``--turns`` reference/hypothesis pairs per language (deterministic seed): carrier
sentences with an English name written in Latin, katakana or Hangul on either side (Figma /
フィグマ / 피그마), translations and other names that must stay errors, and real character
errors. Then, in one process and alternating ``--repeat`` times:

- *plain*: ``score(..., metric="cer")``: the same normalizer and (for Korean) the same
  spacing view, no loanword rescue;
- *rescued*: ``score(..., metric="stt_wer")``, with the ``loanwords`` view.

Reports the best time of each (CPU time, ``time.process_time``) as turns/s and the ratio
(target: rescued at most 1.5x plain). The rescued arm starts each repeat with the rescue's
memo caches cleared, so it never reuses an earlier repeat's answers. Checks that the rescue never raised the rate.

    python benchmarks/loanwords.py [--turns 5000] [--repeat 3] [--languages ja ko]
"""

from __future__ import annotations

import argparse
import random
import time

from pytest_asrbench import score
from pytest_asrbench._shared import caches

NAMES = {
    "ja": [("Figma", "フィグマ"), ("Chrome", "クローム"), ("Canva", "キャンバ"), ("Trello", "トレロ"),
           ("Python", "パイソン"), ("Linux", "リナックス"), ("Safari", "サファリ"), ("Netflix", "ネットフリックス"),
           ("Apple", "リンゴ"), ("Docker", "ドッカー")],
    "ko": [("Zoom", "줌"), ("Dropbox", "드롭박스"), ("Teams", "팀즈"), ("Chrome", "크롬"), ("Figma", "피그마"),
           ("Slack", "슬랙"), ("Python", "파이썬"), ("Google", "구글"), ("Apple", "사과"), ("Sorry", "소리")],
}
CARRIERS = {
    "ja": ["{n}で確認します", "{n}を開いてください", "昨日{n}の会議がありました", "{n}に保存しました", "{n}と{m}を使います"],
    "ko": ["{n} 회의가 있어요", "{n}에 저장했어요", "어제 {n}로 연락했어요", "{n}을 열어 주세요", "{n}이랑 {m} 둘 다 써요"],
}
NOISE = {"ja": "のをにでがはと確認会議", "ko": "의를에서가는이랑회의"}


def make_pair(rng: random.Random, language: str) -> tuple[str, str]:
    carrier = rng.choice(CARRIERS[language])
    ref_names = {}
    hyp_names = {}
    for slot in ("n", "m"):
        latin, rendering = rng.choice(NAMES[language])
        ref_names[slot] = latin if rng.random() < 0.8 else rendering
        hyp_names[slot] = rendering if rng.random() < 0.8 else latin
    reference = carrier.format(**ref_names)
    hypothesis = carrier.format(**hyp_names)
    if rng.random() < 0.2:  # a real character error
        index = rng.randrange(len(hypothesis))
        hypothesis = hypothesis[:index] + rng.choice(NOISE[language]) + hypothesis[index + 1:]
    return reference, hypothesis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--languages", nargs="+", default=["ja", "ko"])
    args = parser.parse_args()
    for language in args.languages:
        rng = random.Random(2026)
        pairs = [make_pair(rng, language) for _ in range(args.turns)]
        references = [reference for reference, _ in pairs]
        hypotheses = [hypothesis for _, hypothesis in pairs]
        score(references[:10], hypotheses[:10], language)  # build and cache the normalizer first
        def rescued_score(r, h):
            caches.reset_from_configs()  # no rescue remembered from an earlier repeat: every pair is new
            return score(r, h, language)

        arms = [("plain", lambda r, h: score(r, h, language, metric="cer")), ("rescued", rescued_score)]
        best = {"plain": float("inf"), "rescued": float("inf")}
        results = {}
        for repeat in range(args.repeat):
            for name, function in arms if repeat % 2 == 0 else arms[::-1]:
                start = time.process_time()
                results[name] = function(references, hypotheses)
                best[name] = min(best[name], time.process_time() - start)
        plain, rescued = results["plain"], results["rescued"]
        if rescued.rate > plain.rate:
            raise SystemExit(f"{language}: the rescue raised the rate: {plain.rate} -> {rescued.rate}")
        loanwords = rescued.details["loanwords"]
        print(f"{language}: turns {args.turns}  repeat {args.repeat} (best of)  CER {plain.rate:.4f} -> "
              f"{rescued.rate:.4f}  rescued {loanwords['rescued_errors']} errors in {len(loanwords['rescues'])} names")
        for name in ("plain", "rescued"):
            print(f"  {name:<8} {best[name]:.3f} s CPU  {args.turns / best[name]:,.0f} turns/s")
        print(f"  ratio rescued/plain: {best['rescued'] / best['plain']:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
