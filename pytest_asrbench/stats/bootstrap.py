"""Cluster bootstrap of a corpus error rate, and the paired comparison of two systems.

Clips of one cluster (a recording, a video, a speaker, a meeting) are not independent, so the
bootstrap resamples clusters, not clips: each resample draws as many clusters as there are,
uniformly with replacement, and computes the corpus (micro-averaged) rate of what it drew,
sum(errors) / sum(reference length). The interval is the percentile interval of those rates
(95%: the 2.5th and 97.5th percentiles, linear interpolation, numpy's default). Source: Efron &
Tibshirani, *An Introduction to the Bootstrap* (1993), ch. 13 (percentile interval); Field &
Welsh, "Bootstrapping clustered data", JRSS B 69 (2007) (resampling whole clusters); Bisani &
Ney, "Bootstrap estimates for confidence intervals in ASR performance evaluation", ICASSP 2004
(the paired comparison and the share of resamples in which one system is better).

Vectorized: the per-cluster sums are stacked into a (clusters, k) integer array, a block of
resamples is a (block, clusters) index matrix drawn from a seeded ``numpy.random.Generator``,
and each resample's sums are one gather-and-sum per column. Drawing the index matrix block by block gives
the same stream as drawing it at once, so the block size (and the progress callback) never
changes a result; the same seed gives the same intervals.

Each interval end is an estimate from R resamples, so it carries a Monte Carlo error: another
seed moves it. :func:`quantile_mc_se` estimates that error's standard deviation from the
resampled values themselves (the sample quantile's asymptotic standard error
sqrt(p(1-p)/R) / f(q), with 1/f(q) read off the spacing of the order statistics around the
quantile: Bloch & Gastwirth, "On a simple estimate of the reciprocal of the density function",
Ann. Math. Statist. 39 (1968); the window is the distribution-free 95% order-statistic interval
of the quantile, David & Nagaraja, *Order Statistics*, 3rd ed. (2003), section 7.1).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pytest_asrbench.errors import InputError

#: Resamples when the caller does not say.
DEFAULT_RESAMPLES = 1000
#: The interval's coverage when the caller does not say.
DEFAULT_CONFIDENCE = 0.95
#: Standard normal quantile of the order-statistic window of :func:`quantile_mc_se` (a 95%
#: distribution-free interval of the quantile).
MC_WINDOW_Z = 1.959963984540054
#: Index-matrix entries drawn per block (bounds memory: 8 bytes each).
BLOCK_ENTRIES = 1 << 21

Progress = Callable[[int], None]


def _numpy():
    try:
        import numpy
    except ImportError as exc:  # pragma: no cover - numpy comes with the bench extra
        raise ImportError("the bootstrap needs numpy: pip install 'pytest-asrbench[bench]'") from exc
    return numpy


def generator(seed: int, stream: str = ""):
    """The ``numpy.random.Generator`` (PCG64) of ``seed`` and a named stream (a set name), so
    each set's draws depend on the seed and its own name only, not on which other sets run.

    Raises:
        InputError: (a ``ValueError``) ``seed`` is negative or not an integer.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"the bootstrap seed must be a non-negative integer, got {seed!r}")
    return _numpy().random.default_rng([seed, zlib.crc32(stream.encode("utf-8"))])


def check_resamples(resamples: int) -> int:
    """``resamples`` if it is an integer >= 1.

    Raises:
        InputError: (a ``ValueError``) otherwise (the message says what to pass).
    """
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise InputError(f"the number of bootstrap resamples must be an integer >= 1, got {resamples!r}")
    return resamples


