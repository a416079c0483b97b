"""Cluster bootstrap speed: the vectorized numpy implementation against a plain-Python loop.

    python benchmarks/bootstrap.py [--clips 55000] [--clusters 2000] [--resamples 1000]

Every implementation draws the same cluster indices from the same seeded generator (the loops
one resample at a time), so their intervals must be equal; the script checks it. Two loops:

- the plain-Python bootstrap as one writes it first: per resample, walk the clips of every
  drawn cluster and sum their errors and lengths (the baseline);
- a stronger loop that, like the vectorized code, first sums each cluster once and then adds
  the drawn clusters' sums (shows what the per-cluster sums alone buy).

Then what the overall of two sets sharing their clusters costs (``bench score`` resamples
their union once more, jointly) against two independent sets, and what the Monte Carlo error
of the interval ends costs against the bare percentiles; each pair timed side by side in
alternating passes (``--repeat``), best of each.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from pytest_asrbench.bench.scoring.clusters import Namespace, joint_columns, shared_groups
from pytest_asrbench.stats.bootstrap import cluster_interval, generator, percentile_interval, rates, resampled_sums


def percentiles(values):
    values = sorted(values)

    def pct(q):
        pos = q / 100 * (len(values) - 1)
        low = int(pos)
        return values[low] + (values[min(low + 1, len(values) - 1)] - values[low]) * (pos - low)
    return pct(2.5), pct(97.5)


def clip_loop_interval(clips_of, seed, resamples):
    """Plain Python over clips: clips_of[c] is the list of (errors, length) of cluster c."""
    rng, k, values = generator(seed), len(clips_of), []
    for _ in range(resamples):
        e = n = 0
        for c in rng.integers(0, k, size=k).tolist():
            for clip_errors, clip_length in clips_of[c]:
                e += clip_errors
                n += clip_length
        values.append(e / n)
    return percentiles(values)


def cluster_loop_interval(errors, lengths, seed, resamples):
    """Plain Python over per-cluster sums."""
    rng, k, values = generator(seed), len(errors), []
    for _ in range(resamples):
        e = n = 0
        for c in rng.integers(0, k, size=k).tolist():
            e += errors[c]
            n += lengths[c]
        values.append(e / n)
    return percentiles(values)


def best_of_alternating(repeat, *jobs):
    """The best time of each job, the jobs run one after the other in each of ``repeat`` passes."""
    best = [float("inf")] * len(jobs)
    for _ in range(repeat):
        for i, job in enumerate(jobs):
            t = time.perf_counter()
            job()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def shared_overall_cost(errors, lengths, resamples, repeat):
    """Two sets with the same clusters: their own passes (independent overall) against their
    own passes plus the joint pass over the union (the overall bench score makes)."""
    ids = [str(c) for c in range(len(errors))]
    columns = [[lengths, errors], [lengths, errors]]
    (group,) = shared_groups([Namespace("n", "bench"), Namespace("n", "bench")], [ids, ids])

    def independent():
        return [resampled_sums(c, generator(0, name), resamples) for c, name in zip(columns, "ab")]

    def shared():
        own = independent()
        return own, resampled_sums(joint_columns(group, [ids, ids], columns), generator(0, "n"), resamples)

    return best_of_alternating(repeat, independent, shared)


def mc_error_cost(errors, lengths, resamples, repeat):
    """The interval with the Monte Carlo error of its ends against numpy's bare percentiles."""
    sums = resampled_sums([errors, lengths], generator(0), resamples)
    values = rates(sums[:, 0], sums[:, 1])

    def bare():
        return np.percentile(values[~np.isnan(values)], [2.5, 97.5])

    def with_error():
        return percentile_interval(values)

    return best_of_alternating(repeat, bare, with_error)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clips", type=int, default=55000)
    parser.add_argument("--clusters", type=int, default=2000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7, help="alternating passes of the side-by-side timings")
    args = parser.parse_args()
    r = random.Random(1)
    clips_of = [[] for _ in range(args.clusters)]
    for clip in range(args.clips):  # every cluster gets clips; lengths 10..80 characters, ~10% errors
        n = r.randint(10, 80)
        clips_of[clip % args.clusters if clip < args.clusters else r.randrange(args.clusters)].append(
            (sum(r.random() < 0.1 for _ in range(n)), n))
    cluster_interval([1], [1], generator(0), 1)  # numpy imported and warm: not part of the timing
    t = time.perf_counter()
    errors = [sum(e for e, _ in clips) for clips in clips_of]  # what the scorer hands over
    lengths = [sum(n for _, n in clips) for clips in clips_of]
    vec = cluster_interval(errors, lengths, generator(0), args.resamples)
    t_vec = time.perf_counter() - t
    t = time.perf_counter()
    clip_loop = clip_loop_interval(clips_of, 0, args.resamples)
    t_clip = time.perf_counter() - t
    t = time.perf_counter()
    cluster_loop = cluster_loop_interval(errors, lengths, 0, args.resamples)
    t_cluster = time.perf_counter() - t
    same = all(abs(vec.low - lo) < 1e-12 and abs(vec.high - hi) < 1e-12 for lo, hi in (clip_loop, cluster_loop))
    print(f"{args.clips} clips, {args.clusters} clusters, {args.resamples} resamples")
    print(f"vectorized (numpy, incl. cluster sums)  {t_vec:8.3f} s  ci95 [{vec.low:.6f}, {vec.high:.6f}]")
    print(f"plain loop over clips                   {t_clip:8.3f} s  ci95 [{clip_loop[0]:.6f}, {clip_loop[1]:.6f}]")
    print(f"plain loop over cluster sums            {t_cluster:8.3f} s  ci95 [{cluster_loop[0]:.6f}, {cluster_loop[1]:.6f}]")
    print(f"same intervals: {same}; speed-up vs clip loop {t_clip / t_vec:.1f}x, vs cluster-sum loop {t_cluster / t_vec:.1f}x")
    independent, shared = shared_overall_cost(errors, lengths, args.resamples, args.repeat)
    print(f"two sets, independent overall              {independent:8.3f} s")
    print(f"two sets sharing clusters (+ joint pass)   {shared:8.3f} s  ratio {shared / independent:.2f}x")
    bare, with_error = mc_error_cost(errors, lengths, args.resamples, args.repeat)
    print(f"percentiles alone                          {bare * 1000:8.3f} ms")
    print(f"percentiles + Monte Carlo error of the ends {with_error * 1000:7.3f} ms  ratio {with_error / bare:.2f}x")


if __name__ == "__main__":
    main()
