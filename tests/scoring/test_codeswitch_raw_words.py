"""The raw words of a side, read the fast way for printable ASCII text, are the words the
normalizer's own boundaries give (format, control and default-ignorable characters removed,
every whitespace a boundary)."""

from __future__ import annotations

import pytest

from pytest_asrbench.normalize.steps.basic import INVISIBLE, WHITESPACE
from pytest_asrbench.scoring.views.codeswitch.sides import raw_words


def boundary_words(raw: str) -> list[str]:
    return [word for word in WHITESPACE.split(INVISIBLE.sub("", raw)) if word]


@pytest.mark.parametrize("raw", [
    "la reunión es a las nine",
    "I'm not sure  it's  fine ",
    "tab\tseparated\nlines",
    "file\x1cseparator\x1fhere",
    "bell\x07inside and del\x7fhere",
    "zero\u200bwidth space",
    "soft\u00adhyphen and joiner\u200dhere",
    "मुझे network चाहिए\u200c",
    "nbsp\u00a0between",
    "",
    "   ",
])
def test_raw_words_match_the_normalizer_word_boundaries(raw):
    assert raw_words(raw) == boundary_words(raw)


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_inside_a_word_splits_as_the_normalizer_boundaries_do(code):
    raw = f"one a{chr(code)}b two"
    assert raw_words(raw) == boundary_words(raw)


def test_every_printable_character_inside_a_word_splits_as_the_normalizer_boundaries_do():
    # Every code point the fast path can take (printable text), one at a time inside a word.
    wrong = [hex(code) for code in range(0x80, 0x110000) if chr(code).isprintable()
             and raw_words(f"one a{chr(code)}b two") != boundary_words(f"one a{chr(code)}b two")]
    assert wrong == []
