"""The Korean number rules: numeral values, the step's tables, and what stays a word."""

from __future__ import annotations

import pytest

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.languages.ko.numbers import KoreanNumberTables
from pytest_asrbench.normalize.languages.ko.numerals import digit_string, native_value, sino_value, trailing_place
from pytest_asrbench.normalize.registry import get_lexicons, get_normalizer


@pytest.mark.parametrize(("word", "value"), [
    ("이십오", 25), ("만", 10_000), ("삼천오백", 3_500), ("1만", 10_000), ("2천", 2_000), ("일천", 1_000),
    ("2억3천만", 230_000_000), ("십이", 12), ("백", 100), ("이조", 2 * 10**12), ("120만", 1_200_000),
])
def test_sino_values(word, value):
    assert sino_value(word) == value


@pytest.mark.parametrize("word", ["오일", "천천", "이삼", "조", "조원", "", "12", "하나", "십십"])
def test_not_sino_numerals(word):
    assert sino_value(word) is None


@pytest.mark.parametrize(("word", "value"), [("한", 1), ("열두", 12), ("스무", 20), ("서른다섯", 35), ("아흔아홉", 99)])
def test_native_values(word, value):
    assert native_value(word) == value


@pytest.mark.parametrize("word", ["하나", "열열", "", "둘"])
def test_not_native_numerals(word):
    assert native_value(word) is None


def test_digit_strings_and_places():
    assert digit_string("공일공") == "010"
    assert digit_string("이십") is None
    assert [trailing_place(v) for v in (12_000, 25, 0, 100)] == [1_000, 1, 1, 100]


def _lexicons(**changes):
    lexicons = {name: dict(table) for name, table in get_lexicons("ko").items()}
    for name, table in changes.items():
        lexicons[name] = table
    return lexicons


def test_an_unknown_counter_kind_is_an_error_naming_the_kinds():
    with pytest.raises(ConfigError, match="'월' has kind 'korean'; use one of sino, native, both"):
        KoreanNumberTables.from_lexicons(_lexicons(counters={"월": "korean"}))


def test_an_irregular_number_needs_digits_and_a_listed_counter():
    with pytest.raises(ConfigError, match="write digits and a counter"):
        KoreanNumberTables.from_lexicons(_lexicons(irregular_numbers={"유월": "six"}))


def test_a_missing_lexicon_names_the_line_to_add():
    lexicons = _lexicons()
    del lexicons["particles"]
    with pytest.raises(ConfigError, match='particles = "<lang>/particles.tsv"'):
        KoreanNumberTables.from_lexicons(lexicons)


@pytest.mark.parametrize(("text", "expected"), [
    ("삼월 이십오일", "3월 25일"), ("만 이천 원", "12000원"), ("1만 2000원", "12000원"), ("세 명이요", "3명이요"),
    ("유월 십일", "6월 10일"), ("십일 명", "11명"), ("두 번째", "2번째"), ("3 명이", "3명이"),
    ("공일공 일이삼사 오육칠팔입니다", "010 1234 5678입니다"), ("오 분만", "5분만"),
])
def test_numbers_in_context(text, expected):
    assert get_normalizer("ko")(text) == expected


@pytest.mark.parametrize("text", [
    "천민수", "백지수", "만나서 반갑습니다", "인터넷", "네 개인정보", "두 분", "이 분", "이 시", "한 일", "오세요",
    "사장이", "이삼일", "천사", "이천에", "삼 사", "하나 둘 셋",
])
def test_words_that_stay(text):
    assert get_normalizer("ko")(text) == text


def test_the_step_is_idempotent_on_its_output():
    normalize = get_normalizer("ko")
    for text in ["삼월 이십오일", "만 이천 원입니다", "공일공 일이삼사", "열두 시 삼십 분", "1만 2천"]:
        once = normalize(text)
        assert normalize(once) == once


@pytest.mark.parametrize(("text", "expected"), [
    (" 음  삼십 \t 분에  ", "30분에"),                 # spaces of every kind, a filler, a counter
    ("오후\u00a0세 시 반에 ", "오후 3시 30분에"),       # korean_amounts writes one inner space
    ("  일이삼사   오육칠팔 ", "1234 5678"),
    ("안녕  하세요", "안녕 하세요"),                    # no number at all
    ("음", ""),
])
def test_korean_output_has_single_spaces_without_a_collapse_step(text, expected):
    normalize = get_normalizer("ko")
    assert "collapse_whitespace" not in [step.name for step in normalize.steps]
    assert normalize(text) == expected


@pytest.mark.parametrize("text", ["삼월 이십오일에", "공일공 일이삼사", "이삼일 걸려요", "세 시"])
def test_spoken_amounts_trigger_skips_words_it_cannot_change(text):
    from pytest_asrbench.normalize.pipeline import trigger_of

    (step,) = [step for step in get_normalizer("ko").steps if step.name == "korean_spoken_amounts"]
    assert trigger_of(step.function).search(text) is None
    assert step.function(text) == text


@pytest.mark.parametrize(("text", "expected"), [("이백오십", "250"), ("참가자는 삼천사백 명", "참가자는 3400 명"),
                                                ("이 점 칠", "2.7"), ("삼 분의 일", "1/3")])
def test_spoken_amounts_trigger_finds_what_it_changes(text, expected):
    from pytest_asrbench.normalize.pipeline import trigger_of

    (step,) = [step for step in get_normalizer("ko").steps if step.name == "korean_spoken_amounts"]
    assert trigger_of(step.function).search(text) is not None
    assert step.function(text) == expected
