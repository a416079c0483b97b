"""The ``roman_numerals`` step (steps/roman_numerals.py) alone, on the fr, es and it configs:
centuries and regnal numbers read as said, only in their contexts (cases/<tag>/style_guide_forms.yaml
pin the whole pipeline)."""

from __future__ import annotations

import pytest

from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.steps.roman_numerals import roman_value


def _step(language: str):
    return STEPS["roman_numerals"].build(get_config(language), {})


@pytest.mark.parametrize(("numeral", "value"), [
    ("I", 1), ("II", 2), ("IV", 4), ("V", 5), ("IX", 9), ("XIV", 14), ("XIX", 19), ("XXI", 21), ("XXIII", 23),
    ("XXXIX", 39),
])
def test_roman_value(numeral, value):
    assert roman_value(numeral) == value


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("fr", "le XIXe siècle", "le 19ème siècle"),
    ("fr", "le XIXème siècle", "le 19ème siècle"),
    ("fr", "le XIX siècle", "le 19ème siècle"),
    ("fr", "le Ier siècle", "le 1er siècle"),
    ("fr", "Louis XIV", "Louis 14"),
    ("fr", "François Ier", "François 1er"),
    ("fr", "Jean-Paul II", "Jean-Paul 2"),
    ("es", "el siglo XIX", "el siglo 19"),
    ("es", "Siglo XXI", "Siglo 21"),
    ("es", "Felipe II", "Felipe segundo"),
    ("es", "Carlos V", "Carlos quinto"),
    ("es", "Alfonso XIII", "Alfonso 13"),
    ("it", "il XIX secolo", "il 19º secolo"),
    ("it", "Luigi XIV", "Luigi 14º"),
    ("it", "Papa Giovanni XXIII", "Papa Giovanni 23º"),
])
def test_roman_numerals_in_their_contexts(language, text, expected):
    assert _step(language)(text) == expected


@pytest.mark.parametrize(("language", "text"), [
    ("fr", "Louis C et Henri M"),          # C, M, D, L are never numbers
    ("fr", "la vitamine C, le type I, V"),  # a lone numeral out of context
    ("fr", "Louis xiv"),                     # only capitals
    ("fr", "XIXe"),                          # no century word after it
    ("fr", "le XIXe, siècle"),               # the word must follow right after it
    ("fr", "Louis IIII"),                    # not well formed
    ("es", "mi siglo"),
    ("es", "Felipe y yo", ),
    ("es", "el I siglo"),                    # es reads a numeral after siglo, not before
    ("it", "di secolo in secolo"),
    ("it", "mi dai il V?"),
    ("it", "Luigi MCM"),
])
def test_roman_numerals_leaves_other_text(language, text):
    assert _step(language)(text) == text


@pytest.mark.parametrize("language", ["de", "nl"])
def test_roman_numerals_does_nothing_without_a_table(language):
    assert _step(language)("Ludwig XIV im XIX. Jahrhundert") == "Ludwig XIV im XIX. Jahrhundert"
