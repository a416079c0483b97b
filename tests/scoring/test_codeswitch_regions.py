"""The error regions of an alignment, found span by span, are the maximal runs of non-equal
single-token columns, and the columns are one per token in alignment order."""

from __future__ import annotations

import random

from pytest_asrbench.scoring.alignment import align_spans, align_tokens, edit_distance
from pytest_asrbench.scoring.views.codeswitch.rescue import (
    columns_and_regions,
    columns_of,
    error_regions,
    span_columns_and_regions,
    spans_of,
)


def runs_of_non_equal(columns):
    runs, current = [], []
    for index, column in enumerate(columns):
        if column.op == "equal":
            if current:
                runs.append(current)
            current = []
        else:
            current.append(index)
    if current:
        runs.append(current)
    return [(run[0], run[-1] + 1) for run in runs]


def test_regions_found_span_by_span_are_the_maximal_runs_of_non_equal_columns():
    rng = random.Random("regions")
    for _ in range(3000):
        reference = [rng.choice("abcd") for _ in range(rng.randint(0, 9))]
        hypothesis = [rng.choice("abcde") for _ in range(rng.randint(0, 9))]
        alignment = align_tokens(reference, hypothesis)
        columns, regions = columns_and_regions(alignment)
        assert columns == columns_of(alignment)
        assert [(column.ref, column.hyp) for column in columns if column.ref is not None and column.hyp is not None] \
            == sorted((column.ref, column.hyp) for column in columns if column.ref is not None and column.hyp is not None)
        assert [column.ref for column in columns if column.ref is not None] == list(range(len(reference)))
        assert [column.hyp for column in columns if column.hyp is not None] == list(range(len(hypothesis)))
        assert [(region.start, region.end) for region in regions] == runs_of_non_equal(columns)
        assert regions == error_regions(columns)
        assert all(region.columns == tuple(columns[region.start:region.end]) for region in regions)


def test_a_substitution_between_hits_is_one_region_with_its_token_indices():
    columns, regions = columns_and_regions(align_tokens("a b c d".split(), "a x c d y".split()))
    assert [(column.op, column.ref, column.hyp) for column in columns] == [
        ("equal", 0, 0), ("substitute", 1, 1), ("equal", 2, 2), ("equal", 3, 3), ("insert", None, 4)]
    assert [(region.ref_indices, region.hyp_indices) for region in regions] == [([1], [1]), ([], [4])]


def test_plain_spans_are_the_alignment_spans_and_give_the_same_regions_and_distance():
    rng = random.Random("plain spans")
    for _ in range(3000):
        reference = [rng.choice("abcd") for _ in range(rng.randint(0, 9))]
        hypothesis = [rng.choice("abcde") for _ in range(rng.randint(0, 9))]
        alignment = align_tokens(reference, hypothesis)
        assert align_spans(reference, hypothesis) == spans_of(alignment)
        assert span_columns_and_regions(align_spans(reference, hypothesis)) == columns_and_regions(alignment)
        counts = alignment.counts()
        assert edit_distance(reference, hypothesis) == counts.substitutions + counts.deletions + counts.insertions
        as_text = ("".join(reference), "".join(hypothesis))  # characters: a string on each side
        assert align_spans(*as_text) == spans_of(align_tokens(*as_text))
        assert edit_distance(*as_text) == align_tokens(*as_text).counts().errors
