"""The eleven sets of the Thai benchmark: name -> dataset and how its references are built.

A set's builder takes a :class:`BuildContext`, which keeps the rows a build has read so that
sets sharing a source read it once (``tvspeech`` and ``tv_long``; ``gs2`` and ``gs2_long``; the
five LOTUSDIS microphones share one read of the split).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pytest_asrbench.bench.errors import UnknownSetError
import pytest_asrbench.bench.references.fleurs as fleurs
import pytest_asrbench.bench.references.gigaspeech2 as gigaspeech2
import pytest_asrbench.bench.references.isan as isan
import pytest_asrbench.bench.references.lotusdis as lotusdis
import pytest_asrbench.bench.references.tvspeech as tvspeech
from pytest_asrbench.bench.references.cleaning import THAI_BENCHMARK_CLEANING
from pytest_asrbench.bench.references.hub import HubSource
from pytest_asrbench.bench.references.longform import join_recordings
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.parquet import read_split
from pytest_asrbench.bench.references.pins import (
    FLEURS,
    GIGASPEECH2,
    GS2_LONG_EXCLUDED,
    ISAN,
    LOTUS_MICS,
    LOTUSDIS,
    TVSPEECH,
)


@dataclass
class BuildContext:
    """What one build reads from: the source, and the rows already read (by key)."""

    source: HubSource
    _memo: dict[str, Any] = field(default_factory=dict)

    def once(self, key: str, read: Callable[[], Any]) -> Any:
        """``read()`` the first time ``key`` is asked for; the same value afterwards."""
        if key not in self._memo:
            self._memo[key] = read()
        return self._memo[key]


@dataclass(frozen=True)
class SetSpec:
    """A benchmark set: its ``name``, the ``dataset`` it is read from, whether its texts go
    through the benchmark ``cleaning`` (a version name or None), its ``build`` function, and
    ``cluster_namespace``: what its cluster ids identify. Sets with one namespace hold the same
    clusters (a short-form set and its long-form joins, the five LOTUSDIS microphones), and
    ``bench score`` resamples them jointly for the overall interval."""

    name: str
    dataset: str
    cleaning: str | None
    build: Callable[[BuildContext], list[Reference]]
    cluster_namespace: str


def _tvspeech(ctx: BuildContext) -> list[Reference]:
    return ctx.once("tvspeech", lambda: tvspeech.build_tvspeech(ctx.source))


def _gs2(ctx: BuildContext) -> list[Reference]:
    return ctx.once("gs2", lambda: gigaspeech2.build_gs2(ctx.source))


def _lotus(mic: str) -> Callable[[BuildContext], list[Reference]]:
    def build(ctx: BuildContext) -> list[Reference]:
        rows = ctx.once("lotusdis", lambda: read_split(ctx.source, LOTUSDIS, lotusdis.SPLIT, lotusdis.COLUMNS))
        return lotusdis.lotus_references(rows, mic)
    return build


_SPECS = [
    SetSpec("fleurs", FLEURS, THAI_BENCHMARK_CLEANING, lambda ctx: fleurs.build_fleurs(ctx.source), f"{FLEURS} clip"),
    SetSpec("tvspeech", TVSPEECH, None, _tvspeech, f"{TVSPEECH} video"),
    SetSpec("gs2", GIGASPEECH2, THAI_BENCHMARK_CLEANING, _gs2, f"{GIGASPEECH2} recording"),
    SetSpec("isan", ISAN, None, lambda ctx: isan.build_isan(ctx.source), f"{ISAN} speaker"),
    *(SetSpec(f"lotus_{mic}", LOTUSDIS, None, _lotus(mic), f"{LOTUSDIS} meeting") for mic in LOTUS_MICS),
    SetSpec("tv_long", TVSPEECH, None, lambda ctx: join_recordings(_tvspeech(ctx), tvspeech.row_order),
            f"{TVSPEECH} video"),
    SetSpec("gs2_long", GIGASPEECH2, THAI_BENCHMARK_CLEANING,
            lambda ctx: join_recordings(_gs2(ctx), gigaspeech2.segment_order, GS2_LONG_EXCLUDED),
            f"{GIGASPEECH2} recording"),
]

#: Set name -> spec, in the build order (that of :data:`pins.EXPECTED_CLIPS`).
SETS: MappingProxyType[str, SetSpec] = MappingProxyType({spec.name: spec for spec in _SPECS})


def resolve_sets(names: list[str] | None) -> list[SetSpec]:
    """The specs of ``names`` (all sets when None or empty), in the order given, once each.

    Raises:
        UnknownSetError: a name is not a set (the message lists the sets).
    """
    if not names:
        return list(SETS.values())
    unknown = [name for name in names if name not in SETS]
    if unknown:
        raise UnknownSetError(f"unknown set {', '.join(unknown)}; the sets are: {' '.join(SETS)}")
    return [SETS[name] for name in dict.fromkeys(names)]
