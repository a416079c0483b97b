"""The steps behind the style-guide forms of de, nl, fr, es, it (cases/<tag>/style_guide_forms.yaml):
``number_ranges`` and ``numeric_dates`` (steps/numeric_forms.py) alone, the ``amounts`` rules for
per mille and for a currency name before a number, the ``units`` lexicons' degrees and square
and cubic metres, and the errors of a malformed date table (``roman_numerals``:
tests/test_roman_numerals.py).

The cases pin the shipped configs end to end; these tests pin each step on its own input and
the edges of each rule (what must stay as written).
"""

from __future__ import annotations

import pytest

from pytest_asrbench import normalize_text
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.registry import get_config, get_lexicons
from pytest_asrbench.normalize.steps import STEPS


def _step(name: str, language: str, **options):
    config = get_config(language)
    if options:
        config = config.model_copy(update={"options": {**config.options, name: options}})
    return STEPS[name].build(config, {})


@pytest.mark.parametrize(("text", "expected"), [
    ("10–12 Tage", "10-12 Tage"),             # U+2013 between digits
    ("10‒12", "10-12"),                        # U+2012, the figure dash
    ("Berlin–Hamburg", "Berlin–Hamburg"),      # between words: sentence punctuation, left to punctuation
    ("10 – 12", "10 – 12"),                    # spaced: left as written
    ("A–3", "A–3"),
])
def test_number_ranges_writes_the_hyphen_only_between_two_digits(text, expected):
    assert _step("number_ranges", "de")(text) == expected


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("de", "am 3.10.2024", "am 3 oktober 2024"),
    ("de", "am 03.03.2024.", "am 3 maerz 2024."),           # the month folded as the text is (ä = ae); a sentence dot
    ("nl", "op 3-10-2024", "op 3 oktober 2024"),
    ("fr", "le 01/10/2024", "le 1 octobre 2024"),
    ("es", "el 03/10/2024", "el 3 de octubre de 2024"),
    ("it", "il 31/12/1999", "il 31 dicembre 1999"),
])
def test_numeric_dates_reads_day_month_year(language, text, expected):
    assert _step("numeric_dates", language)(text) == expected


@pytest.mark.parametrize("text", [
    "1.2.3", "Version 1.10.2024a", "14.30", "3.400", "3.10.", "32.10.2024", "3.13.2024", "3.10/2024",
    "3.10.24", "1.3.10.2024", "3.10.2024.5", "3,10.2024", "2024-10-03",
])
def test_numeric_dates_leaves_what_is_no_full_date(text):
    assert _step("numeric_dates", "de")(text) == text


def test_numeric_dates_refuses_a_month_list_of_another_length():
    with pytest.raises(ValueError, match="lists 11 names: list the twelve months"):
        _step("numeric_dates", "de", separators=".", months=["m"] * 11)


def test_numeric_dates_refuses_separators_without_months():
    config = get_config("de")
    config = config.model_copy(update={"options": {**config.options, "numeric_dates": {"separators": "."}}})
    with pytest.raises(ConfigError, match=r"numeric_dates\] of de: separators is set .* list the twelve"):
        STEPS["numeric_dates"].build(config, {})


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("de", "0,5 promille", "0,5‰"),
    ("de", "0,5‰", "0,5‰"),
    ("fr", "5 pour 1000", "5‰"),
    ("es", "5 por 1000", "5‰"),
    ("it", "5 per 1000", "5‰"),
    ("fr", "pour 1000 raisons", "pour 1000 raisons"),   # no number before it: "for a thousand"
    ("de", "25 prozent und 5 promille", "25% und 5‰"),
])
def test_amounts_reads_per_mille_like_percent(language, text, expected):
    assert _step("amounts", language)(text) == expected


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("fr", "livre 20 pages", "livre 20 pages"),          # a book, not 20 pounds
    ("fr", "livres 20", "livres 20"),
    ("fr", "20 livres", "20£"),                          # after the amount: money
    ("es", "libra 20", "libra 20"),
    ("it", "sterlina 3", "sterlina 3"),
    ("de", "euro 5", "euro 5"),
    ("de", "franken 20", "franken 20"),
    ("de", "chf 20", "20chf"),                           # a code stands before the amount
    ("de", "€ 12,50", "12,50€"),                         # a symbol too
    ("nl", "$5", "5$"),
])
def test_amounts_reads_a_spoken_currency_name_only_after_the_amount(language, text, expected):
    assert _step("amounts", language)(text) == expected


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("de", "20 grad celsius", "20 °c"),
    ("de", "20°c", "20 °c"),                              # glued: split, as 10mm is
    ("de", "20 grad und 30 quadratmeter", "20 ° und 30 m²"),
    ("de", "30 qm", "30 m²"),
    ("nl", "30 vierkante meter", "30 m²"),
    ("fr", "30 mètres carrés et 2 mètres cubes", "30 m² et 2 m³"),
    ("es", "20 grados celsius", "20 °c"),
    ("es", "30 metros cuadrados", "30 m²"),
    ("it", "30 mq", "30 m²"),
    ("it", "2 metri cubi", "2 m³"),
    ("de", "bis zu einem gewissen grad", "bis zu einem gewissen grad"),  # no number before it
    ("de", "30m²", "30m²"),                               # known limit: a unit with a digit (²) is not split
])
def test_units_write_degrees_and_square_and_cubic_metres_as_their_symbols(language, text, expected):
    step = STEPS["units"].build(get_config(language), get_lexicons(language))
    assert step(text) == expected


@pytest.mark.parametrize("language", ["de", "nl", "fr", "es", "it"])
def test_style_guide_forms_are_idempotent(language):
    for text in ["am 3.10.2024 10–12 CHF 20, 5 ‰ bei 20 °C auf 30 m²", "le 03/10/2024 livre 20 pages 2 m³ 20°"]:
        once = normalize_text(text, language)
        assert normalize_text(once, language) == once
