"""Scoring hypothesis folders against reference folders: per-set corpus rates and intervals.

The rules (those of the published Thai benchmark's scorer, for every language):

- each pair is counted by the benchmark's :class:`~.measure.Measure`: for Thai,
  ``th_bench_cer`` (both sides cleaned with the frozen reference cleaning ``th-bench-v1``,
  every whitespace character removed, characters aligned with rapidfuzz's Levenshtein, as
  jiwer); for another language its metric through ``score()`` (:mod:`.language`); S/D/I are
  summed over the set: the corpus (micro-averaged) rate;
- a reference id with no hypothesis counts as all deletions and is listed under ``missing``;
- a hypothesis id with no reference is an error listing the ids (``allow_extra`` lists them
  under ``extra`` and leaves them out instead);
- an empty hypothesis file, or none for a set, is an error: never a set silently dropped;
- long-form sets (``tv_long``, ``gs2_long``) are scored like the others, one joined reference
  and one hypothesis per recording;
- the 95% interval is the cluster bootstrap's (:mod:`pytest_asrbench.stats.bootstrap`): each
  set draws from its own stream (the seed and the set's name); the overall resamples the
  clusters of sets that share them (one ``cluster_namespace``, :mod:`.clusters`) jointly, from
  a stream of the seed and the namespace, and sums them with the other sets' own resamples
  (stratified);
- references that are all empty have no rate: the rate, interval and comparison are ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.bench.errors import BenchFileNotFoundError, HypothesesError, UnknownSetError
from pytest_asrbench.bench.scoring.clusters import (
    Namespace,
    SharedGroup,
    joint_columns,
    namespace_notes,
    read_namespace,
    shared_groups,
)
from pytest_asrbench.bench.scoring.jsonl import Record, read_records
from pytest_asrbench.bench.scoring.measure import THAI_BENCHMARK, Measure, clean_for_scoring
from pytest_asrbench.scoring.alternatives import has_alternatives
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    Interval,
    PairedComparison,
    check_resamples,
    generator,
    paired_comparison,
    percentile_interval,
    rates,
    resampled_sums,
)

OVERALL = "overall"
#: Prefix of the random stream of a group of sets sharing clusters (then its namespace); a
#: set's own stream is its name.
NAMESPACE_STREAM = "clusters: "
#: Ids listed in an error message before "and N more".
SHOWN_IDS = 10


__all__ = ["OVERALL", "BenchmarkScores", "ReferenceSet", "SetScore", "SystemScore", "bootstrap_passes",
           "clean_for_scoring", "resolve_sets", "score_benchmark", "score_system"]


@dataclass(frozen=True)
class ReferenceSet:
    """A set's references, prepared by the measure (Thai: cleaned): ``texts[i]`` belongs to ``ids[i]`` and to cluster
    ``cluster_index[i]`` (an index into ``clusters``, in order of first appearance);
    ``namespace`` is what its cluster ids identify (:func:`.clusters.read_namespace`)."""

    name: str
    path: Path
    ids: tuple[str, ...]
    texts: tuple[str, ...]
    clusters: tuple[str, ...]
    cluster_index: tuple[int, ...]
    namespace: Namespace

    @classmethod
    def read(cls, name: str, path: Path, measure: Measure = THAI_BENCHMARK) -> ReferenceSet:
        """Read ``path`` and prepare each text for ``measure`` (Thai: ``th-bench-v1`` cleaning).

        Raises:
            BenchFileNotFoundError, JsonlFormatError: see :func:`read_records` (and a bad
                sidecar: :func:`.clusters.read_namespace`).
            HypothesesError: the file has no references; a reference holds alternatives
                (``{ a / b }``, which the benchmark does not score: one form per clip).
        """
        records = read_records(path, with_cluster=True)
        if not records:
            raise HypothesesError(f"{path}: no references; rebuild it with asrbench refs build")
        for record in records:
            if has_alternatives(record.text):
                raise HypothesesError(
                    f"{path}: reference {record.id!r} ({record.text!r}) holds alternatives ({{ a / b }}); the "
                    "benchmark's corpus CER and its cluster bootstrap need one fixed reference length per clip, "
                    "so write one form (score alternatives with asrbench score or a score case)")
        positions: dict[str, int] = {}
        index = tuple(positions.setdefault(record.cluster, len(positions)) for record in records)
        return cls(name, Path(path), tuple(r.id for r in records), tuple(measure.prepare(r.text) for r in records),
                   tuple(positions), index, read_namespace(Path(path)))


@dataclass(frozen=True)
class SystemScore:
    """One system's hypotheses scored on one set (or summed over sets): ``cluster_errors`` and
    ``cluster_lengths`` are the errors and reference lengths per cluster of the set (in the
    measure's unit; empty for a sum over sets); ``clip_counts`` each clip's ``(id, counts)`` in
    reference order (a sum over sets names them ``<set>/<id>``), from which a summary names
    the clips that drive the rate."""

    hypotheses: str
    counts: EditCounts
    missing: tuple[str, ...]
    extra: tuple[str, ...]
    cluster_errors: tuple[int, ...]
    cluster_lengths: tuple[int, ...] = ()
    clip_counts: tuple[tuple[str, EditCounts], ...] = ()


def _listed(ids: Sequence[str]) -> str:
    shown = ", ".join(repr(ident) for ident in ids[:SHOWN_IDS])  # repr: a trailing space shows
    return shown + (f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")


def score_system(references: ReferenceSet, path: Path, *, allow_extra: bool = False,
                 measure: Measure = THAI_BENCHMARK) -> SystemScore:
    """Score the hypotheses file ``path`` on ``references`` (read with the same ``measure``).

    Raises:
        HypothesesError: ``path`` does not exist or has no line; ids with no reference (unless
            ``allow_extra``), listed.
        JsonlFormatError: a bad line (``file:line``).
    """
    path = Path(path)
    if not path.is_file():
        raise HypothesesError(f"{path}: no hypothesis file for set {references.name!r}; write it "
                              "(one {\"id\", \"text\"} line per clip) or leave the set out with --sets")
    records = read_records(path, with_cluster=False)
    if not records:
        raise HypothesesError(f"{path}: the hypothesis file is empty; a set is never scored without hypotheses "
                              "(write one {\"id\", \"text\"} line per clip, or leave the set out with --sets)")
    by_id: dict[str, Record] = {record.id: record for record in records}
    known = set(references.ids)
    extra = tuple(record.id for record in records if record.id not in known)
    if extra and not allow_extra:
        raise HypothesesError(f"{path}: {len(extra)} hypothesis id(s) have no reference in {references.path}: "
                              f"{_listed(extra)}; fix the ids (or pass --allow-extra to list and skip them)")
    pair_counts = []
    cluster_errors = [0] * len(references.clusters)
    cluster_lengths = [0] * len(references.clusters)
    missing = []
    for ident, reference, cluster in zip(references.ids, references.texts, references.cluster_index):
        record = by_id.get(ident)
        if record is None:
            missing.append(ident)
            hypothesis = ""
        else:
            hypothesis = record.text
        counts = measure.counts(reference, hypothesis)
        pair_counts.append(counts)
        cluster_errors[cluster] += counts.errors
        cluster_lengths[cluster] += counts.reference_length
    return SystemScore(str(path), EditCounts.total(pair_counts), tuple(missing), extra, tuple(cluster_errors),
                       tuple(cluster_lengths), tuple(zip(references.ids, pair_counts)))


@dataclass(frozen=True)
class SetScore:
    """A set's figures: ``system`` (and ``other`` with ``--compare``), their intervals, and the
    paired comparison (``other`` minus ``system``)."""

    name: str
    clips: int
    clusters: int
    system: SystemScore
    ci95: Interval
    other: SystemScore | None = None
    other_ci95: Interval | None = None
    comparison: PairedComparison | None = None


@dataclass(frozen=True)
class BenchmarkScores:
    """Every set's :class:`SetScore` in the order asked for, and the overall one; ``shared``
    lists the sets resampled jointly for the overall (``{"namespace", "sets", "clusters"}``),
    ``notes`` says how the overall resampled each set (:func:`.clusters.namespace_notes`);
    ``measure`` is what counted the pairs (its metric, version, language and unit)."""

    sets: tuple[SetScore, ...]
    overall: SetScore
    seed: int
    resamples: int
    confidence: float
    shared: tuple[dict, ...] = ()
    notes: tuple[str, ...] = ()
    measure: Measure = THAI_BENCHMARK


def resolve_sets(refs_dir: Path, sets: Sequence[str] | None) -> list[str]:
    """The sets to score: ``sets`` (each must have ``refs_dir/<set>.jsonl``), or every
    ``*.jsonl`` in ``refs_dir`` in name order.

    Raises:
        BenchFileNotFoundError: ``refs_dir`` is not a folder.
        UnknownSetError: a set has no reference file, or the folder has none (lists what is there).
    """
    refs_dir = Path(refs_dir)
    if not refs_dir.is_dir():
        raise BenchFileNotFoundError(f"{refs_dir}: no such references folder (build it with asrbench refs build --out {refs_dir})")
    available = sorted(path.name[:-6] for path in refs_dir.glob("*.jsonl"))
    if not available:
        raise UnknownSetError(f"{refs_dir}: no <set>.jsonl reference files; build them with asrbench refs build --out {refs_dir}")
    if not sets:
        return available
    unknown = [name for name in sets if name not in available]
    if unknown:
        raise UnknownSetError(f"no reference file for set(s) {', '.join(unknown)} in {refs_dir}; "
                              f"available: {', '.join(available)}")
    if len(set(sets)) != len(sets):
        raise UnknownSetError(f"a set is named twice in {' '.join(sets)}")
    return list(sets)


def _interval(errors, lengths, confidence: float) -> Interval:
    return percentile_interval(rates(errors, lengths), confidence)


class _Passes:
    """Turns each bootstrap pass's running count of resamples into the increments a progress
    bar takes (``next()`` before each pass)."""

    def __init__(self, progress: Callable[[int], None] | None):
        self.progress = progress
        self.done = 0

    def next(self) -> _Passes:
        self.done = 0
        return self

    def __call__(self, now: int) -> None:
        if self.progress is not None:
            self.progress(now - self.done)
        self.done = now


def bootstrap_passes(refs_dir: Path, names: Sequence[str]) -> int:
    """How many bootstrap passes :func:`score_benchmark` makes over ``names``: one per set and
    one per group of sets sharing clusters (a progress bar's total is this times the resamples).

    Raises:
        JsonlFormatError: a bad sidecar (:func:`.clusters.read_namespace`).
    """
    namespaces = [read_namespace(Path(refs_dir) / f"{name}.jsonl") for name in names]
    return len(names) + len(shared_groups(namespaces, [()] * len(names)))


def score_benchmark(refs_dir: Path, hyps_dir: Path, sets: Sequence[str] | None = None, *,
                    compare_dir: Path | None = None, seed: int = 0, resamples: int = DEFAULT_RESAMPLES,
                    confidence: float = DEFAULT_CONFIDENCE, allow_extra: bool = False,
                    progress: Callable[[int], None] | None = None,
                    measure: Measure = THAI_BENCHMARK) -> BenchmarkScores:
    """Score ``hyps_dir/<set>.jsonl`` (and ``compare_dir/<set>.jsonl``) against ``refs_dir``.

    Args:
        refs_dir: folder of ``<set>.jsonl`` references (``{"id", "text", "cluster"}``).
        hyps_dir: folder of ``<set>.jsonl`` hypotheses (``{"id", "text"}``).
        sets: set names (default: every reference file).
        compare_dir: a second system's hypotheses for the paired comparison.
        seed, resamples, confidence: the cluster bootstrap's (same seed: same intervals).
        allow_extra: list and skip hypothesis ids with no reference instead of failing.
        progress: called with the number of resamples just finished (for a progress bar; the
            total is ``resamples * bootstrap_passes(refs_dir, sets)``).
        measure: how pairs are counted (default ``th_bench_cer``, the Thai benchmark's; for
            another language :func:`.language.measure_for`, the language from
            :func:`.language.benchmark_language`).

    Returns:
        The per-set and overall figures; the overall resamples sets that share a
        ``cluster_namespace`` jointly (:mod:`.clusters`), the others independently.

    Raises:
        UnknownSetError, BenchFileNotFoundError: see :func:`resolve_sets`.
        HypothesesError, JsonlFormatError: see :func:`score_system` and
            :func:`.clusters.read_namespace` (a bad sidecar).
        InputError: (a ``ValueError``) ``seed`` or ``resamples`` out of range.
    """
    import numpy as np

    check_resamples(resamples)
    generator(seed)  # checks the seed before any file is read
    names = resolve_sets(refs_dir, sets)
    passes = _Passes(progress)
    results, set_sums, references_of, columns_of = [], [], [], []
    totals = [EditCounts.zero(), EditCounts.zero()]
    missing: list[list[str]] = [[], []]
    extra: list[list[str]] = [[], []]
    clips: list[list[tuple[str, EditCounts]]] = [[], []]
    for name in names:
        references = ReferenceSet.read(name, Path(refs_dir) / f"{name}.jsonl", measure)
        systems = [score_system(references, Path(hyps_dir) / f"{name}.jsonl", allow_extra=allow_extra, measure=measure)]
        if compare_dir is not None:
            systems.append(score_system(references, Path(compare_dir) / f"{name}.jsonl", allow_extra=allow_extra,
                                        measure=measure))
        columns = [list(systems[0].cluster_lengths)] + [list(system.cluster_errors) for system in systems]
        sums = resampled_sums(columns, generator(seed, name), resamples, passes.next())
        set_sums.append(sums)
        references_of.append(references)
        columns_of.append(columns)
        results.append(_set_score(name, len(references.ids), len(references.clusters), systems, sums, confidence))
        for i, system in enumerate(systems):
            totals[i] = totals[i] + system.counts
            missing[i] += [f"{name}/{ident}" for ident in system.missing]
            extra[i] += [f"{name}/{ident}" for ident in system.extra]
            clips[i] += [(f"{name}/{ident}", counts) for ident, counts in system.clip_counts]
    namespaces = [references.namespace for references in references_of]
    cluster_ids = [references.clusters for references in references_of]
    groups = shared_groups(namespaces, cluster_ids)
    overall_sums, overall_clusters = _overall_sums(groups, set_sums, cluster_ids, columns_of, seed, resamples, passes)
    overall_systems = [SystemScore(results[0].system.hypotheses if i == 0 else results[0].other.hypotheses,
                                   totals[i], tuple(missing[i]), tuple(extra[i]), (), (), tuple(clips[i]))
                       for i in range(1 + (compare_dir is not None))]
    overall = _set_score(OVERALL, sum(r.clips for r in results), overall_clusters, overall_systems,
                         np.asarray(overall_sums), confidence)
    shared = tuple({"namespace": group.namespace, "sets": [names[m] for m in group.members],
                    "clusters": len(group.clusters)} for group in groups)
    return BenchmarkScores(tuple(results), overall, seed, resamples, confidence, shared,
                           tuple(namespace_notes(names, namespaces, groups)), measure)


def _overall_sums(groups: Sequence[SharedGroup], set_sums: Sequence, cluster_ids: Sequence[Sequence[str]],
                  columns_of: Sequence, seed: int, resamples: int, passes: _Passes):
    """The overall's resampled sums and cluster count: each group of sets sharing clusters
    resampled once over the union of its clusters (a stream of the seed and its namespace),
    every other set's own resamples added as they are (stratified)."""
    grouped = {member for group in groups for member in group.members}
    total, clusters = None, 0
    for position, sums in enumerate(set_sums):
        if position not in grouped:
            total = sums if total is None else total + sums
            clusters += len(cluster_ids[position])
    for group in groups:
        sums = resampled_sums(joint_columns(group, cluster_ids, columns_of),
                              generator(seed, f"{NAMESPACE_STREAM}{group.namespace}"), resamples, passes.next())
        total = sums if total is None else total + sums
        clusters += len(group.clusters)
    return total, clusters


def _set_score(name: str, clips: int, clusters: int, systems: list[SystemScore], sums, confidence: float) -> SetScore:
    """Figures of one set (or the overall) from its resampled sums (lengths, errors A[, errors B]).

    References with no length (all empty, or empty once cleaned) have no rate: their intervals
    and comparison are undefined (``None``), not an error, so the other sets are still scored.
    """
    resamples = len(sums)
    if systems[0].counts.reference_length == 0:
        empty = Interval.undefined_rate(confidence, resamples)
        if len(systems) == 1:
            return SetScore(name, clips, clusters, systems[0], empty)
        return SetScore(name, clips, clusters, systems[0], empty, systems[1], empty,
                        PairedComparison.undefined_rate(confidence, resamples))
    ci = _interval(sums[:, 1], sums[:, 0], confidence)
    if len(systems) == 1:
        return SetScore(name, clips, clusters, systems[0], ci)
    a, b = systems
    comparison = paired_comparison(sums[:, [1, 2, 0]], (a.counts.errors, b.counts.errors, a.counts.reference_length),
                                   confidence)
    return SetScore(name, clips, clusters, a, ci, b, _interval(sums[:, 2], sums[:, 0], confidence), comparison)
