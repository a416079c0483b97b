"""The ``compounds`` view: a split and a closed compound of the same letters count as one
correct word in English, German and Dutch, in either direction; the strict figures stay in
``details``; nothing changes where no compound was merged or where the view is off."""

from __future__ import annotations

import pytest

from pytest_asrbench import score
from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.views.compounds import COMPOUND_LANGUAGES, merge_compounds


@pytest.mark.parametrize(
    ("reference", "hypothesis", "language", "strict_rate"),
    [
        ("the data base is down", "the database is down", "en", 0.4),
        ("the database is down", "the data base is down", "en", 0.5),
        ("die Kunden Nummer", "die Kundennummer", "de", 2 / 3),
        ("die Kundennummer", "die Kunden Nummer", "de", 1.0),
        ("het fiets pad", "het fietspad", "nl", 2 / 3),
        ("het fietspad", "het fiets pad", "nl", 1.0),
    ],
)
def test_a_split_and_a_closed_compound_are_one_correct_word(reference, hypothesis, language, strict_rate):
    result = score(reference, hypothesis, language)
    assert result.rate == 0.0 and result.errors == 0
    assert result.details["strict_rate"] == pytest.approx(strict_rate)


def test_the_merged_compound_counts_once_in_the_reference_length():
    result = score("the data base is down", "the database is down", "en")
    assert (result.hits, result.reference_length) == (4, 4)
    assert result.details["strict"] == {"hits": 3, "substitutions": 1, "deletions": 1, "insertions": 0,
                                        "reference_length": 5}
    assert result.details["compounds"] == [{"reference": "data base", "hypothesis": "database"}]


def test_other_errors_around_a_compound_still_count():
    result = score("the data base is up", "the database is down", "en")
    assert (result.substitutions, result.deletions, result.insertions, result.reference_length) == (1, 0, 0, 4)


def test_both_directions_in_one_pair_are_listed():
    result = score("a lot of e mail", "alot of email", "en")
    assert result.rate == 0.0
    assert result.details["compounds"] == [{"reference": "a lot", "hypothesis": "alot"},
                                           {"reference": "e mail", "hypothesis": "email"}]


def test_a_corpus_sums_merged_and_unmerged_pairs():
    result = score(["the data base is down", "good morning"], ["the database is down", "good evening"], "en")
    assert (result.errors, result.reference_length) == (1, 6)


def test_a_score_without_a_compound_has_no_compound_details():
    result = score("hello world", "hello word", "en")
    assert "compounds" not in result.details and "strict_rate" not in result.details


def test_only_letters_the_strict_alignment_left_unmatched_are_merged():
    # "base" is matched where it stands; the closed word elsewhere is not built from it
    ref, hyp, merges = merge_compounds(align("data base database", "database base database", "word"))
    assert merges == [] and ref == ["data", "base", "database"] and hyp == ["database", "base", "database"]


def test_different_letters_are_not_a_compound():
    assert score("the data base", "the databases", "en").rate == pytest.approx(2 / 3)


@pytest.mark.parametrize(("language", "reference", "hypothesis"),
                         [("es", "por que", "porque"), ("fr", "quelque fois", "quelquefois")])
def test_the_view_is_off_where_a_closed_form_is_another_word(language, reference, hypothesis):
    assert language not in COMPOUND_LANGUAGES
    result = score(reference, hypothesis, language)
    assert result.errors == 2 and "compounds" not in result.details


def test_the_view_is_off_for_hindi_whose_headline_the_code_switch_view_sets():
    assert "hi" not in COMPOUND_LANGUAGES
    assert "compounds" not in score("उस ने कहा", "उसने कहा", "hi").details
