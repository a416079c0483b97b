"""The Thai reviewer normalizer's shortcuts give pythainlp's own results.

``thai_marks`` skips pythainlp's ``normalize`` when :func:`might_change` says it cannot change
the text, and ``thai_numbers`` tokenizes whitespace-free chunks one at a time with a cache;
both are checked against the plain calls on seeded random Thai strings (marks, vowels, tone
marks, spaces, zero-width characters in every order) and on the reviewer case texts.
"""

import random
from pathlib import Path

import pytest
import yaml

from pytest_asrbench.normalize.languages.th.library import thai_normalize, tokenize_by_chunks, word_tokenize
from pytest_asrbench.normalize.languages.th.words import might_change

_THAI = [chr(code) for code in range(0x0E01, 0x0E5C) if chr(code).isprintable()]
_EXTRA = [" ", " ", "  ", "\n", "\t", "\u200b", "\u200c", "เเ", "ๆ", "5", "a"]
_WORDS = ["ราคา", "ยี่สิบห้า", "บาท", "เด็ก", "สามารถ", "น้ำ", "ก่อน", "แปลก", "สองพัน", "ครับ", "เก้าอี้"]


def _random_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        pieces = [rng.choice(_THAI + _EXTRA) if rng.random() < 0.7 else rng.choice(_WORDS)
                  for _ in range(rng.randrange(1, 16))]
        texts.append("".join(pieces))
    return texts


def _case_texts() -> list[str]:
    texts = []
    for path in sorted(Path("cases/th").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            texts.extend(value for key in ("texts", "text", "reference", "hypothesis")
                         for value in ([case[key]] if isinstance(case.get(key), str) else case.get(key) or []))
    return texts


def test_a_text_might_change_rejects_is_left_unchanged_by_pythainlp():
    normalize = thai_normalize()
    skipped = 0
    for text in _random_texts(10_000, 23) + _case_texts():
        if not might_change(text):
            skipped += 1
            assert normalize(text) == text, repr(text)
    assert skipped > 1000  # the shortcut is taken, not vacuous


@pytest.mark.parametrize("text", ["นำ้", "เเปลก", "ก่่อน", "ดีีี", "ครับ\u200bผม", " ่ก", "ก  ข", "ก ุ", "นๅ", "กํา", "ก\n"])
def test_every_rule_of_pythainlp_normalize_is_caught(text):
    assert might_change(text)
    assert thai_normalize()(text) != text


def test_chunked_tokenizing_equals_tokenizing_the_whole_text():
    tokenize = word_tokenize()
    for text in _random_texts(3_000, 5) + _case_texts():
        assert tokenize_by_chunks(text) == tokenize(text), repr(text)


def _morpheme_runs(count: int, seed: int) -> list[str]:
    """Written numerals (pythainlp's num_to_thaiword) and random runs of number morphemes."""
    from pythainlp.util import num_to_thaiword

    from pytest_asrbench.normalize.languages.th.numbers import MORPHEMES

    rng = random.Random(seed)
    runs = {num_to_thaiword(value) for value in [*range(1, 1500), *(rng.randrange(10**13) for _ in range(1500))]}
    runs |= {"".join(rng.choice(MORPHEMES) for _ in range(rng.randrange(1, 14))) for _ in range(count)}
    return sorted(runs)


def test_numeral_values_read_by_the_grammar_equal_pythainlps():
    from pythainlp.util import thaiword_to_num

    from pytest_asrbench.normalize.languages.th.numbers import numeral_value

    words = [word for word in _morpheme_runs(6000, 11) if numeral_value(word) is not None]
    assert len(words) > 3000
    assert [numeral_value(word) for word in words] == [thaiword_to_num(word) for word in words]


def test_a_run_splits_between_accepts_is_tokenized_into_whole_morphemes_only():
    from pytest_asrbench.normalize.languages.th.library import splits_between
    from pytest_asrbench.normalize.languages.th.numbers import _MORPHEME_RE, _PART, MORPHEMES

    runs = _morpheme_runs(6000, 12) + _morpheme_runs(12000, 13)
    accepted = [run for run in runs if splits_between(_MORPHEME_RE.findall(run), MORPHEMES)]
    assert len(accepted) > 0.95 * len(runs)  # the shortcut is taken for nearly every run
    tokens = {run: word_tokenize()(run) for run in accepted}
    assert [(run, split) for run, split in tokens.items() if not all(_PART.fullmatch(token) for token in split)] == []


#: Chunks that reach every branch of the chunk-by-chunk reading: numerals of one and more
#: morphemes, units and markers before and after them, digits before a multiplier, a name that
#: is a numeral, words holding number words (with digits after them), decimals, spelled digits,
#: and empty chunks.
_CHUNKS = ["หก", "พัน", "สิบ", "ร้อย", "ยี่", "เอ็ด", "ศูนย์", "สองพัน", "สามร้อยยี่สิบห้า", "ศูนย์แปดหนึ่ง", "สองสาม",
           "ร้อยเอ็ด", "หนึ่งร้อยเอ็ด", "โมง", "คน", "บาท", "ปี", "ที่", "เลขที่", "ราคา", "วันที่", "5", "2.5", "๓", "12:30",
           "เก้าอี้", "เก้าอี้5", "ผมชอบเก้าอี้ตัวนี้", "สามคน", "ห้าง", "สามจุดห้า", "จุด", "สาม", "แสนดี", "ครับ", "ราคา5", "", "a", "เร็ว", "ๆ", "นี้"]


def _chunk_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(_CHUNKS) for _ in range(rng.randrange(1, 6))) for _ in range(count)]


