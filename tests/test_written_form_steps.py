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


class TestSpokenWebAddresses:
    OPTIONS = {"at_words": ["klammeraffe"], "dot_words": ["punkt"], "tlds": ["de", "com"],
               "ordinary_words": ["und", "der"], "colon_words": ["doppelpunkt", "2 punkte"],
               "slash_words": ["schrägstrich", "slash"]}

    def test_scheme_www_domain_and_path_become_one_address(self):
        emails = build("spoken_emails", self.OPTIONS)
        assert (emails("h t t p s Doppelpunkt Schrägstrich Schrägstrich w w w Punkt bahn Punkt de slash fahrplan")
                == "https www.bahn.de/fahrplan")
        assert emails("http 2 punkte slash slash beispiel punkt de") == "http beispiel.de"
        assert emails("w w w punkt beispiel punkt de") == "www.beispiel.de"
        assert emails("beispiel punkt de schrägstrich kontakt") == "beispiel.de/kontakt"

    def test_scheme_www_and_slash_words_without_a_domain_stay(self):
        emails = build("spoken_emails", self.OPTIONS)
        for text in ("h t t p s doppelpunkt slash slash", "w w w punkt", "w w w punkt beispiel",
                     "ein schrägstrich und ein punkt"):
            assert emails(text) == text
        # one slash word is no scheme: the domain alone is read
        assert (emails("h t t p s doppelpunkt slash beispiel punkt de")
                == "h t t p s doppelpunkt slash beispiel.de")

    def test_a_path_stops_at_an_ordinary_word(self):
        emails = build("spoken_emails", self.OPTIONS)
        assert emails("beispiel punkt de slash und weiter") == "beispiel.de slash und weiter"

    def test_without_colon_and_slash_words_only_www_is_read(self):
        emails = build("spoken_emails", {key: value for key, value in self.OPTIONS.items()
                                         if key not in ("colon_words", "slash_words")})
        assert emails("w w w punkt beispiel punkt de slash kontakt") == "www.beispiel.de slash kontakt"
        assert (emails("h t t p s doppelpunkt slash slash beispiel punkt de")
                == "h t t p s doppelpunkt slash slash beispiel.de")


class TestCurrencyPhrases:
    def test_a_currency_phrase_after_a_scale_is_the_currency(self):
        amounts = build("amounts", {"currencies": {"€": "€", "euros": "€", "de euros": "€", "d'euros": "€"}},
                        decimal_separator=",")
        assert amounts("2000000 de euros") == "2000000€"
        assert amounts("2000000 d'euros") == "2000000€"
        assert amounts("los euros de euros") == "los euros de euros"
        assert amounts("5 €") == "5€"


class TestScaleAfterADecimal:
    def test_a_decimal_before_a_scale_word_is_multiplied_not_glued(self):
        numbers = build("spoken_numbers", {"language": "nl", "scales": {"miljoen": 1000000}, "inner_words": ["komma"]},
                        decimal_separator=",")
        assert numbers("twee komma vijf miljoen") == "2500000"
        assert numbers("twee miljoen euro") == "2000000 euro"
        assert numbers("drie miljoen vijfhonderdduizend") == "3500000"
