"""The number steps keep the digits of the number they rewrite, in every digit script.

``amounts``' rules read any decimal digit (Unicode ``Nd``, ``re``'s ``\\d``) and write some digits
of their own: the cents' zero padding (``12,5 €`` = ``12,50€``), an hour without its leading zero,
the ``00`` of a bare hour (``8 uhr`` = ``8:00``), the ``0`` of ``0,50€``; ``spoken_numbers``
multiplies a number by the scale after it (``2 Millionen`` = ``2000000``). Those digits are
written in the script of the number they complete (``๑,๕ €`` = ``๑,๕๐€``, never ``๑,50€``), and
a number whose digits mix scripts is left as written by every rule (no digit added or changed).
"""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest

from pytest_asrbench.normalize import get_normalizer
from pytest_asrbench.normalize.registry import get_config, get_lexicons
from pytest_asrbench.normalize.steps.digit_scripts import script_zeros
from pytest_asrbench.normalize.steps.registry import STEPS

LANGUAGES = ("de", "nl", "fr", "es", "it")

#: The zero of every decimal digit script (Unicode ``Nd``) that ``re``'s ``\d`` matches, ASCII included.
ZEROS = [chr(code) for code in range(sys.maxunicode + 1)
         if unicodedata.decimal(chr(code), None) == 0 and unicodedata.category(chr(code)) == "Nd"]


def test_the_step_knows_every_digit_script_of_the_code_space():
    assert script_zeros() == tuple(ZEROS)


def _amounts(language: str):
    return STEPS["amounts"].build(get_config(language), get_lexicons(language))


def _in_script(text: str, zero: str) -> str:
    """``text`` with its ASCII digits written in the script whose zero is ``zero``."""
    return text.translate({ord("0") + value: ord(zero) + value for value in range(10)})


def _digits(text: str) -> list[str]:
    return [char for char in text if unicodedata.decimal(char, None) is not None]


def _money_and_percent_texts(language: str) -> list[str]:
    """Amounts the money, cents, percent and decimal-word rules read (their number patterns are
    ``\\d`` of any script), in ASCII digits, built from the language's own words."""
    table = get_config(language).options["amounts"]
    decimal = get_config(language).decimal_separator
    texts = []
    for name in table["currencies"]:
        for number in ("12", f"12{decimal}5", f"0{decimal}05", f"12{decimal}00", "7"):
            texts += [f"{number} {name}", f"{number}{name}", f"{name} {number}"]
        for joiner in ("", *(f"{word} " for word in table.get("cents_joiners", []))):
            texts += [f"12 {name} {joiner}5", f"12 {name} {joiner}50"]
            texts += [f"12 {name} {joiner}50 {cent}" for cent in table.get("cents", [])]
    for cent in table.get("cents", []):
        texts += [f"50 {cent}", f"5 {cent}", f"0 {cent}", f"bis 5 {cent} heute"]
    for word in (*table.get("percent", []), "%"):
        texts += [f"25 {word}", f"25{word}", f"2{decimal}5 {word}"]
    texts += [f"2 {word} 5" for word in table.get("decimal_words", [])]
    return texts


def _time_texts(language: str) -> list[str]:
    """Times the time rules read, in ASCII digits (single-digit and two-digit hours)."""
    table = get_config(language).options["amounts"]
    texts = []
    for hour in ("8", "08", "14"):
        for word in table.get("hour_words", []):
            texts += [f"{hour} {word} 30", f"{hour}:30 {word}", f"{hour} 30 {word}", f"{hour}{word}", f"{hour}{word}30"]
        texts += [f"{hour} {word}" for word in table.get("clock_words", [])]
        for cue in table.get("time_cues", []):
            texts += [f"{cue} {hour}", f"{cue} {hour} 30"]
            texts += [f"{cue} {hour} {joiner} 30" for joiner in table.get("minute_joiners", [])]
    return texts


