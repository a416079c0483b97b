"""The ``punctuation`` step's ``re`` form gives the outputs of its ``regex`` statement.

The step runs its rules as plain ``re`` patterns over the ``regex`` property classes listed
for the Basic Multilingual Plane (``normalize/steps/char_classes.py``). Both forms are built
from every shipped config's options and must agree on every string of length three over an
alphabet of the characters the rules look at (digits, separators, minus signs, inner marks,
kept symbols, spaces of several kinds, combining marks, letters of several scripts, a
character beyond the plane), and on seeded longer strings and the benchmark corpora.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

from pytest_asrbench.normalize.registry import get_config, known_languages
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.steps.basic import _exact_punctuation, _fast_punctuation
from pytest_asrbench.normalize.steps.char_classes import beyond_bmp, bmp_class, bmp_members

_ALPHABET = list("a Z1 9-−,.'’:/_@%‰€$£()«»\t\x1c\u00a0\u3000\u200bé５٣\u0301\u093f\u0915\u0e34\u0e01\ud55c")
_ALPHABET += ["\U0001f600", "\U0001d7ce", "\U00010400", "\U000e0020"]  # emoji, math digit, Deseret letter, tag


def _both_forms(language: str):
    config = get_config(language)
    options = STEPS["punctuation"].parse_options(config.options.get("punctuation"))
    exact = _exact_punctuation(config.decimal_separator, options)
    return exact, _fast_punctuation(config.decimal_separator, options, exact), options


@pytest.mark.parametrize("language", known_languages())
def test_punctuation_re_form_matches_the_regex_statement_on_every_three_character_string(language):
    exact, fast, options = _both_forms(language)
    assert fast is not exact  # the shipped configs take the re form
    alphabet = sorted(set(_ALPHABET + list(options.keep_symbols + options.inner_punctuation)))
    texts = ["".join(chars) for chars in itertools.product(alphabet, repeat=3)]
    rng = random.Random(language)
    texts += ["".join(rng.choices(alphabet, k=rng.randint(4, 12))) for _ in range(5_000)]
    differing = [(text, fast(text), exact(text)) for text in texts if fast(text) != exact(text)]
    assert differing == []


@pytest.mark.parametrize("language", ["en", "de", "fr", "zh", "ko", "ja", "th"])
def test_punctuation_re_form_matches_the_regex_statement_on_the_benchmark_corpora(language):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        import corpora
        from normalize_throughput import make_corpus
    finally:
        sys.path.pop(0)
    texts = make_corpus(2_000, 20261201) if language == "en" else corpora.load(language)(2_000, 20261201)
    exact, fast, _ = _both_forms(language)
    assert [fast(text) for text in texts] == [exact(text) for text in texts]
    lowered = [text.lower() for text in texts]
    assert [fast(text) for text in lowered] == [exact(text) for text in lowered]


def test_bmp_class_lists_exactly_the_plane_characters_of_the_regex_class():
    import re

    import regex

    members = bmp_members(r"\p{M}")
    assert "\u0301" in members and "\u093f" in members and "a" not in members
    plane = "".join(map(chr, range(0x10000)))
    assert re.findall(bmp_class(r"\p{M}"), plane) == regex.findall(r"\p{M}", plane)
    assert re.findall(bmp_class(r"\s", regex.V1, negate=True), plane) == regex.findall(r"[^\s]", plane, regex.V1)
    assert re.fullmatch(bmp_class(r"\s", negate=True), "\U0001f600")  # the negated class takes in every character beyond the plane


def test_bmp_members_refuses_a_pattern_that_is_not_a_character_class():
    with pytest.raises(ValueError, match="not a character class"):
        bmp_members(r"ab")


def test_beyond_bmp_tells_a_character_past_u_ffff():
    assert not beyond_bmp("abc") and not beyond_bmp("謝謝\uffff") and beyond_bmp("a\U0001f600")
