"""Unit tests of the English normalizer: each step alone (exact outputs), then the whole en pipeline.

Step functions are built from a minimal config so that a test shows what one step does;
the pipeline tests pin the full normalized form of reviewer-style sentences.
"""

from __future__ import annotations

import pytest

from pytest_asrbench.normalize import explain, get_normalizer, normalize_text
from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.normalize.registry import get_config, get_lexicons
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.languages.en.numbers import ordinal, trie_pattern


def build(name: str, **fields):
    """One step built from a minimal config (plus ``fields``) and the English lexicons."""
    config = LanguageConfig(language="xx", version="0", unit="word", steps=[name], **fields)
    return STEPS[name].build(config, get_lexicons("en"))


def en_step(name: str):
    return STEPS[name].build(get_config("en"), get_lexicons("en"))


# --- single steps -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[laughter] yes (inaudible) no <noise> {cough}", "  yes   no    "),
        ("call (555) 123", "call (555) 123"),
        ("an (aside here)", "an  "),
        ("unmatched [ bracket", "unmatched [ bracket"),
    ],
)
def test_brackets(text, expected):
    assert build("brackets")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm here", "i am here"),
        ("I won't", "I will not"),
        ("CAN'T", "can not"),
        ("they didn't", "they did not"),
        ("we'd've gone", "we would have gone"),
        ("you're, we've, she'll", "you are, we have, she will"),
        ("John's car", "John's car"),
        ("it's", "it is"),
        ("ain't", "ain't"),
        ("gonna go", "going to go"),
        ("no apostrophe here", "no apostrophe here"),
    ],
)
def test_contractions(text, expected):
    assert en_step("contractions")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dr Smith", "doctor Smith"),
        ("dr smith", "doctor smith"),
        ("Mrs Will", "missus Will"),
        ("Elm Dr is closed", "Elm Dr is closed"),
        ("the Dr", "the Dr"),
        ("Dr 5", "Dr 5"),
        ("Drew Smith", "Drew Smith"),
    ],
)
def test_titles(text, expected):
    assert en_step("titles")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("well-known", "well known"),
        ("5-year-old", "5 year old"),
        ("ABC-123", "ABC 123"),
        ("555-1234", "555-1234"),
        ("1995-04-18", "1995-04-18"),
        ("no hyphen", "no hyphen"),
    ],
)
def test_split_hyphens(text, expected):
    assert build("split_hyphens")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("U.S.A. team", "USA team"), ("7 p.m.", "7 pm"), ("e.g. this", "eg this"), ("Dr. Smith", "Dr. Smith")],
)
def test_dotted_abbreviations(text, expected):
    assert build("dotted_abbreviations")(text) == expected


def test_fillers_any_case_removes_whole_words_only():
    step = build("fillers_any_case", fillers=["um", "uh"])
    assert step("Um so UH we um went") == "so we went"
    assert step("umbrella uhura") == "umbrella uhura"


def test_spelling_whole_words_and_possessive():
    step = en_step("spelling")
    assert step("the colour of my neighbour's favourite centre") == "the color of my neighbor's favorite center"
    assert step("colourway") == "colourway"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty five", "25"),
        ("one hundred and one", "101"),
        ("twenty first", "21st"),
        ("a hundred dollars", "100 dollars"),
        ("$5 million", "$5000000"),
        ("two point five million", "2500000"),
        ("hundreds of them", "hundreds of them"),
        ("no one", "no 1"),
        ("someone often", "someone often"),
    ],
)
def test_number_words(text, expected):
    assert build("number_words")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 oh 1", "101"),
        ("1 01", "101"),
        ("oh 5 oh", "oh 5 oh"),
        ("at 7 30", "at 7:30"),
        ("7 30 pm", "7:30 pm"),
        ("7 30", "7 30"),  # no time word: not read as a time (room 2 50, a Boeing 7 47)
        ("room 2 50", "room 2 50"),
        ("half past 7", "7:30"),
        ("a quarter past 10", "10:15"),
        ("quarter to 1", "12:45"),
        ("half to 7", "half to 7"),
        ("19 99", "1999"),
        ("50 50", "50 50"),
        ("7 o'clock", "7:00"),
        ("7:00 pm", "7 pm"),
        ("7pm", "7 pm"),
        ("7 oh 5 pm", "7:05 pm"),
        ("3 point 5", "3.5"),
        ("2 and a half", "2.5"),
        ("25 percent", "25%"),
        ("25 %", "25%"),
        ("May 1", "May 1st"),
        ("march 22", "march 22nd"),
        ("no digits at all", "no digits at all"),
    ],
)
def test_number_formats(text, expected):
    assert build("number_formats")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5 dollars", "$5"),
        ("5 dollars and 20 cents", "$5.20"),
        ("$5 and 5 cents", "$5.05"),
        ("$ 5.00", "$5"),
        ("10 euros", "€10"),
        ("10 €", "€10"),
        ("20 pounds 50", "£20.50"),
        ("20 pounds and 50 pence", "£20.50"),
        ("₩460000000000", "₩460000000000"),
        ("460000000000 won", "₩460000000000"),
        ("USD 5", "$5"),
        ("5 USD", "$5"),
        ("50 cents", "$0.50"),
        ("1 55 dollars", "$155"),
        ("12 50 dollars", "$1250"),
        ("2.5 dollars", "$2.50"),
        ("5 swiss francs", "CHF5"),
        ("dollars 5", "dollars 5"),  # a spoken name comes after the amount
        ("the dollar fell", "the dollar fell"),
        ("1 55", "1 55"),  # no currency: two numbers
    ],
)
def test_money(text, expected):
    assert en_step("money")(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the short scale through decillion (10**33)
        ("one trillion", "1000000000000"),
        ("two quadrillion", "2000000000000000"),
        ("one quintillion", "1000000000000000000"),
        ("three sextillion", "3000000000000000000000"),
        ("one septillion", "1000000000000000000000000"),
        ("one octillion", "1000000000000000000000000000"),
        ("one nonillion", "1000000000000000000000000000000"),
        ("five decillion", "5000000000000000000000000000000000"),
        ("twenty five trillion three billion four hundred and two", "25003000000402"),
        ("one trillion and five", "1000000000005"),
        ("two point five trillion", "2500000000000"),
        ("a quintillion stars", "1000000000000000000 stars"),
        ("5 trillion", "5000000000000"),
        ("1.5 quadrillion", "1500000000000000"),
        ("one billion twenty five millions", "1025000000"),
        ("trillions of stars", "trillions of stars"),
        # a scale of a thousand or more that does not decrease starts a new number
        ("one thousand million", "1000 1000000"),
        ("one million billion trillion", "1000000 1000000000 1000000000000"),
        ("one thousand thousand", "1000 1000"),
        ("one thousand two thousand", "1000 2000"),
        ("five thousand two hundred million", "5000 200000000"),
        ("one hundred thousand million", "100000 1000000"),
        ("5 thousand million", "5000 1000000"),
        ("one trillion quintillion", "1000000000000 1000000000000000000"),
        # decreasing scales stay one number; hundred multiplies within a group
        ("two hundred thousand", "200000"),
        ("one million and two thousand", "1002000"),
        ("one quintillion two trillion", "1000002000000000000"),
    ],
)
def test_number_words_short_scale_and_scales_that_do_not_decrease(text, expected):
    assert en_step("number_words")(text) == expected