PINNED = {
    "de": [("๑,๕ euro", "๑,๕๐€"), ("๑๒ euro ๕", "๑๒,๐๕€"), ("€ ๑,๕", "๑,๕๐€"), ("๕๐ cent", "๐,๕๐€"),
           ("๘ uhr", "๘:๐๐"), ("๐๘ uhr ๓๐", "๘:๓๐"), ("๑๔ uhr ๓๐", "๑๔:๓๐"), ("๓. maerz", "๓ maerz"), ("3. maerz", "3 maerz"), ("१२,५ €", "१२,५०€"), ("๒๕ prozent", "๒๕%"),
           ("12 euro ๕๐", "12€ ๕๐"), ("1๕ %", "1๕ %")],
    "nl": [("๑,๕ euro", "๑,๕๐€"), ("๑๒ euro en ๕ cent", "๑๒,๐๕€"), ("๕๐ cent", "๐,๕๐€"),
           ("om ๘", "om ๘:๐๐"), ("١٢,٥ euro", "١٢,٥٠€"), ("12 euro ๕๐", "12€ ๕๐")],
    "fr": [("๑,๕ euros", "๑,๕๐€"), ("๕๐ centimes", "๐,๕๐€"), ("๘ h", "๘:๐๐"), ("๘h", "๘:๐๐"),
           ("à ๘ heures", "à ๘:๐๐"), ("१२ euros ५", "१२,०५€"), ("12 euros ๕๐", "12€ ๕๐")],
    "es": [("๑,๕ euros", "๑,๕๐€"), ("๕๐ céntimos", "๐,๕๐€"), ("a las ๘", "a las ๘:๐๐"),
           ("๘ h", "๘:๐๐"), ("๑๒ euros con ๕", "๑๒,๐๕€"), ("12 euros ๕๐", "12€ ๕๐")],
    "it": [("๑,๕ euro", "๑,๕๐€"), ("๕๐ centesimi", "๐,๕๐€"), ("alle ๘", "alle ๘:๐๐"),
           ("๑๒ euro e ๕", "๑๒,๐๕€"), ("12 euro ๕๐", "12€ ๕๐")],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_amounts_write_the_digits_of_the_number_they_rewrite(language):
    step = _amounts(language)
    assert [(text, step(text)) for text, _ in PINNED[language]] == PINNED[language]


def test_a_money_amount_in_thai_digits_keeps_them_through_the_normalizer():
    assert get_normalizer("de")("Es kostet ๑,๕๐ Euro") == "es kostet ๑,๕๐€"
    assert get_normalizer("fr")("๑,๕ euros") == "๑,๕๐€"


@pytest.mark.parametrize("language", LANGUAGES)
def test_money_and_percent_in_any_digit_script_read_as_in_ascii_digits(language):
    step = _amounts(language)
    texts = _money_and_percent_texts(language)
    expected = [step(text) for text in texts]
    assert sum(out != text for out, text in zip(expected, texts)) > len(texts) // 2  # the rules fire
    differ = [(zero, text, step(_in_script(text, zero)), _in_script(out, zero))
              for zero in ZEROS for text, out in zip(texts, expected)
              if step(_in_script(text, zero)) != _in_script(out, zero)]
    assert len(ZEROS) > 50
    assert differ == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_times_in_any_digit_script_write_only_that_scripts_digits(language):
    step = _amounts(language)
    spliced = []
    for zero in ZEROS:
        for text in _time_texts(language):
            written = _in_script(text, zero)
            out = step(written)
            if any(ord(char) - unicodedata.decimal(char) != ord(zero) for char in _digits(out)):
                spliced.append((written, out))
    assert spliced == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_number_mixing_digit_scripts_is_left_as_written(language):
    step = _amounts(language)
    decimal = get_config(language).decimal_separator
    changed = []
    for zero in ZEROS[1:]:
        for text in _money_and_percent_texts(language) + _time_texts(language):
            for number in re.finditer(rf"\d+(?:{re.escape(decimal)}\d+)?|\d+:\d+", text):
                if number.end() - number.start() < 2:
                    continue
                # This number's first digit in ASCII, the rest in the other script.
                written = text[number.start()] + _in_script(number.group(0)[1:], zero)
                mixed = text[:number.start()] + written + text[number.end():]
                out = step(mixed)
                other = [char for char in _digits(out) if char not in "0123456789"]
                if re.search(rf"(?<!\d){re.escape(written)}(?!\d)", out) is None or other != [char for char in written if char not in "0123456789" + decimal + ":"] \
                        or step(out) != out:
                    changed.append((mixed, out))
    assert changed == []


SCALES = {"de": "millionen", "nl": "miljoen", "fr": "millions", "es": "millones", "it": "milioni"}


def _spoken_numbers(language: str):
    return STEPS["spoken_numbers"].build(get_config(language), get_lexicons(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_scale_after_digits_is_multiplied_in_their_script(language):
    step = _spoken_numbers(language)
    decimal = get_config(language).decimal_separator
    texts = [f"2 {SCALES[language]}", f"2{decimal}5 {SCALES[language]} euro", f"12 {SCALES[language]} und 3"]
    assert step(texts[0]) == "2000000"
    differ = [(zero, text) for zero in ZEROS for text in texts
              if step(_in_script(text, zero)) != _in_script(step(text), zero)]
    assert differ == []
    assert step(f"1๒ {SCALES[language]}").startswith("1๒ ")  # mixed: not multiplied


#: A clock-fraction phrase of each language around the hour 3 (12 for the wrap), in ASCII digits.
CLOCK_FRACTIONS = {
    "de": [("halb 3", "2:30"), ("viertel nach 12", "12:15"), ("halb 1", "12:30")],
    "nl": [("kwart voor 3", "2:45"), ("half 12", "11:30")],
    "fr": [("3 heures et demie", "3:30")],
    "es": [("las 2 y media", "las 2:30")],
    "it": [("le 2 e mezza", "le 2:30")],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_clock_fractions_read_the_hour_in_any_digit_script_and_write_the_time_in_it(language):
    step = STEPS["clock_fractions"].build(get_config(language), get_lexicons(language))
    assert [(text, step(text)) for text, _ in CLOCK_FRACTIONS[language]] == CLOCK_FRACTIONS[language]
    differ = [(zero, text, step(_in_script(text, zero)), _in_script(out, zero))
              for zero in ZEROS for text, out in CLOCK_FRACTIONS[language]
              if step(_in_script(text, zero)) != _in_script(out, zero)]
    assert differ == []


def test_a_clock_fraction_hour_mixing_digit_scripts_is_left_as_written():
    step = STEPS["clock_fractions"].build(get_config("de"), get_lexicons("de"))
    assert step("halb 1๒") == "halb 1๒"
    assert step("halb ๓") == "๒:๓๐" and step("halb १२") == "११:३०"
