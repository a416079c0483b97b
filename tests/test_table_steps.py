"""The generic table-driven steps: money, units, spelled codes, spoken emails,
phone numbers, and their errors on bad data. Each step is built from a minimal config, so
these tests pin the step itself; the language behaviour is in cases/en and cases/hi."""

from __future__ import annotations

import pydantic
import pytest

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.normalize.registry import get_config, get_lexicons
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.phrases import PhraseTable, folded_tokens


def build(name: str, lexicons=None, options=None, **fields):
    config = LanguageConfig(language="xx", version="0", unit="word", steps=[name],
                            options={name: options} if options else {}, **fields)
    return STEPS[name].build(config, lexicons or {})


CURRENCIES = {"$": "$", "USD": "$", "dollars": "$", "dollar": "$", "£": "£", "pounds": "£"}
MINOR = {"cents": "$", "pence": "£"}


@pytest.mark.parametrize(("text", "expected"), [
    ("5 dollars", "$5"),
    ("$ 5", "$5"),
    ("5$", "$5"),
    ("USD 5", "$5"),
    ("5 USD", "$5"),
    ("dollars 5", "dollars 5"),  # a spoken (lowercase) name stands after the amount only
    ("5 dollars and 20 cents", "$5.20"),
    ("20 pounds 50", "£20.50"),
    ("20 pounds 50 cents", "£20 $0.50"),  # cents are not a hundredth of a pound
    ("50 pence", "£0.50"),
    ("$ 5 dollars", "$ $5"),  # one mark per amount: the one after it
    ("1 55 dollars", "1 $55"),  # hundreds pairs are off by default
    ("no amount here", "no amount here"),
])
def test_money(text, expected):
    assert build("money", {"currencies": CURRENCIES, "currency_minor": MINOR})(text) == expected


def test_money_format_and_pairs():
    run = build("money", {"currencies": CURRENCIES, "currency_minor": MINOR},
                {"format": "{amount} {mark}", "hundreds_pairs": True})
    assert run("1 55 dollars") == "155 $"
    assert run("5 dollars") == "5 $"
    assert run(run("5 dollars")) == "5 $"


def test_money_needs_its_lexicons():
    with pytest.raises(ConfigError, match="needs the lexicon 'currencies'"):
        build("money", {"currency_minor": MINOR})


def test_phrase_keys_that_fold_together_must_agree():
    fold = make_fold({"\u093c": ""})
    with pytest.raises(ConfigError, match="fold to the same word"):
        PhraseTable({"रुपय़े": "A", "रुपये": "B"}, fold, "hi currencies lexicon")


def test_phrase_table_longest_match():
    table = PhraseTable({"francs": "F", "swiss francs": "CHF"}, lambda text: text, "test")
    assert table.match(["5", "swiss", "francs"], 1) == (("swiss", "francs"), 2)
    assert table.match(["5", "francs"], 1) == (("francs",), 1)
    assert table.match(["5", "euros"], 1) is None


def test_folded_tokens_keeps_alignment_when_a_fold_makes_a_space():
    fold = make_fold({"°": " degrees "})
    assert folded_tokens("25° C", ["25°", "C"], fold) == ["25 degrees ", "c"]


UNITS = {"mm": "millimeters", "millimetres": "millimeters", "degrees c": "degrees celsius", "%": "percent"}


@pytest.mark.parametrize(("text", "expected"), [
    ("10 mm", "10 millimeters"),
    ("10mm", "10 millimeters"),
    ("ten mm", "ten millimeters"),  # "ten" is in number_words
    ("mm okay", "mm okay"),  # no number before it
    ("25 degrees C", "25 degrees celsius"),
    ("25%", "25 percent"),
    ("A4 paper", "A4 paper"),
])
def test_units(text, expected):
    assert build("units", {"units": UNITS}, {"number_words": ["ten"]})(text) == expected


def test_units_read_the_numbers_lexicon():
    run = build("units", {"units": UNITS, "numbers": {"दस": "10"}})
    assert run("दस mm") == "दस millimeters"


DIGITS = {"one": "1", "two": "2", "three": "3", "seven": "7", "nine": "9"}


@pytest.mark.parametrize(("text", "expected"), [
    ("A B C seven seven nine", "ABC779"),
    ("F L", "FL"),
    ("f l", "f l"),
    ("one two three", "123"),
    ("one two", "one two"),
    ("a b 1", "a b1"),  # lowercase "a" is the article, not a letter
    ("C one hundred", "C one hundred"),  # not_before: "one" starts the number
    ("1 " * 16 + "1", "1 " * 16 + "1"),  # longer than max_items: a repetition
])
def test_spelled_codes(text, expected):
    run = build("spelled_codes", options={"digit_words": DIGITS, "not_before": ["hundred"]})
    assert run(text) == expected


def test_spelled_codes_min_digits_is_validated():
    with pytest.raises(pydantic.ValidationError, match="min_digits"):
        build("spelled_codes", options={"min_digits": 1})


@pytest.mark.parametrize(("text", "expected"), [
    ("john at gmail dot com", "john@gmail.com"),
    ("john dot smith at mail dot co dot uk", "john.smith@mail.co.uk"),
    ("google dot com", "google.com"),
    ("john at gmail.com", "john@gmail.com"),
    ("meet me at the station", "meet me at the station"),
    ("dot the i", "dot the i"),
    ("the dot com bubble", "the dot com bubble"),
    ("john at gmail dot xyz", "john at gmail dot xyz"),  # not a listed top-level domain
])
def test_spoken_emails(text, expected):
    assert build("spoken_emails", options={"ordinary_words": ["the"]})(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("555 010 4477", "5550104477"),
    ("555-010-4477", "5550104477"),
    ("555.010.4477", "5550104477"),
    ("555-1234", "5551234"),
    ("55-010-4477", "55-010-4477"),
    ("5555 010 4477", "5555 010 4477"),
    ("3.5 010 4477", "3.5 010 4477"),
])
def test_phone_numbers(text, expected):
    assert build("phone_numbers", options={"groupings": ["3-3-4", "3-4"]})(text) == expected


@pytest.mark.parametrize("grouping", ["3", "3-x-4", "3--4", "0-3"])
def test_phone_groupings_are_validated(grouping):
    with pytest.raises(pydantic.ValidationError, match="group sizes"):
        build("phone_numbers", options={"groupings": [grouping]})


def test_hindi_fraction_values_are_validated():
    config = get_config("hi")
    lexicons = {**get_lexicons("hi"), "number_fractions": {"डेढ़": "one and a half"}}
    with pytest.raises(ConfigError, match="expected a number such as 1.5"):
        STEPS["hindi_numbers"].build(config, lexicons)
