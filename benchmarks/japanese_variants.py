"""Spelling variants in Japanese: the hand-kept table against SudachiPy and pykakasi.

The evaluation behind the choice in ``pytest_asrbench/normalize/languages/ja/__init__.py``
and the table in docs/japanese.md ("Spelling variants: library or table"). Three ways to
make two spellings of one word compare equal are run on the same pairs:

- the ja normalizer with its hand-kept table (``configs/ja/variants.tsv``);
- SudachiPy with the small dictionary, each morpheme replaced by its ``normalized_form``;
- pykakasi, each text replaced by its hiragana reading.

Recall: how many of the VARIANTS pairs (one word, two spellings) compare equal. Precision:
how many of the DISTINCT pairs (homophones and inflections spoken differently) stay apart.
Then each method's strings/s on the ja benchmark corpus (same corpus, same run), and the
share of the ja normalizer's time the library step would add.

Run (the libraries are not dependencies of the package; install them only for this):

    pip install sudachipy==0.7.0 sudachidict-small==20261015 pykakasi==2.3.0
    python benchmarks/japanese_variants.py

Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpora  # noqa: E402

from pytest_asrbench.normalize import get_normalizer  # noqa: E402

#: One word, two spellings (the original requirements' four pairs first, then okurigana and kana/kanji pairs).
VARIANTS = [
    ("何とか", "なんとか"), ("振替", "振り替え"), ("名字", "苗字"), ("合って", "あって"),
    ("申し込み", "申込み"), ("問い合わせ", "問合せ"), ("打ち合わせ", "打合せ"), ("受付", "受け付け"),
    ("引き落とし", "引落し"), ("子供", "子ども"), ("下さい", "ください"), ("出来る", "できる"),
    ("宜しく", "よろしく"), ("有難う", "ありがとう"), ("お願い致します", "お願いいたします"),
    ("取り消し", "取消し"), ("割引", "割り引き"), ("手続き", "手続"), ("メールアドレス", "メアド"),
    ("一人", "ひとり"),
]
#: Variant pairs the hand-kept table does not list (held out): what a table misses and a
#: dictionary may catch. The table's own score on VARIANTS is by construction; this one is not.
HELD_OUT = [
    ("見積もり", "見積り"), ("貸し出し", "貸出"), ("売り上げ", "売上"), ("振り込み", "振込"),
    ("締め切り", "締切"), ("乗り換え", "乗換え"), ("書き込み", "書込み"), ("お届け", "御届け"),
    ("取り扱い", "取扱い"), ("支払い", "支払"),
]
#: Different words that must stay apart: homophones, and inflections spoken differently.
DISTINCT = [
    ("橋", "箸"), ("橋", "端"), ("会う", "合う"), ("会って", "合って"), ("雨", "飴"), ("神", "紙"),
    ("感じ", "漢字"), ("機会", "機械"), ("意思", "意志"), ("以上", "異常"), ("公園", "講演"),
    ("科学", "化学"), ("口座", "講座"), ("今日", "教"), ("ください", "くださる"), ("できる", "できた"),
    ("行きます", "行く"),
]


def methods():
    """``{name: text -> comparable form}``; a library that is missing is reported and skipped."""
    found = {"hand-kept table (ours)": get_normalizer("ja")}
    try:
        from sudachipy import Dictionary, SplitMode

        tokenizer = Dictionary(dict="small").tokenizer(mode=SplitMode.C)
        found["SudachiPy normalized_form"] = lambda t: "".join(m.normalized_form() for m in tokenizer.tokenize(t))
    except ImportError as error:
        print(f"SudachiPy skipped ({error}): pip install sudachipy==0.7.0 sudachidict-small==20261015", file=sys.stderr)
    try:
        import pykakasi

        kakasi = pykakasi.kakasi()
        found["pykakasi reading"] = lambda t: "".join(item["hira"] for item in kakasi.convert(t))
    except ImportError as error:
        print(f"pykakasi skipped ({error}): pip install pykakasi==2.3.0", file=sys.stderr)
    return found


def rate(function, corpus: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in corpus:
            function(text)
        best = min(best, time.perf_counter() - start)
    return len(corpus) / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000, help="corpus utterances (default 20000)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    corpus = corpora.load("ja")(args.count, args.seed)
    found = methods()
    ours = rate(found["hand-kept table (ours)"], corpus, args.repeat)
    print(f"{len(VARIANTS)} variant pairs, {len(HELD_OUT)} held out, {len(DISTINCT)} distinct pairs; {args.count} ja corpus utterances, best of {args.repeat}")
    print()
    print("| method | variants merged | held-out variants merged | distinct kept apart | strings/s | added share of the ja normalizer's time |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, function in found.items():
        merged = sum(function(a) == function(b) for a, b in VARIANTS)
        kept = sum(function(a) != function(b) for a, b in DISTINCT)
        held = sum(function(a) == function(b) for a, b in HELD_OUT)
        speed = ours if name.endswith("(ours)") else rate(function, corpus, args.repeat)
        share = "-" if name.endswith("(ours)") else f"{(1 / speed) / (1 / ours + 1 / speed):.0%}"
        print(f"| {name} | {merged}/{len(VARIANTS)} | {held}/{len(HELD_OUT)} | {kept}/{len(DISTINCT)} | {speed:,.0f} | {share} |")
    print()
    for name, function in found.items():
        misses = [f"{a}/{b}" for a, b in VARIANTS if function(a) != function(b)]
        merges = [f"{a}/{b}" for a, b in DISTINCT if function(a) == function(b)]
        print(f"{name}: not merged: {', '.join(misses) or '-'}; wrongly merged: {', '.join(merges) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
