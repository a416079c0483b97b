"""Cluster bootstrap speed: the vectorized numpy implementation against a plain-Python loop.

    python benchmarks/bootstrap.py [--clips 55000] [--clusters 2000] [--resamples 1000]

Every implementation draws the same cluster indices from the same seeded generator (the loops
one resample at a time), so their intervals must be equal; the script checks it. Two loops:

- the plain-Python bootstrap as one writes it first: per resample, walk the clips of every
  drawn cluster and sum their errors and lengths (the issue's baseline);
- a stronger loop that, like the vectorized code, first sums each cluster once and then adds
  the drawn clusters' sums (shows what the per-cluster sums alone buy).
"""

from __future__ import annotations

import argparse
import random
import time

from pytest_asrbench.stats.bootstrap import cluster_interval, generator


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clips", type=int, default=55000)
    parser.add_argument("--clusters", type=int, default=2000)
    parser.add_argument("--resamples", type=int, default=1000)
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


if __name__ == "__main__":
    main()
