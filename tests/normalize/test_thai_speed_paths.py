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