def test_thai_numbers_outputs_equal_those_with_every_chunk_tokenized(monkeypatch):
    """The shortcuts (chunks read alone, whole numeral runs, chunks nobody reads) against
    tokenizing every chunk of every text."""
    monkeypatch.syspath_prepend("benchmarks")
    import corpora

    from pytest_asrbench.normalize.languages.th import numbers

    texts = corpora.load("th")(3000, 77) + _case_texts() + _chunk_texts(3000, 78)
    converter = numbers._Converter(dict(_context()))
    fast = [converter.convert(text) for text in texts]
    read_alone = sum(converter._by_chunks(text.split(" ")) is not None for text in texts)
    assert read_alone > 2000  # the chunk-by-chunk reading is taken, not vacuous
    monkeypatch.setattr(numbers, "tokenizes_by_chunks", lambda text: False)
    monkeypatch.setattr(numbers, "tokenize_by_chunks", lambda text, keep_whole=None: tokenize_by_chunks(text))
    slow = numbers._Converter(dict(_context()))
    assert [(text, out) for text, out in zip(texts, fast) if out != slow.convert(text)] == []


@pytest.mark.slow
def test_the_clusters_of_a_morpheme_run_are_its_morphemes_clusters_side_by_side():
    """``run_clusters`` (a table of each morpheme's clusters) against pythainlp's
    ``tcc_pos_array`` on every morpheme followed by every run of morphemes up to the length
    where no TCC pattern that starts inside the morpheme can see further."""
    import re

    from pythainlp.tokenize.tcc_p import _RE_TCC, tcc_pos_array

    from pytest_asrbench.normalize.languages.th.library import run_clusters
    from pytest_asrbench.normalize.languages.th.numbers import MORPHEMES

    try:
        from re import _parser as parser
    except ImportError:  # Python < 3.11
        import sre_parse as parser
    widest = max(parser.parse(pattern).getwidth()[1] for pattern in _RE_TCC)
    lookaheads = [look for pattern in _RE_TCC for look in re.findall(r"\(\?=([^()]*)\)", pattern)]
    assert widest == 11 and lookaheads and all(parser.parse(look).getwidth()[1] == 1 for look in lookaheads)
    assert all(run_clusters([morpheme], MORPHEMES)[-1] == 1 for morpheme in MORPHEMES)  # each ends a cluster
    # A match starting at position q reads at most `widest` characters and one of lookahead:
    # up to q + widest. The clusters of a morpheme start at the table's positions (induction:
    # each is checked here with all it can read), so its last cluster start bounds what the
    # morpheme's clusters depend on.
    checked = 0
    mismatches = []

    def walk(first: str, after: list[str], length: int, reach: int) -> None:
        nonlocal checked
        pieces = [first, *after]
        text = "".join(pieces)
        live = tcc_pos_array(text)
        checked += 1
        if live[: len(first) + 1] != run_clusters([first], MORPHEMES) or (
                not after and live != run_clusters(pieces, MORPHEMES)):
            mismatches.append(pieces)
        if length < reach:
            for morpheme in MORPHEMES:
                walk(first, [*after, morpheme], length + len(morpheme), reach)

    for first in MORPHEMES:
        flags = run_clusters([first], MORPHEMES)
        last_start = max(position for position in range(len(first)) if position == 0 or flags[position])
        walk(first, [], 0, last_start + widest + 1 - len(first))
    assert checked > 600_000
    assert mismatches == []
    rng = random.Random(31)
    for _ in range(2000):
        pieces = [rng.choice(MORPHEMES) for _ in range(rng.randrange(1, 16))]
        assert run_clusters(pieces, MORPHEMES) == bytes(tcc_pos_array("".join(pieces))), pieces


def _context():
    for line in Path("configs/th/number_context.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            yield line.split("\t")
