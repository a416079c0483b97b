"""The Monte Carlo standard error of a bootstrap interval's ends: it matches the theory on a
known distribution and the seed-to-seed spread of real intervals; undefined intervals carry none."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from pytest_asrbench.errors import InputError
from pytest_asrbench.stats.bootstrap import (Interval, PairedComparison, cluster_interval, generator,
                                              percentile_interval, quantile_mc_se)


def test_the_error_of_a_uniform_quantile_is_the_textbook_one():
    # U(0, 1) has density 1, so the p-quantile's standard error is sqrt(p (1 - p) / R)
    for count in (1000, 20000):
        ordered = np.linspace(0.0, 1.0, count)
        for fraction in (0.025, 0.5, 0.975):
            want = math.sqrt(fraction * (1 - fraction) / count)
            assert quantile_mc_se(ordered, fraction) == pytest.approx(want, rel=0.05)


def _clusters(seed: int, count: int) -> tuple[list[int], list[int]]:
    r = random.Random(seed)
    lengths = [r.randint(20, 200) for _ in range(count)]
    return [r.randint(0, n // 2) for n in lengths], lengths


def test_the_reported_error_is_the_spread_of_the_ends_between_seeds():
    errors, lengths = _clusters(8, 40)
    intervals = [cluster_interval(errors, lengths, generator(seed, "s"), resamples=1000) for seed in range(120)]
    for end, se in (("low", "low_se"), ("high", "high_se")):
        spread = float(np.std([getattr(i, end) for i in intervals], ddof=1))
        reported = float(np.mean([getattr(i, se) for i in intervals]))
        # 120 seeds estimate a standard deviation to about 7%: the two agree within 25%
        assert reported == pytest.approx(spread, rel=0.25), end


def test_more_resamples_give_a_smaller_error():
    errors, lengths = _clusters(9, 30)

    def mean_error(resamples: int) -> float:
        intervals = [cluster_interval(errors, lengths, generator(seed, "s"), resamples=resamples) for seed in range(10)]
        return float(np.mean([i.high_se for i in intervals] + [i.low_se for i in intervals]))

    # the error falls as 1/sqrt(R): 16 times the resamples, about a quarter of the error
    assert mean_error(8000) / mean_error(500) == pytest.approx(0.25, rel=0.25)


def test_the_interval_carries_the_error_of_each_end():
    values = np.array([float(v) for v in range(1000)] + [float("nan")] * 3)
    interval = percentile_interval(values)
    assert interval.undefined == 3 and interval.resamples == 1003
    assert interval.mc_se_list() == pytest.approx([quantile_mc_se(np.arange(1000.0), 0.025),
                                                   quantile_mc_se(np.arange(1000.0), 0.975)])
    assert 0 < interval.low_se < 10  # a few ranks' worth of spacing (spacing 1 here)


def test_a_corpus_with_no_reference_length_has_an_undefined_interval_and_comparison():
    interval = Interval.undefined_rate(0.95, 200)
    assert interval.as_list() == [None, None] and interval.mc_se_list() == [None, None]
    assert interval.undefined == 200
    comparison = PairedComparison.undefined_rate(0.95, 200)
    assert (comparison.rate_a, comparison.difference, comparison.b_better) == (None, None, None)


def test_bad_arguments_are_input_errors():
    with pytest.raises(InputError, match="fraction must be between 0 and 1"):
        quantile_mc_se([1.0, 2.0], 1.0)
    with pytest.raises(InputError, match="at least one value"):
        quantile_mc_se([], 0.5)
    assert quantile_mc_se([3.0], 0.5) == 0.0
