"""Every written-form class has at least ten cases per language, and at least 80% of them pass
(``scripts/written_form_classes.py`` counts them; a case passes when it has no ``xfail``)."""

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


def test_a_class_below_the_rule_is_named_with_its_counts(classes):
    counts = {("de", "money"): (9, 9), ("nl", "times"): (10, 7), ("fr", "phones"): (10, 8)}
    assert classes.shortfalls(counts) == ["de money: 9 cases, fewer than 10; write more",
                                          "nl times: 7/10 pass, under 80%"]