def resampled_sums(columns: Sequence, rng, resamples: int, progress: Progress | None = None):
    """Sums of per-cluster ``columns`` over ``resamples`` cluster resamples.

    Args:
        columns: m sequences of equal length k (one value per cluster: errors, lengths ...).
        rng: a ``numpy.random.Generator`` (see :func:`generator`).
        resamples: R, the number of resamples.
        progress: called with the number of resamples done after each block.

    Returns:
        An int64 array of shape (R, m): row r holds the sums of resample r.

    Raises:
        ValueError: no clusters, columns of different lengths, or ``resamples`` < 1.
    """
    np = _numpy()
    check_resamples(resamples)
    sizes = {len(column) for column in columns}
    if len(sizes) > 1:
        raise InputError(f"per-cluster columns must have one value per cluster, got lengths {sorted(sizes)}")
    table = np.asarray(np.column_stack([np.asarray(column, dtype=np.int64) for column in columns]), dtype=np.int64)
    clusters = table.shape[0]
    if clusters == 0:
        raise InputError("the bootstrap needs at least one cluster")
    columns_c = [np.ascontiguousarray(table[:, column]) for column in range(table.shape[1])]
    block = max(1, BLOCK_ENTRIES // clusters)
    out = np.empty((resamples, table.shape[1]), dtype=np.int64)
    done = 0
    while done < resamples:
        rows = min(block, resamples - done)
        index = rng.integers(0, clusters, size=(rows, clusters))
        for column in range(table.shape[1]):  # a 1-D take per column: ~8x faster than table[index]
            out[done:done + rows, column] = np.take(columns_c[column], index).sum(axis=1)
        done += rows
        if progress is not None:
            progress(done)
    return out


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap interval: ``low <= high`` (rates, 0..1 or more: insertions can
    push a rate above 1); ``undefined`` counts resamples with no reference length (left out).

    ``low_se`` and ``high_se`` are the Monte Carlo standard errors of the two ends (in the
    rate's unit; :func:`quantile_mc_se`): how far another seed typically moves them. All four
    are ``None`` for an interval with no defined resample (:meth:`undefined_rate`: a corpus
    whose references are all empty has no rate).
    """

    low: float | None
    high: float | None
    confidence: float
    resamples: int
    undefined: int = 0
    low_se: float | None = None
    high_se: float | None = None

    @classmethod
    def undefined_rate(cls, confidence: float, resamples: int) -> Interval:
        """The interval of a corpus with no reference length: no end, every resample undefined."""
        return cls(None, None, confidence, resamples, resamples)

    def as_list(self) -> list[float | None]:
        return [self.low, self.high]

    def mc_se_list(self) -> list[float | None]:
        """``[low_se, high_se]``: the Monte Carlo standard errors of the ends."""
        return [self.low_se, self.high_se]


def quantile_mc_se(ordered, fraction: float) -> float:
    """Monte Carlo standard error of the ``fraction`` quantile of ``ordered`` (sorted resampled
    values, R >= 1), as numpy's linear percentile estimates it.

    The sample quantile's standard error is sqrt(p(1-p)/R) / f(q) (p = ``fraction``, f the
    density of the resampled statistic at the quantile q). 1/f(q) is estimated from the order
    statistics x[j] and x[k] (0-based, clamped to 0..R-1) around the quantile's position
    h = p(R-1), j = floor(h - d), k = ceil(h + d), d = 1.96 sqrt(R p(1-p)) (the 95% order-statistic
    interval of the quantile): 1/f(q) ~ R (x[k] - x[j]) / (k - j), so the error is
    sqrt(R p(1-p)) (x[k] - x[j]) / (k - j). Sources: Bloch & Gastwirth (1968); David &
    Nagaraja (2003), section 7.1. The estimate is sound from a few hundred resamples up; with
    fewer it is rough (with R = 1 it is 0).

    Raises:
        ValueError: ``fraction`` not in (0, 1), or ``ordered`` empty.
    """
    if not 0.0 < fraction < 1.0:
        raise InputError(f"the quantile's fraction must be between 0 and 1, got {fraction!r}")
    count = len(ordered)
    if count == 0:
        raise InputError("the Monte Carlo error of a quantile needs at least one value")
    spread = math.sqrt(count * fraction * (1.0 - fraction))
    centre = fraction * (count - 1)
    first = max(0, math.floor(centre - MC_WINDOW_Z * spread))
    last = min(count - 1, math.ceil(centre + MC_WINDOW_Z * spread))
    if last == first:
        return 0.0
    return float(spread * (ordered[last] - ordered[first]) / (last - first))


def percentile_interval(values, confidence: float = DEFAULT_CONFIDENCE, undefined: int = 0) -> Interval:
    """The central ``confidence`` percentile interval of ``values`` (a 1-D array of resampled
    statistics; NaN entries are the undefined resamples and are counted, not used), with the
    Monte Carlo standard error of each end (:func:`quantile_mc_se`).

    Raises:
        ValueError: ``confidence`` not in (0, 1), or no defined value (a caller whose corpus
            may have no reference length checks that first: :meth:`Interval.undefined_rate`).
    """
    np = _numpy()
    if not 0.0 < confidence < 1.0:
        raise InputError(f"the interval's confidence must be between 0 and 1, got {confidence!r}")
    values = np.asarray(values, dtype=np.float64)
    defined = values[~np.isnan(values)]
    if defined.size == 0:
        raise InputError("no resample has a reference length: the interval is undefined (are all references empty?)")
    tail = (1.0 - confidence) / 2.0
    low, high = np.percentile(defined, [tail * 100.0, 100.0 - tail * 100.0])
    ordered = np.sort(defined)
    return Interval(float(low), float(high), confidence, int(values.size), undefined + int(values.size - defined.size),
                    quantile_mc_se(ordered, tail), quantile_mc_se(ordered, 1.0 - tail))


def rates(errors, lengths):
    """errors / lengths element-wise (float64), NaN where the length is 0."""
    np = _numpy()
    errors = np.asarray(errors, dtype=np.float64)
    lengths = np.asarray(lengths, dtype=np.float64)
    out = np.full(errors.shape, np.nan)
    np.divide(errors, lengths, out=out, where=lengths > 0)
    return out


@dataclass(frozen=True)
class PairedComparison:
    """System B against system A on the same references and resamples.

    ``difference`` is rate_b - rate_a (negative: B makes fewer errors); ``interval`` its
    bootstrap interval; ``b_better`` the share (0..1) of resamples in which B's rate is lower
    than A's (ties count as not better). On references with no length (all empty) every
    figure but the interval's bookkeeping is ``None`` (:meth:`undefined_rate`).
    """

    rate_a: float | None
    rate_b: float | None
    difference: float | None
    interval: Interval
    b_better: float | None

    @classmethod
    def undefined_rate(cls, confidence: float, resamples: int) -> PairedComparison:
        """The comparison on a corpus with no reference length: no rate, no difference."""
        return cls(None, None, None, Interval.undefined_rate(confidence, resamples), None)


def paired_comparison(sums, totals: tuple[int, int, int], confidence: float = DEFAULT_CONFIDENCE) -> PairedComparison:
    """The paired comparison from resampled sums of (errors A, errors B, reference length).

    Args:
        sums: shape (R, 3), from :func:`resampled_sums` of those three per-cluster columns.
        totals: the full corpus's (errors A, errors B, reference length): the point estimates.
        confidence: the interval's coverage.

    Raises:
        ValueError: ``sums`` is not (R, 3), or no resample has a reference length.
    """
    np = _numpy()
    sums = np.asarray(sums)
    if sums.ndim != 2 or sums.shape[1] != 3:
        raise InputError(f"paired sums must have shape (resamples, 3), got {sums.shape}")
    diff = rates(sums[:, 1], sums[:, 2]) - rates(sums[:, 0], sums[:, 2])
    interval = percentile_interval(diff, confidence)
    defined = ~np.isnan(diff)
    better = float(np.count_nonzero(diff[defined] < 0) / np.count_nonzero(defined))
    errors_a, errors_b, length = (int(value) for value in totals)
    rate_a = errors_a / length if length else None
    rate_b = errors_b / length if length else None
    difference = rate_b - rate_a if length else None
    return PairedComparison(rate_a, rate_b, difference, interval, better)


def compare_systems(errors_a, errors_b, lengths, rng, resamples: int = DEFAULT_RESAMPLES,
                    confidence: float = DEFAULT_CONFIDENCE, progress: Progress | None = None) -> PairedComparison:
    """Paired cluster bootstrap of two systems scored on the same clusters: both systems'
    rates are computed on the same resamples, so what the clusters share cancels out.

    Args:
        errors_a, errors_b: per-cluster error counts (S + D + I) of systems A and B, length k.
        lengths: per-cluster reference lengths (the same references for both), length k.
        rng, resamples, confidence, progress: as in :func:`cluster_interval`.

    Raises:
        ValueError: as :func:`resampled_sums` and :func:`percentile_interval`.
    """
    sums = resampled_sums([errors_a, errors_b, lengths], rng, resamples, progress)
    return paired_comparison(sums, (sum(errors_a), sum(errors_b), sum(lengths)), confidence)


def cluster_interval(errors, lengths, rng, resamples: int = DEFAULT_RESAMPLES,
                     confidence: float = DEFAULT_CONFIDENCE, progress: Progress | None = None) -> Interval:
    """Percentile interval of the corpus rate under cluster resampling.

    Args:
        errors: per-cluster error counts (S + D + I), length k >= 1.
        lengths: per-cluster reference lengths, length k.
        rng: a seeded ``numpy.random.Generator`` (:func:`generator`).
        resamples: R >= 1 (default 1,000).
        confidence: the interval's coverage (default 0.95).
        progress: called with the number of resamples done after each block.

    Raises:
        ValueError: as :func:`resampled_sums` and :func:`percentile_interval`.
    """
    sums = resampled_sums([errors, lengths], rng, resamples, progress)
    return percentile_interval(rates(sums[:, 0], sums[:, 1]), confidence)
