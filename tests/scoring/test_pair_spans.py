"""A pair scored with its spans kept has the same counts as one scored without them, and its
spans are the alignment's; ``score()`` keeps them only for a metric with a view that reads
them, and every output stays the same."""

from __future__ import annotations

import random

import pytest

from pytest_asrbench import score
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring.result import PairScore
from pytest_asrbench.scoring.views import keeps_spans
from pytest_asrbench.scoring.views.codeswitch.rescue import spans_of


def random_text(rng: random.Random) -> str:
    return " ".join(rng.choice(["a", "b", "c", "dd", "e"]) for _ in range(rng.randint(0, 9)))


@pytest.mark.parametrize("unit", ["word", "char"])
def test_kept_spans_give_the_counts_of_a_pair_scored_without_them_and_are_its_alignment_spans(unit):
    rng = random.Random(f"kept spans {unit}")
    for _ in range(3000):
        reference, hypothesis = random_text(rng), random_text(rng)
        plain = PairScore.of(reference, hypothesis, reference, hypothesis, unit)
        kept = PairScore.with_spans(reference, hypothesis, reference, hypothesis, unit)
        assert kept.counts == plain.counts
        assert kept.spans == spans_of(plain.alignment) == plain.spans


def test_a_pair_scored_without_spans_aligns_them_on_first_read_and_keeps_them():
    pair = PairScore.of("a b c", "a x c d", "a b c", "a x c d", "word")
    assert pair.spans == [("equal", 0, 1, 0, 1), ("substitute", 1, 2, 1, 2), ("equal", 2, 3, 2, 3),
                          ("insert", 3, 3, 3, 4)]
    assert pair.spans is pair.spans


def test_spans_are_kept_only_where_a_view_that_reads_them_applies():
    assert keeps_spans(get_config("hi"), "word", ("code_switch",))
    assert not keeps_spans(get_config("hi"), "char", ("code_switch",))
    assert not keeps_spans(get_config("en"), "word", ("code_switch",))
    assert not keeps_spans(get_config("hi"), "word", ())


def test_the_code_switch_score_reads_the_spans_kept_by_score():
    result = score(["मेरा नेटवर्क seven बजे", "मेरा code है"], ["मेरा network 7 बजे", "मेरा कोड हैं"], "hi")
    assert all(pair._spans is not None for pair in result.pairs)
    assert [pair.spans for pair in result.pairs] == [spans_of(pair.alignment) for pair in result.pairs]
