"""The generic word steps the European configs use, each alone: hyphen_compounds (per
hyphen, number words, the open form), abbreviated_titles, spelled_code_runs, and the
fold-aware spoken_symbols and fillers_any_case. The reviewer examples are YAML cases under
cases/<lang>/; these pin the rules and the error messages."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.normalize.steps import STEPS


def build(name: str, options: dict | None = None, lexicons: dict | None = None, **fields):
    config = LanguageConfig(language="xx", version="1.0.0", unit="word", steps=[name],
                            options={name: options} if options else {}, **fields)
    return STEPS[name].build(config, lexicons or {})


UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}


class TestHyphenCompounds:
    def test_each_hyphen_is_decided_alone(self):
        join = build("hyphen_compounds")
        assert join("3-Zimmer-Wohnung") == "3-ZimmerWohnung"
        assert join("E-Mail-Adresse") == "EMailAdresse"
        assert join("HR-Team-Leitung") == "HR TeamLeitung"

    def test_number_words_from_options_glued_and_folded(self):
        join = build("hyphen_compounds", {"number_words": ["drei", "zwanzig", "fünf"], "number_joiners": ["und"]},
                     char_folds=UMLAUTS)
        assert join("zwei-vier") == "zweivier"  # neither is listed here
        assert join("dreiundzwanzig-jährig") == "dreiundzwanzig-jährig"
        assert join("fünf-Sterne") == "fünf-Sterne"
        assert join("fuenf-Sterne") == "fuenf-Sterne"  # after char_folds ran
        assert join("Drei-Zimmer") == "Drei-Zimmer"
        assert join("Dreier-Pack") == "DreierPack"  # not made of number words only

    def test_numbers_lexicon_still_counts(self):
        join = build("hyphen_compounds", lexicons={"numbers": {"दो": "2", "तीन": "3"}})
        assert join("दो-तीन") == "दो-तीन"
        assert join("बार-बार") == "बार-बार"
        assert join("ई-मेल") == "ईमेल"

    def test_open_form_and_always_closed(self):
        open_form = build("hyphen_compounds", {"form": "open", "always_closed": ["email", "weekend"]})
        assert open_form("peut-être") == "peut être"
        assert open_form("E-mail, week-end.") == "Email, weekend."
        assert open_form("bla-bla") == "bla-bla"  # a reduplication keeps its hyphen
        assert open_form("ABC-123") == "ABC-123"

    def test_unknown_form_is_an_error(self):
        with pytest.raises(ValidationError, match="closed"):
            build("hyphen_compounds", {"form": "half"})


class TestAbbreviatedTitles:
    OPTIONS = {"abbreviations": {"M.": "monsieur", "Mme": "madame", "St": "saint", "dhr.": "de heer", "mr.": "meester",
                                 "dr.": "doctor"},
               "name_particles": ["de", "van", "den"]}

    def test_only_as_written_and_before_a_capitalised_name(self):
        titles = build("abbreviated_titles", self.OPTIONS)
        assert titles("M. Dupont") == "monsieur Dupont"
        assert titles("M Dupont") == "M Dupont"
        assert titles("M 4 B") == "M 4 B"
        assert titles("M. dupont") == "M. dupont"
        assert titles("Mme Martin") == "madame Martin"
        assert titles("MME Martin") == "MME Martin"
        assert titles("ST 5 et St Jean") == "ST 5 et saint Jean"

    def test_sentence_start_particles_and_chained_titles(self):
        titles = build("abbreviated_titles", self.OPTIONS)
        assert titles("Dhr. Jansen") == "de heer Jansen"
        assert titles("dhr. van den Berg") == "de heer van den Berg"
        assert titles("dhr. van den") == "dhr. van den"
        assert titles("mr. dr. Visser") == "meester doctor Visser"
        assert titles("«M. Dupont»") == "«M. Dupont»"  # the title itself must be a word of its own

    def test_hyphenated_place_name(self):
        titles = build("abbreviated_titles", self.OPTIONS)
        assert titles("St-Laurent") == "saint-Laurent"
        assert titles("St-laurent") == "St-laurent"

    @pytest.mark.parametrize(("table", "message"), [
        ({"M. ": "monsieur"}, "one word"),
        ({"M.": " "}, "empty spoken form"),
    ])
    def test_bad_table_says_what_to_fix(self, table, message):
        with pytest.raises(ValidationError, match=message):
            build("abbreviated_titles", {"abbreviations": table})


class TestSpelledCodeRuns:
    @pytest.mark.parametrize(("text", "expected"), [
        ("Le code M 4 B", "Le code M4B"),
        ("(M 4 B).", "(M4B)."),
        ("A 1 B 2 C", "A1B2C"),
        ("F L", "F L"),  # letters only: the original requirements' "F L" vs "FL" stays open
        ("1 2 3", "1 2 3"),  # digits only: a list or a phone number in groups
        ("M, 4, B", "M, 4, B"),  # punctuation inside: a list
        ("il y a 3 m", "il y a 3 m"),  # lowercase letters are words
        ("A4 B", "A4 B"),
    ])
    def test_runs(self, text, expected):
        assert build("spelled_code_runs")(text) == expected


class TestFoldedTables:
    def test_spoken_symbol_names_match_folded_and_unfolded_text(self):
        symbols = build("spoken_symbols", {"symbols": {"Schrägstrich": "/", "trait d'union": "-"}},
                        char_folds={**UMLAUTS, "\u2019": "'"})
        assert symbols("X Schrägstrich 12") == "X/12"
        assert symbols("X Schraegstrich 12") == "X/12"
        assert symbols("A trait d’union 5") == "A-5"

    def test_code_only_name_needs_a_code_with_a_letter_or_two_codes(self):
        symbols = build("spoken_symbols", {"symbols": {"barra": "/", "guion": "-"}, "code_only": ["barra"]})
        assert symbols("X barra 12") == "X/12"
        assert symbols("HR barra nomina") == "HR/nomina"  # a code with letters on one side
        assert symbols("12 barra 5") == "12/5"
        assert symbols("1 barra de pan") == "1 barra de pan"  # a count, then a loaf of bread
        assert symbols("la barra 12") == "la barra 12"

    def test_fillers_next_to_punctuation_and_folded(self):
        fillers = build("fillers_any_case", fillers=["äh", "euh", "hm"], char_folds=UMLAUTS)
        assert fillers("Also, äh, ja") == "Also, , ja"
        assert fillers("Also aeh ja (euh)") == "Also ja ( )"
        assert fillers("l'euh hm-hm Ähm") == "l'euh hmhm Ähm"
        assert fillers("ja hm- nein") == "ja - nein"  # a cut-off filler; punctuation takes the hyphen
        assert fillers("Hm-hm, ja") == "Hmhm, ja"  # a chain of fillers is a word, written closed