@pytest.mark.parametrize(("number", "expected"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (11, "11th"), (12, "12th"), (21, "21st"), (112, "112th")])
def test_ordinal(number, expected):
    assert ordinal(number) == expected


def test_trie_pattern_matches_the_same_words():
    import re

    words = ["one", "on", "only", "two", "ten", "tenth"]
    pattern = re.compile(f"(?:{trie_pattern(words)})$")
    assert all(pattern.match(word) for word in words)
    assert not pattern.match("o") and not pattern.match("onl")


# --- spoken symbols (generic) -------------------------------------------------------------

SYMBOLS = {"dash": "-", "underscore": "_", "slash": "/", "forward slash": "/"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A B C dash 1 2 3", "ABC-123"),
        ("mag underscore mutual", "mag_mutual"),
        ("unit 12 slash B", "unit 12/B"),
        ("HR slash payroll", "HR/payroll"),
        ("the slash key", "the slash key"),
        ("a slash and", "a slash and"),
        ("x forward slash y", "x/y"),
        ("A B C slash um 1", "ABC/1"),
        ("dash at start", "dash at start"),
        ("ends with dash", "ends with dash"),
        ("x dash dash y", "x dash dash y"),
        ("$5 slash month", "$5 slash month"),
        ("it is a B dash 7", "it is a B-7"),
    ],
)
def test_spoken_symbols(text, expected):
    step = build("spoken_symbols", options={"spoken_symbols": {"symbols": SYMBOLS, "code_only": ["slash", "forward slash"]}},
                 fillers=["um"])
    assert step(text) == expected


def test_generic_steps_do_nothing_without_their_fields():
    text = "A B C dash 1 2 3, um, the slash key"
    assert build("spoken_symbols")(text) == text
    assert build("fillers_any_case")(text) == text


# --- the whole English pipeline -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I’m booking a table for two at seven thirty p.m.", "i am booking a table for 2 at 7:30 pm"),
        ("My order is A B C dash one two three, um, thanks!", "my order is abc 123 thanks"),
        ("It's $1,250.00 — that's twenty five percent off.", "it is $1250 that is 25% off"),
        ("[laughter] Dr. Smith's colour\u00a0chart", "doctor smith's color chart"),
        ("born in nineteen ninety nine\tin\u200bMay", "born in 1999 in may"),
    ],
)
def test_english_pipeline(text, expected):
    assert normalize_text(text, "en") == expected


def test_explain_names_the_english_steps():
    names = [name for name, _ in explain("At seven thirty", "en")]
    assert names[0] == "input"
    for name in ("brackets", "contractions", "number_words", "number_formats", "spoken_symbols", "spelling"):
        assert name in names
    assert explain("At seven thirty", "en")[-1][1] == "at 7:30"


def test_english_lexicons_load():
    lexicons = get_lexicons("en")
    assert len(lexicons["spelling"]) >= 300
    assert lexicons["contractions"]["won't"] == "will not"
    assert lexicons["titles"]["dr"] == "doctor"
    assert get_normalizer("en") is get_normalizer("en-GB")
