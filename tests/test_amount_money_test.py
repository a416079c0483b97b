"""The ``amounts`` step's tests of which rules can fire agree with its rules, and glued words read alike everywhere.

Each group of ``amounts`` rules runs only where its test finds something: a word of the
group among the text's words, or its marks as written (the currency names and symbols for
money, the percent words and ``%`` for percentages, which the rules also read glued to the
digits: ``12euros``, ``25prozent``). These tests hold the step against its reading with every
rule run and no test (``plain`` on the step's function) on adversarial strings of the step's
own words, glued and spaced, and on the inputs it receives on the benchmark corpus; and they
pin the glued forms, which a test on the first word of each phrase (es and fr ``de``) once
read only where that word stood elsewhere in the text.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pytest_asrbench.normalize.registry import build_pipeline, get_config, get_lexicons
from pytest_asrbench.normalize.steps.registry import STEPS
from tests.test_number_step_triggers import _option_words

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("de", "nl", "fr", "es", "it")


def _amounts(language: str):
    return STEPS["amounts"].build(get_config(language), get_lexicons(language))


def _words(language: str) -> list[str]:
    """The words and phrases of the ``amounts`` option table (its single-word fields too), and
    the pieces its rules read around them."""
    table = get_config(language).options.get("amounts", {})
    single = [value for value in table.values() if isinstance(value, str) and value]
    return _option_words(language, "amounts") + single + ["de", "d'", "la", "x", "%", ":",
                                                           get_config(language).decimal_separator]


def _adversarial(language: str, count: int = 4000) -> list[str]:
    """Seeded strings of digits (alone, with the decimal separator) and the step's words, each
    piece spaced or glued to the next."""
    words = _words(language)
    decimal = get_config(language).decimal_separator
    rng = random.Random(f"amounts:{language}")
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 9)):
            if rng.random() < 0.4:
                number = "".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 4)))
                parts.append(number + (decimal + rng.choice(["5", "50", "05"]) if rng.random() < 0.3 else ""))
            else:
                parts.append(rng.choice(words))
            parts.append(rng.choice([" ", " ", " ", ""]))
        texts.append("".join(parts).strip())
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_amounts_matches_its_reading_with_every_rule_run(language):
    step = _amounts(language)
    texts = _adversarial(language)
    differ = [(text, step(text), step.plain(text)) for text in texts if step(text) != step.plain(text)]
    assert differ == []
    assert sum(step(text) != text for text in texts) > len(texts) // 8  # the rules do fire


@pytest.mark.parametrize("language", LANGUAGES)
def test_amounts_matches_its_reading_with_every_rule_run_on_the_corpus(language):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import corpora
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    names = list(get_config(language).steps)
    index = names.index("amounts")
    pipeline = build_pipeline(language, names)
    inputs = [pipeline.explain(text)[index][1] for text in corpora.load(language)(1500, 20261201)]
    step = _amounts(language)
    assert [text for text in inputs if step(text) != step.plain(text)] == []


#: A currency or percent word glued to the digits, alone and with other words of the step's
#: tables elsewhere in the text (es and fr "de", which leads "de euros" and "de dollars"): the
#: same reading either way, the one the rules give the spaced form ("12 euros" = "12€"; a spoken
#: name before the number is no amount, glued or not: "euro12" stays as "euro 12" does, a
#: symbol or code before it is one: "€7" = "7€").
GLUED = {
    "de": [("12euro", "12€"), ("euro12", "euro12"), ("25prozent", "25%"), ("25prozent und 3 prozent", "25% und 3%"),
           ("12euro und 3 euro", "12€ und 3€"), ("pfund7", "pfund7"), ("€7", "7€")],
    "nl": [("6euro", "6€"), ("dollar7,3", "dollar7,3"), ("$7,3", "7,30$"), ("29procent", "29%"), ("6euro en 2 euro", "6€ en 2€")],
    "fr": [("12euros", "12€"), ("12euros de dollars", "12€ de dollars"), ("livres3", "livres3"), ("chf3", "3chf"),
           ("2dollars et 3 euros", "2$ et 3€")],
    "es": [("euros12", "euros12"), ("pago euros12 de ayer", "pago euros12 de ayer"), ("son 12euros", "son 12€"),
           ("son 12euros de luis", "son 12€ de luis"), ("dólares84", "dólares84"), ("84dólares", "84$")],
    "it": [("39euro", "39€"), ("39euro di euro", "39€ di euro"), ("sterline6", "sterline6"), ("6sterline", "6£"), ("7,7euro e 2 euro", "7,70€ e 2€")],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_currency_or_percent_word_glued_to_digits_reads_as_spaced_wherever_the_other_words_stand(language):
    step = _amounts(language)
    assert [(text, step(text)) for text, _ in GLUED[language]] == GLUED[language]
