"""The ``spacing`` view: Korean's headline CER does not count spaces; the spaced CER stays a detail."""

from __future__ import annotations

import dataclasses

import pytest

from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.base import MetricView, ViewResult, apply_views, register_view
from pytest_asrbench.scoring.views.spacing import applies


def test_a_spacing_difference_alone_scores_zero_and_shows_in_details():
    result = score("할 수 있다", "할수 있다", "ko")
    assert result.rate == 0.0
    assert result.reference_length == 4  # characters other than spaces
    assert result.details["rate_with_spaces"] == pytest.approx(1 / 6)
    assert result.details["rate_without_spaces"] == 0.0
    assert result.details["with_spaces"] == {"hits": 5, "substitutions": 0, "deletions": 1, "insertions": 0,
                                             "reference_length": 6}
    assert result.details["spacing_errors"] == 1


def test_a_real_error_counts_in_both_rates():
    result = score("감사합니다", "감사함니다", "ko")
    assert result.rate == result.details["rate_with_spaces"] == 0.2
    assert (result.hits, result.substitutions) == (4, 1)


def test_corpus_rates_are_micro_averaged_without_spaces():
    result = score(["할 수 있다", "감사합니다"], ["할수있다", "감사함니다"], "ko")
    assert result.rate == pytest.approx(1 / 9)
    assert result.details["rate_with_spaces"] == pytest.approx(3 / 11)
    # the pairs keep the alignment of the normalized forms as written (spaces counted)
    assert [pair.reference_length for pair in result.pairs] == [6, 5]


def test_an_all_space_reference_is_an_empty_reference():
    result = score(" ", "가", "ko")
    assert result.rate is None and result.insertions == 1


@pytest.mark.parametrize("language", ["ja", "zh", "th", "en", "hi"])
def test_it_applies_only_where_the_normalized_form_keeps_spaces_in_a_char_language(language):
    assert not applies(get_config(language), "char")
    assert applies(get_config("ko"), "char")


def test_english_cer_still_counts_spaces():
    assert score("a b", "ab", "en", metric="cer").rate == pytest.approx(1 / 3)


def test_a_view_that_counts_other_tokens_sets_the_reference_length():
    base = score("가나", "가나", "ko")
    view = MetricView("test_halve", lambda config, unit: True,
                      lambda result, config: ViewResult({}, EditCounts(1, 0, 0, 1, 1)),
                      sets_counts=True)
    register_view(view)
    strict = dataclasses.replace(base, details={})
    out = apply_views(strict, get_config("ko"), ["test_halve"])
    assert (out.reference_length, out.rate) == (1, 1.0)
