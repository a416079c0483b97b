"""The paired cluster bootstrap of the CER difference between two runs of one manifest.

Clusters are speakers (utterances of one speaker are not independent); per speaker, both runs'
errors of the chosen view and the (shared) reference length are summed, and
:func:`pytest_asrbench.stats.bootstrap.compare_systems` resamples speakers, computing both
runs' corpus rates on the same resamples. The difference is candidate minus base (negative:
the candidate makes fewer errors).
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_asrbench.bench.errors import ComparisonError
from pytest_asrbench.stats.bootstrap import DEFAULT_RESAMPLES, PairedComparison, compare_systems, generator


@dataclass(frozen=True)
class ClusterTable:
    speakers: tuple[str, ...]
    errors_base: tuple[int, ...]
    errors_candidate: tuple[int, ...]
    lengths: tuple[int, ...]


def _errors(view: dict | None, record: str, ident: str, name: str) -> tuple[int, int]:
    if view is None:
        raise ComparisonError(f"the {record} record has no {name} figures for {ident!r} (the view did not run); "
                              "compare on another view (--view)")
    return view["substitutions"] + view["deletions"] + view["insertions"], view["reference_length"]


def cluster_table(base: dict, candidate: dict, view: str, slice_name: str | None = None) -> ClusterTable:
    """Per-speaker errors of both runs and reference lengths, speakers in first-seen order
    (only the utterances of ``slice_name`` when given).

    Raises:
        ComparisonError: a view missing for an utterance, or an utterance whose reference
            length differs between the records (not the same references).
    """
    other = {u["id"]: u for u in candidate["utterances"]}
    sums: dict[str, list[int]] = {}
    for utterance in base["utterances"]:
        if slice_name is not None and utterance["slice"] != slice_name:
            continue
        errors_a, length = _errors(utterance["views"][view], "base", utterance["id"], view)
        errors_b, length_b = _errors(other[utterance["id"]]["views"][view], "candidate", utterance["id"], view)
        if length != length_b:
            raise ComparisonError(f"{utterance['id']}: reference length {length} in base, {length_b} in candidate "
                                  f"({view}); the records do not score the same references")
        entry = sums.setdefault(utterance["speaker"], [0, 0, 0])
        entry[0] += errors_a
        entry[1] += errors_b
        entry[2] += length
    speakers = tuple(sums)
    return ClusterTable(speakers, tuple(sums[s][0] for s in speakers), tuple(sums[s][1] for s in speakers),
                        tuple(sums[s][2] for s in speakers))


def paired_difference(table: ClusterTable, seed: int, resamples: int = DEFAULT_RESAMPLES) -> PairedComparison:
    """The paired comparison (candidate - base) over speaker resamples (stream ``"compare"``)."""
    return compare_systems(table.errors_base, table.errors_candidate, table.lengths,
                           generator(seed, "compare"), resamples)
