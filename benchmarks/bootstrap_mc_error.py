"""The Monte Carlo error of the bootstrap's interval ends: reported against measured.

    python benchmarks/bootstrap_mc_error.py [--resamples 1000] [--seeds 300] [--hyps hyps_a]

Scores the shipped synthetic Thai benchmark (cases/th/benchmark/) once, then draws its
intervals with ``--seeds`` seeds: for the set ``synthetic`` and for the overall of
``synthetic`` + ``synthetic_long`` resampled jointly (they share their 32 speakers). Prints,
per row, the seed-to-seed standard deviation of each end and the mean of the standard error
each interval reports (``stats.bootstrap.quantile_mc_se``), in CER points; the two should
agree. docs/bench.md's table of the Monte Carlo error comes from this script.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from pytest_asrbench.bench.scoring.clusters import joint_columns, shared_groups
from pytest_asrbench.bench.scoring.corpus import NAMESPACE_STREAM, ReferenceSet, score_system
from pytest_asrbench.stats.bootstrap import generator, percentile_interval, rates, resampled_sums

BENCHMARK = Path(__file__).resolve().parents[1] / "cases/th/benchmark"
SETS = ("synthetic", "synthetic_long")


def columns_of(hyps: str) -> tuple[dict[str, list[list[int]]], dict[str, str]]:
    """Per-cluster (lengths, errors) of ``synthetic`` and of the joint overall, and each row's stream."""
    references = [ReferenceSet.read(name, BENCHMARK / "refs" / f"{name}.jsonl") for name in SETS]
    systems = [score_system(ref, BENCHMARK / hyps / f"{ref.name}.jsonl") for ref in references]
    columns = [[list(system.cluster_lengths), list(system.cluster_errors)] for system in systems]
    clusters = [ref.clusters for ref in references]
    (group,) = shared_groups([ref.namespace for ref in references], clusters)
    return ({"synthetic": columns[0], "overall (joint)": joint_columns(group, clusters, columns)},
            {"synthetic": "synthetic", "overall (joint)": NAMESPACE_STREAM + group.namespace})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--hyps", default="hyps_a", help="hypotheses folder under cases/th/benchmark/")
    args = parser.parse_args()
    rows, streams = columns_of(args.hyps)
    print(f"{args.resamples} resamples, {args.seeds} seeds; CER points")
    print("| row | sd low / high | reported low / high | mean width |")
    print("| --- | --- | --- | --- |")
    for label, columns in rows.items():
        ends, errors = [], []
        for seed in range(args.seeds):
            sums = resampled_sums(columns, generator(seed, streams[label]), args.resamples)
            interval = percentile_interval(rates(sums[:, 1], sums[:, 0]))
            ends.append(interval.as_list())
            errors.append(interval.mc_se_list())
        ends, errors = np.array(ends) * 100, np.array(errors) * 100
        sd = ends.std(axis=0, ddof=1)
        reported = errors.mean(axis=0)
        print(f"| {label} | {sd[0]:.3f} / {sd[1]:.3f} | {reported[0]:.3f} / {reported[1]:.3f} | "
              f"{(ends[:, 1] - ends[:, 0]).mean():.3f} |")


if __name__ == "__main__":
    main()
