"""The one edit-count type (pytest_asrbench/scoring/counts.py): sums, rates, checks and record forms."""

from __future__ import annotations

import pytest

from pytest_asrbench.errors import InputError, InputTypeError
from pytest_asrbench.scoring.alignment import char_counts
from pytest_asrbench.scoring.counts import KNOWN_FIELDS, SCORE_FIELDS, EditCounts


def test_errors_and_rate_are_the_summed_edits_over_the_reference():
    counts = EditCounts(hits=3, substitutions=1, deletions=2, insertions=4, reference_length=6)
    assert counts.errors == 7
    assert counts.rate == 7 / 6


def test_an_empty_reference_has_no_rate_but_keeps_its_insertions():
    counts = char_counts("", "ab")
    assert counts == EditCounts(0, 0, 0, 2, 0)
    assert (counts.errors, counts.rate) == (2, None)


def test_a_sum_is_micro_averaged_and_zero_is_its_identity():
    a, b = char_counts("abcd", "abxd"), char_counts("ab", "")
    assert a + b == EditCounts(3, 1, 2, 0, 6)
    assert (a + b).rate == 3 / 6  # not the mean of 1/4 and 2/2
    assert EditCounts.total([a, b]) == a + b
    assert EditCounts.total(iter([a, b])) == a + b
    assert EditCounts.total([]) == EditCounts.zero() == EditCounts(0, 0, 0, 0, 0)
    assert EditCounts.zero() + a == a
    assert EditCounts.zero().rate is None


def test_adding_something_else_is_a_type_error():
    with pytest.raises(TypeError):
        EditCounts.zero() + (0, 0, 0, 0, 0)


def test_to_dict_writes_the_named_fields_in_their_order():
    counts = EditCounts(3, 1, 0, 1, 4)
    assert list(counts.to_dict()) == list(SCORE_FIELDS)
    assert counts.to_dict() == {"rate": 0.5, "hits": 3, "substitutions": 1, "deletions": 0, "insertions": 1,
                                "reference_length": 4}
    assert counts.to_dict(("errors", "rate")) == {"errors": 2, "rate": 0.5}
    assert set(KNOWN_FIELDS) == set(SCORE_FIELDS) | {"errors"}


def test_to_dict_refuses_an_unknown_field_and_lists_the_known_ones():
    with pytest.raises(InputError, match=r"unknown field\(s\) \['hit'\]; known: \['deletions', 'errors', 'hits'"):
        EditCounts.zero().to_dict(("rate", "hit"))


@pytest.mark.parametrize(("fields", "error", "message"), [
    ((1, 0, 0, 0, 2), InputError, "hits \\+ substitutions \\+ deletions must equal reference_length"),
    ((1, 0, -1, 0, 0), InputError, "cannot be negative"),
    ((1.0, 0, 0, 0, 1), InputTypeError, "int counts; got \\{'hits': 'float'\\}"),
    ((1, 0, 0, True, 1), InputTypeError, "int counts; got \\{'insertions': 'bool'\\}"),
])
def test_counts_that_cannot_be_are_refused(fields, error, message):
    with pytest.raises(error, match=message):
        EditCounts(*fields)


def test_the_bench_run_record_keeps_its_two_forms():
    from pytest_asrbench.bench.run.views import pair_views, sum_views, views_dict

    views, _ = pair_views("你好世界", "你好", "zh")
    assert views["cer_raw"] == EditCounts(2, 0, 2, 0, 4)
    record = views_dict(sum_views([views, views]))["cer_raw"]
    assert record == {"rate": 0.5, "substitutions": 0, "deletions": 4, "insertions": 0, "errors": 4,
                      "reference_length": 8}
    assert list(record) == ["rate", "substitutions", "deletions", "insertions", "errors", "reference_length"]
