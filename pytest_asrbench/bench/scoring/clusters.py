"""Which scored sets share their clusters, and the joint per-cluster sums of those that do.

A set's clusters are what the bootstrap resamples (speakers, recordings, videos, meetings).
Two sets can hold the same clusters: a long-form set joins the clips of the short-form set's
recordings (``tvspeech`` and ``tv_long``, ``gs2`` and ``gs2_long``), and the five LOTUSDIS
microphones record the same meetings. A set says so in its sidecar ``<set>.meta.json``
(written by ``asrbench refs build``, :mod:`.sidecar`) with ``"cluster_namespace"``: a name for what its cluster
ids identify (``"typhoon-ai/TVSpeech video"``). Sets with the same namespace share cluster ids:
the cluster ``"abc"`` of one is the cluster ``"abc"`` of the other.

The overall interval resamples each namespace's clusters once, jointly for all its sets (a
drawn speaker brings its clips from every set), and sets of different namespaces
independently (stratified: each draws its own clusters), so a speaker who is hard in one set
and in the other is counted as one unit of evidence, not two. A set without a sidecar, or
whose sidecar names no namespace, is its own namespace; :func:`namespace_notes` says so.
Source: Field & Welsh, "Bootstrapping clustered data", JRSS B 69 (2007) (resample the
independent units; here, the clusters shared across sets).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.bench.errors import JsonlFormatError
from pytest_asrbench.bench.scoring.sidecar import read_sidecar, sidecar_path

#: The sidecar key naming what a set's cluster ids identify.
NAMESPACE_KEY = "cluster_namespace"


@dataclass(frozen=True)
class Namespace:
    """Where a set's clusters come from: ``name`` (``None``: the set is its own namespace) and
    ``why`` (the sidecar's path, or why it has no namespace), for notes and errors."""

    name: str | None
    why: str


def read_namespace(references: Path) -> Namespace:
    """The cluster namespace of the references file ``references`` (``<set>.jsonl``), read from
    its sidecar ``<set>.meta.json``.

    Raises:
        JsonlFormatError: the sidecar exists but is not UTF-8 JSON, not an object, or its
            ``cluster_namespace`` is not a non-empty string (the message names the file and
            what to write).
    """
    sidecar = sidecar_path(references)
    meta = read_sidecar(references)
    if meta is None:
        return Namespace(None, f"no {sidecar.name}")
    if NAMESPACE_KEY not in meta:
        return Namespace(None, f"{sidecar.name} names no {NAMESPACE_KEY}")
    name = meta[NAMESPACE_KEY]
    if not isinstance(name, str) or not name.strip():
        raise JsonlFormatError(f"{sidecar}: {NAMESPACE_KEY} must be a non-empty string naming what the cluster ids "
                               f"identify (e.g. \"my-corpus speaker\"), got {name!r}")
    return Namespace(name, str(sidecar))


@dataclass(frozen=True)
class SharedGroup:
    """Sets (by position in the scored order) resampled jointly: their namespace, members and
    the union of their cluster ids (in order of first appearance, set by set)."""

    namespace: str
    members: tuple[int, ...]
    clusters: tuple[str, ...]


def shared_groups(namespaces: Sequence[Namespace], clusters: Sequence[Sequence[str]]) -> list[SharedGroup]:
    """Groups of two or more sets with the same namespace, in the order their first set is
    scored; a set alone in its namespace is in no group (its own resamples serve the overall).

    Args:
        namespaces: each scored set's namespace.
        clusters: each scored set's cluster ids (in its order).
    """
    by_name: dict[str, list[int]] = {}
    for position, namespace in enumerate(namespaces):
        if namespace.name is not None:
            by_name.setdefault(namespace.name, []).append(position)
    groups = []
    for name, members in by_name.items():
        if len(members) < 2:
            continue
        union: dict[str, None] = {}
        for member in members:
            union.update(dict.fromkeys(clusters[member]))
        groups.append(SharedGroup(name, tuple(members), tuple(union)))
    return groups


def joint_columns(group: SharedGroup, clusters: Sequence[Sequence[str]],
                  columns: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    """Per-cluster sums over the group's sets, one value per cluster of the union.

    Args:
        clusters: each scored set's cluster ids.
        columns: each scored set's per-cluster columns (lengths, errors A[, errors B]), the
            same number of columns for every set, in its cluster order.

    Returns:
        The columns of the union: column c, cluster u holds the sum of column c over the
        group's sets for cluster u (0 for a set without u).
    """
    where = {cluster: index for index, cluster in enumerate(group.clusters)}
    width = len(columns[group.members[0]])
    out = [[0] * len(group.clusters) for _ in range(width)]
    for member in group.members:
        for cluster, *values in zip(clusters[member], *columns[member]):
            for column, value in enumerate(values):
                out[column][where[cluster]] += value
    return out


def namespace_notes(names: Sequence[str], namespaces: Sequence[Namespace], groups: Sequence[SharedGroup]) -> list[str]:
    """One line per group resampled jointly, and one per set resampled on its own for want of
    a declared namespace (only when more than one set is scored: the overall then depends on it)."""
    if len(names) < 2:
        return []
    notes = [f"overall: {' + '.join(names[m] for m in group.members)} share clusters ({NAMESPACE_KEY} "
             f"{group.namespace!r}, {len(group.clusters)} clusters): resampled jointly" for group in groups]
    notes += [f"overall: {name} resampled on its own ({namespace.why}; declare {NAMESPACE_KEY} there if its "
              "clusters are another set's)" for name, namespace in zip(names, namespaces) if namespace.name is None]
    return notes
