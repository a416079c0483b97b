"""The cheap tests in front of the whitespace, invisible-character, hyphen, dotted-abbreviation
and filler steps never change an output.

Each step first tests whether the text can need its work at all (``str.isprintable``, a
substring, a pattern that starts with a literal) and returns the text as it is when not. Every
such test is checked here against the step's rule applied without it, on every string of
length three over an alphabet of the characters the rule looks at and on seeded longer
strings built from its trigger words.
"""

from __future__ import annotations

import itertools
import random
import re
import sys

import pytest

from pytest_asrbench.normalize.registry import get_config, get_lexicons
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.steps.basic import INVISIBLE, WHITESPACE
from pytest_asrbench.normalize.steps.word_shapes import _DOTTED, FOLDS_TO_WORD_CHARACTER, filler_rules

_SPACES = [" ", "\t", "\n", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "\u200b"]


def _strings(alphabet: list[str], seed: str, words: list[str] = ()) -> list[str]:
    texts = ["".join(chars) for chars in itertools.product(alphabet, repeat=3)]
    pieces = alphabet + list(words)
    rng = random.Random(seed)
    texts += ["".join(rng.choices(pieces, k=rng.randint(2, 10))) for _ in range(5_000)]
    return texts


def _step(name: str, language: str = "en"):
    return STEPS[name].build(get_config(language), get_lexicons(language))


def test_every_space_but_the_ascii_space_is_non_printable():
    # What the whitespace steps' test "isprintable and no double space" rests on.
    printable = [hex(code) for code in range(sys.maxunicode + 1)
                 if (chr(code).isspace() or code == 0x200B) and code != 0x20 and chr(code).isprintable()]
    assert printable == []


def test_unicode_whitespace_gives_the_whitespace_substitution():
    step = _step("unicode_whitespace")
    texts = _strings(_SPACES + ["a", "é", "-"], "unicode_whitespace")
    assert [step(text) for text in texts] == [WHITESPACE.sub(" ", text) for text in texts]


def test_collapse_whitespace_gives_the_split_and_join():
    step = _step("collapse_whitespace")
    texts = _strings(_SPACES + ["a", "é"], "collapse_whitespace")
    assert [step(text) for text in texts] == [" ".join(text.split()) for text in texts]


def test_invisible_characters_gives_the_substitution_of_every_invisible_character():
    step = _step("invisible_characters")
    alphabet = ["a", " ", "\t", "\x00", "\x08", "\x1b", "\x1c", "\x7f", "\x85", "\xad", "\u200b", "\u200d",
                "\u3164", "\ufe0f", "\u034f", "é", "\U000e0041", "\U0001f600"]
    texts = _strings(alphabet, "invisible_characters")
    assert [step(text) for text in texts] == [INVISIBLE.sub("", text) for text in texts]


def test_split_hyphens_splits_a_hyphen_with_a_letter_on_one_side_and_a_word_character_on_the_other():
    step = _step("split_hyphens")
    # The rule as first written: a hyphen after a letter before a word character, or after
    # a word character before a letter.
    rule = re.compile(r"(?<=[^\W\d_])-(?=\w)|(?<=\w)-(?=[^\W\d_])")
    texts = _strings(["a", "1", "٣", "_", "é", "\u0301", "-", " ", "."], "split_hyphens")
    assert [step(text) for text in texts] == [rule.sub(" ", text) for text in texts]


def test_dotted_abbreviations_gate_misses_no_abbreviation():
    step = _step("dotted_abbreviations")
    texts = _strings(["a", "B", "é", "1", "_", ".", " ", "-"], "dotted_abbreviations", ["U.S.A.", "p.m.", "e.g"])
    expected = [_DOTTED.sub(lambda match: match.group(0).replace(".", ""), text) for text in texts]
    assert [step(text) for text in texts] == expected


@pytest.mark.parametrize("language", ["en", "de", "fr", "nl", "es", "it"])
def test_fillers_any_case_gate_misses_no_filler(language):
    config = get_config(language)
    step = _step("fillers_any_case", language)
    _, remove = filler_rules(config)
    fillers = list(config.fillers)
    words = fillers + [word.upper() for word in fillers] + [word.title() for word in fillers] + ["x" + fillers[0]]
    texts = _strings(["a", " ", "-", "'", "’", ",", "(", "1"] + fillers[:3], language, words)
    assert [step(text) for text in texts] == [remove(text) for text in texts]


def test_only_u0345_folds_from_a_non_word_character_to_a_word_character():
    # What the fillers test's "no word character after the filler" on the case-folded text rests on.
    word = re.compile(r"\w")
    found = sorted({end for char in map(chr, range(sys.maxunicode + 1)) if not word.match(char)
                    for end in (char.casefold()[0], char.casefold()[-1]) if word.match(end)})
    assert "".join(found) == FOLDS_TO_WORD_CHARACTER


@pytest.mark.parametrize("language", ["en", "de", "fr", "nl", "es", "it", "hi"])
def test_fillers_any_case_gate_misses_no_filler_next_to_a_character_that_case_folds_apart(language):
    # Word endings ("heure" holds "heu"), and characters whose case fold differs from what
    # ``re`` matches ignoring case: U+0345 (folds to a letter), İ, ß, ẞ, ſ, the Kelvin sign.
    config = get_config(language)
    step = _step("fillers_any_case", language)
    _, remove = filler_rules(config)
    fillers = list(config.fillers)
    words = fillers + [word.upper() for word in fillers] + [word + "re" for word in fillers]
    alphabet = ["a", " ", "-", "'", "\u0345", "\u03b9", "İ", "ß", "ẞ", "ſ", "\u212a", "é", "_", "1"] + fillers[:2]
    texts = _strings(alphabet, f"{language} case folds", words)
    assert [step(text) for text in texts] == [remove(text) for text in texts]
