"""The ``compounds`` view: a split and a closed compound of the same letters count as one
correct word in English, German and Dutch, in either direction; the strict figures stay in
``details``; nothing changes where no compound was merged or where the view is off."""

from __future__ import annotations

import random

import pytest

from pytest_asrbench import score
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.compounds import (COMPOUND_LANGUAGES, compounds_view, merge_compounds,
                                                     may_merge)


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


# Words written closed or split ("database" / "data base", the three-piece "e mail box"),
# among words that are not compounds and near misses ("databases", "ba se"): each side writes
# each compound either way at random, then the hypothesis gets random substitutions,
# insertions and deletions, so pairs hold merges in both directions, runs inside and across
# stretches of errors, and pieces that do not close up.
_COMPOUNDS = [["data", "base"], ["e", "mail"], ["e", "mail", "box"], ["mail", "box"], ["a", "lot"]]
_WORDS = ["the", "is", "down", "databases", "bases", "ba", "se", "mail", "base", "data", "lot"]


def _random_pairs(count: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)

    def written(units: list) -> list[str]:
        words: list[str] = []
        for unit in units:
            if isinstance(unit, list):
                words += unit if rng.random() < 0.5 else ["".join(unit)]
            else:
                words.append(unit)
        return words

    pairs = []
    for _ in range(count):
        units = [rng.choice(_COMPOUNDS) if rng.random() < 0.4 else rng.choice(_WORDS)
                 for _ in range(rng.randint(0, 6))]
        reference, hypothesis = written(units), written(units)
        for _ in range(rng.randint(0, 2)):
            roll = rng.random()
            if roll < 0.4 and hypothesis:
                hypothesis[rng.randrange(len(hypothesis))] = rng.choice(_WORDS)
            elif roll < 0.7:
                hypothesis.insert(rng.randint(0, len(hypothesis)), rng.choice(_WORDS))
            elif hypothesis:
                del hypothesis[rng.randrange(len(hypothesis))]
        pairs.append((" ".join(reference), " ".join(hypothesis)))
    return pairs


def test_no_alignment_merges_a_compound_where_the_tokens_cannot_close_up():
    pairs = _random_pairs(4000, seed=7)
    merging = 0
    for reference, hypothesis in pairs:
        merges = merge_compounds(align(reference, hypothesis, "word"))[2]
        if merges:
            merging += 1
            assert may_merge(reference.split(), hypothesis.split()), (reference, hypothesis)
    assert merging > 400  # the generated pairs do hold many merges


def test_the_pre_test_is_false_for_tokens_that_cannot_close_up():
    assert may_merge(["data", "base"], ["database"]) and may_merge(["database"], ["data", "base"])
    assert may_merge(["e", "mail", "box"], ["emailbox"])
    assert not may_merge(["data", "base"], ["databases"])
    assert not may_merge(["database"], ["database"]) and not may_merge([], [])
    assert not may_merge(["a", "b"], ["ba"])  # the order of the pieces counts


@pytest.mark.parametrize("language", sorted(COMPOUND_LANGUAGES))
def test_the_view_reads_every_pair_as_when_each_pair_is_aligned(language):
    # The view skips the alignment of pairs that cannot merge; its counts and details must be
    # those of the plain path: every pair aligned and merged.
    pairs = _random_pairs(1500, seed=11)
    result = score([ref for ref, _ in pairs], [hyp for _, hyp in pairs], language)
    plain = EditCounts.zero()
    merged = []
    for pair in result.pairs:
        ref, hyp, merges = merge_compounds(pair.alignment)
        alignment = align(" ".join(ref), " ".join(hyp), "word") if merges else pair.alignment
        merged += merges
        plain = plain + alignment.counts()
    assert merged
    view = compounds_view(result, get_config(language))  # reads the strict pairs only
    assert view.details["compounds"] == merged
    assert view.counts == plain
    assert EditCounts(result.hits, result.substitutions, result.deletions, result.insertions,
                      result.reference_length) == plain
