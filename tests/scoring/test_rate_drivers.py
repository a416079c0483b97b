"""Which utterances a corpus rate is driven by: a rate above 100% or one a few utterances hold
most of is explained by naming them, with their insertions and the rate without them."""

from __future__ import annotations

import pytest

from pytest_asrbench.scoring.rate_drivers import UtteranceErrors, rate_drivers


def _corpus(hallucinated_insertions: int) -> list[UtteranceErrors]:
    # ten clips of 10 reference words with one error each, and one clip of 5 words whose
    # hypothesis runs on: its insertions on top of one substitution
    clips = [UtteranceErrors(f"clip-{n:02d}", 1, 0, 10) for n in range(10)]
    return [*clips, UtteranceErrors("loop", 1 + hallucinated_insertions, hallucinated_insertions, 5)]


def test_one_hallucinated_clip_above_100_percent_is_named_with_the_rate_without_it():
    drivers = rate_drivers(_corpus(200))  # 211 errors over 105 words: 201%
    assert drivers is not None and drivers.rate == pytest.approx(211 / 105)
    assert [item.ident for item in drivers.named] == ["loop"]
    assert drivers.named_errors == 201 and drivers.rate_without == pytest.approx(10 / 100)
    assert drivers.heading() == ("above 100% and driven by 1 of 11 case(s), holding 201 of 211 errors (95%); "
                                 "10.00% without it:")
    assert drivers.described("words") == [("loop", "201 error(s) over 5 reference words, 200 insertion(s) > 2x its "
                                                    "reference length: the hypothesis is much longer (a "
                                                    "hallucination or repetition loop?)")]


def test_a_rate_below_100_percent_held_by_one_clip_of_many_is_named():
    drivers = rate_drivers(_corpus(20))  # 31 errors over 105 words, 21 of them in one clip
    assert drivers is not None and drivers.heading().startswith("driven by 1 of 11 case(s), holding 21 of 31")
    assert drivers.named[0].inserts_beyond_reference  # 20 insertions > 2 x 5 words


def test_errors_spread_over_the_corpus_need_no_pointer():
    assert rate_drivers(_corpus(0)) is None  # eleven clips with one error each
    assert rate_drivers([UtteranceErrors("a", 0, 0, 4)]) is None  # no error at all
    handful = [UtteranceErrors(f"c{n}", 0, 0, 10) for n in range(10)] + [UtteranceErrors("five", 5, 0, 10)]
    assert rate_drivers(handful) is None  # one clip holds every error, but 5 errors are no pattern


def test_a_small_corpus_is_never_driven_by_a_few_but_above_100_percent_is_explained():
    small = [UtteranceErrors("a", 1, 0, 10), UtteranceErrors("b", 9, 2, 10)]
    assert rate_drivers(small) is None  # two clips: both are in view
    over = rate_drivers([UtteranceErrors("a", 1, 0, 2), UtteranceErrors("b", 9, 8, 2)])
    assert [item.ident for item in over.named] == ["b"] and over.rate_without == pytest.approx(0.5)
    assert over.named[0].inserts_beyond_reference  # 8 insertions > 2 x 2 characters


def test_above_100_percent_without_a_few_names_the_three_with_most_errors():
    spread = [UtteranceErrors(f"c{n}", 3, 2, 2) for n in range(8)]  # every clip 150%
    drivers = rate_drivers(spread)
    assert [item.ident for item in drivers.named] == ["c0", "c1", "c2"]
    assert drivers.heading().startswith("above 100% and driven by 3 of 8 case(s), holding 9 of 24 errors (38%)")


def test_bad_counts_are_refused():
    with pytest.raises(ValueError, match="insertions <= errors"):
        UtteranceErrors("x", 1, 2, 3)
