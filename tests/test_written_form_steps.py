"""The steps that give one written form to fractions, code-context runs and abbreviations
(fractions, code_context_runs, abbreviated_titles' before_numbers and words), each built
alone from an option table; the language cases are cases/<tag>/written_forms.yaml."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.normalize.steps import STEPS


def build(name: str, options: dict | None = None, **fields):
    config = LanguageConfig(language="xx", version="1.0.0", unit="word", steps=[name],
                            options={name: options} if options else {}, **fields)
    return STEPS[name].build(config, {})


class TestFractions:
    OPTIONS = {"denominators": {"viertel": 4, "fünftel": 5}, "ordinal_marks": ["ème", "èmes"], "one_words": ["ein"]}

    def test_denominator_words_and_ordinals_become_two_numbers(self):
        fraction = build("fractions", self.OPTIONS)
        assert fraction("3 viertel") == "3 4"
        assert fraction("ein viertel liter") == "1 4 liter"
        assert fraction("3 5èmes") == "3 5"
        assert fraction("1 10ème") == "1 10"

    def test_a_rank_and_a_number_list_are_no_fraction(self):
        fraction = build("fractions", self.OPTIONS)
        assert fraction("le 2ème jour") == "le 2ème jour"  # no numerator
        assert fraction("3 2ème") == "3 2ème"  # an ordinal below 3 is a rank
        assert fraction("06 12 3ème") == "06 12 3ème"  # a digit before the numerator

    def test_denominator_words_are_folded_like_the_text(self):
        fraction = build("fractions", self.OPTIONS, char_folds={"ü": "ue"})
        assert fraction("2 fuenftel") == "2 5"

    def test_output_is_a_fixed_point(self):
        fraction = build("fractions", self.OPTIONS)
        once = fraction("3 viertel und ein viertel")
        assert once == "3 4 und 1 4" and fraction(once) == once

    def test_a_denominator_below_two_is_refused(self):
        with pytest.raises(ValidationError, match="2 or more"):
            build("fractions", {"denominators": {"ganzes": 1}})


class TestCodeContextRuns:
    OPTIONS = {"code_words": ["code", "numéro"], "code_suffixes": ["nummer"]}

    def test_runs_after_a_code_word_are_joined(self):
        join = build("code_context_runs", self.OPTIONS)
        assert join("mon code est F L") == "mon code est FL"
        assert join("le code 1 2 3") == "le code 123"
        assert join("Kundennummer 089 1 2") == "Kundennummer 08912"
        assert join("Numéro A 4") == "Numéro A4"

    def test_nothing_changes_outside_a_code_context(self):
        join = build("code_context_runs", self.OPTIONS)
        assert join("j'ai compté 1 2 3") == "j'ai compté 1 2 3"
        assert join("F L") == "F L"
        assert join("le code est bon mais 1 2 3 4 5") == "le code est bon mais 1 2 3 4 5"  # too far
        assert join("Nummer 1 2") == "Nummer 1 2"  # a suffix alone is no code word (list it in code_words)

    def test_without_code_words_the_step_does_nothing(self):
        assert build("code_context_runs")("code 1 2 3") == "code 1 2 3"


class TestAbbreviations:
    OPTIONS = {"before_numbers": {"Nr.": "Nummer"}, "words": {"z. B.": "zum Beispiel", "usw.": "und so weiter"}}

    def test_before_numbers_only_before_digits(self):
        expand = build("abbreviated_titles", self.OPTIONS)
        assert expand("Nr. 5") == "Nummer 5"
        assert expand("die Nr. ist falsch") == "die Nr. ist falsch"

    def test_words_with_or_without_spaces_and_capitalised(self):
        expand = build("abbreviated_titles", self.OPTIONS)
        assert expand("z. B. heute") == "zum Beispiel heute"
        assert expand("z.B. heute") == "zum Beispiel heute"
        assert expand("Z. B. heute") == "zum Beispiel heute"
        assert expand("Äpfel usw.") == "Äpfel und so weiter"
        assert expand("USW ist ein Name") == "USW ist ein Name"

    def test_an_abbreviation_without_a_period_is_refused(self):
        with pytest.raises(ValidationError, match="no period"):
            build("abbreviated_titles", {"words": {"usw": "und so weiter"}})
