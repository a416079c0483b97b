"""The number steps of de, nl, fr, es, it: spoken_numbers (text2num), ordinal_dots,
written_ordinals, spaced_digit_groups, clock_fractions and amounts, alone and with folds.

The YAML cases under cases/<tag>/numbers.yaml and money_time.yaml pin the shipped configs;
these tests pin what the cases cannot: the errors, the folds another config may add before
the steps, and the edges of each rule.
"""

from __future__ import annotations

import pytest

from pytest_asrbench import normalize_text
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.steps.amounts import _clock

# de folds umlauts and ß into two letters (char_folds) before the number steps, which
# must still read them; the number steps also run before lowercase (spoken_numbers before
# the code steps), so they must read any case.
@pytest.fixture(scope="module")
def folded_german():
    return lambda text: normalize_text(text, "de")


@pytest.mark.parametrize(("text", "expected"), [
    ("fünf Tickets", "5 tickets"),             # the requirements: folds leave "fünf" a number
    ("fuenf Tickets", "5 tickets"),
    ("zwölf Euro fünfzig", "12,50€"),
    ("am dritten März", "am 3 maerz"),        # the month list is folded like the text
    ("dreißig Prozent", "30%"),
    ("um vierzehn Uhr dreißig", "um 14:30"),
    ("Krüger kommt", "krueger kommt"),         # an ordinary word keeps its fold
    ("neue Türen", "neue tueren"),             # "neue" read back as "neü" is no number: untouched
    ("ZWÖLF EURO FÜNFZIG", "12,50€"),          # capitals: the folds read back from ZWOELF too
    ("Zwei Tage", "2 tage"),
    ("A B C Bindestrich eins zwei drei", "abc 123"),  # spoken digits join the code, as written ABC-123
    ("M vier B", "m4b"),
    ("Am 3. März", "am 3 maerz"),             # ordinal_dots reads capitals (it runs before lowercase)
])
def test_number_steps_read_folded_german(folded_german, text, expected):
    assert folded_german(text) == expected


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("nl", "Een 3-kamer-appartement", "een 3 kamerappartement"),  # an article before digits stays
    ("nl", "een of twee dagen", "1 of 2 dagen"),                    # next to a number word: a number
    ("de", "Eine Million", "1000000"),
    ("de", "5 Million Million", "5000000000000"),                  # scales multiply to a fixed point
    ("fr", "Le 1ER janvier", "le 1 janvier"),                       # written_ordinals in any case
    ("es", "El 1.º DE ENERO", "el 1 de enero"),
    ("es", "1 barra de pan", "1 barra de pan"),                     # code_only needs a code on both sides
    ("fr", "cents dollars cents", "100$ 100"),                      # the number before the name is the amount
])
def test_number_rules_in_any_case_and_next_to_digits(language, text, expected):
    assert normalize_text(text, language) == expected


def test_spoken_numbers_refuses_a_language_text2num_does_not_parse():
    config = get_config("de").model_copy(update={"options": {"spoken_numbers": {"language": "xx"}}})
    with pytest.raises(ConfigError, match=r"text2num parses only .*set `language`"):
        STEPS["spoken_numbers"].build(config, {})


@pytest.mark.parametrize(("text", "expected"), [
    ("3 400", "3400"),
    ("1 000 000 clients", "1000000 clients"),
    ("3 400,50 €", "3400,50€"),
    ("06 12 34 56", "06 12 34 56"),       # two-digit groups: a phone number, never joined
    ("en 2024 100 personnes", "en 2024 100 personnes"),  # a four-digit number starts no group
    ("0 100", "0 100"),                   # a group never starts with 0
])
def test_spaced_digit_groups(text, expected):
    assert normalize_text(text, "fr") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("3. März", "3 maerz"),                 # starts the text, before a month (de folds ä = ae)
    ("der 3. Versuch", "der 3. versuch"),   # after an article
    ("Ich habe 3. Dann", "ich habe 3 dann"),  # a sentence end
    ("Seite 3.", "seite 3"),                # the end of the text
    ("1.000. Kunde", "1000. kunde"),        # groups first, then the ordinal (the thousandth customer)
    ("ich habe 1000. Dann", "ich habe 1000 dann"),
])
def test_ordinal_dots(text, expected):
    assert normalize_text(text, "de") == expected


@pytest.mark.parametrize(("hour", "minutes", "expected"), [
    (3, -30, "2:30"), (1, -30, "12:30"), (12, 15, "12:15"), (12, -15, "11:45"), (3, 30, "3:30"),
])
def test_clock_is_a_twelve_hour_dial(hour, minutes, expected):
    assert _clock(hour, minutes) == expected


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("de", "12,5 €", "12,50€"),            # one cents digit is tens of cents
    ("de", "12,00 €", "12€"),
    ("nl", "0 cent", "0€"),                # no cents is a whole amount, as 0,00 € is (idempotence)
    ("nl", "€ 0,00", "0€"),
    ("de", "1,999 €", "1,999€"),           # three decimals are kept as written
    ("fr", "€12,50", "12,50€"),
    ("es", "12 € 50", "12,50€"),
    ("it", "12,50 €!", "12,50€"),
])
def test_money_forms(language, text, expected):
    assert normalize_text(text, language) == expected


@pytest.mark.parametrize("language", ["de", "nl", "fr", "es", "it"])
def test_number_steps_are_idempotent_on_their_own_output(language):
    texts = ["zwölf Euro fünfzig um vierzehn Uhr dreißig am dritten März, 25 %, 3 400 und 0,2 Millionen",
             "twaalf euro vijftig om half drie, de 1ste keer", "à trois heures et demie, le 1er janvier, 1.000",
             "a las dos y media, el 1.º de enero, una barra de pan", "alle due e mezza, il 1° gennaio, 2 milioni"]
    for text in texts:
        once = normalize_text(text, language)
        assert normalize_text(once, language) == once
