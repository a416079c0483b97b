"""Every written-form class has at least ten cases per language, and at least 80% of them pass
(``scripts/written_form_classes.py`` counts them; a case passes when it has no ``xfail``): the
European languages and Hindi, the number classes of Mandarin, Japanese and Korean, Thai digits
and number words."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "written_form_classes.py"


@pytest.fixture(scope="module")
def classes():
    spec = importlib.util.spec_from_file_location("written_form_classes", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_class_has_ten_cases_and_80_percent_pass_in_each_language(classes):
    counts = classes.class_counts()
    assert {language for language, _ in counts} == set(classes.LANGUAGES)
    assert classes.shortfalls(counts) == [], classes.table(counts)


def test_a_case_belongs_to_its_files_class_else_its_ids_first_word(classes):
    assert classes.case_class("fractions", "two-thirds") == "fractions"
    assert classes.case_class("written_forms", "phones-durchwahl") == "phones"
    assert classes.case_class("written_forms", "ordinal-date") == "ordinals"
    assert classes.case_class("words", "compound-split") is None


def test_mandarin_japanese_and_korean_are_held_to_the_number_classes_and_thai_to_its_digits(classes):
    numbers = ("cardinals", "decimals", "fractions", "dates", "times", "money", "units", "ordinals")
    assert classes.classes_of("ko") == numbers
    assert classes.classes_of("ja") == numbers
    assert classes.classes_of("zh") == (*numbers, "script")
    assert classes.classes_of("th") == ("thai_numbers",)
    assert "script" not in classes.classes_of("en") and "spelling" in classes.classes_of("en")


def test_a_case_is_named_by_the_words_of_its_own_languages_classes(classes):
    assert classes.case_class("amounts", "won-thousands", "ko") == "money"
    assert classes.case_class("amounts", "percent-fifteen", "ko") == "fractions"
    assert classes.case_class("numbers", "year-digit-by-digit", "zh") == "dates"
    assert classes.case_class("script", "thanks", "zh") == "script"
    assert classes.case_class("script", "fullwidth-digits", "ja") is None  # ja has no script class
    assert classes.case_class("normalizer", "thai-digits", "th") == "thai_numbers"
    assert classes.case_class("money_time", "percent-off", "en") is None  # en's percentages are no class


def test_a_class_below_the_rule_is_named_with_its_counts(classes):
    counts = {("de", "money"): (9, 9), ("nl", "times"): (10, 7), ("fr", "phones"): (10, 8)}
    assert classes.shortfalls(counts) == ["de money: 9 cases, fewer than 10; write more",
                                          "nl times: 7/10 pass, under 80%"]
