"""Building a benchmark set: read it, check its ids and count, write it.

:func:`build_set` is the whole of one set; ``asrbench refs build`` calls it per set. A set is
written only when every check passed, so a failed set leaves its previous files untouched.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.bench.errors import BenchError, DuplicateIdError, ReferenceCountError
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.pins import EXPECTED_CLIPS, REVISIONS
from pytest_asrbench.bench.references.sets import BuildContext, SetSpec
from pytest_asrbench.bench.references.writer import write_references


@dataclass(frozen=True)
class BuiltSet:
    """What :func:`build_set` wrote: the set, its clip and cluster counts, the JSONL path and
    the seconds it took (reading included)."""

    name: str
    clips: int
    clusters: int
    path: Path
    seconds: float


def check_references(spec: SetSpec, references: list[Reference], expected: Mapping[str, int]) -> None:
    """Ids unique and the clip count equal to ``expected[spec.name]``.

    Raises:
        DuplicateIdError: some ids repeat (up to five are named).
        ReferenceCountError: the count differs from the expected one.
    """
    repeated = [clip_id for clip_id, count in Counter(ref.id for ref in references).items() if count > 1]
    if repeated:
        raise DuplicateIdError(
            f"{spec.name}: {len(repeated)} ids occur more than once (e.g. {', '.join(map(repr, repeated[:5]))}); "
            f"the id rule of the set does not fit {spec.dataset} at {REVISIONS[spec.dataset][:12]}: nothing was written")
    want = expected[spec.name]
    if len(references) != want:
        raise ReferenceCountError(
            f"{spec.name}: built {len(references)} clips, expected {want} ({spec.dataset} at "
            f"{REVISIONS[spec.dataset][:12]}); the source or a rule changed, so these would not be the "
            "benchmark's references: nothing was written for this set (report it; new counts are a "
            "new reference version in pytest_asrbench/bench/references/pins.py)")


def build_set(spec: SetSpec, context: BuildContext, out_dir: Path,
              expected: Mapping[str, int] = EXPECTED_CLIPS) -> BuiltSet:
    """Build ``spec`` from ``context`` and write ``out_dir/<set>.jsonl`` (and its sidecar).

    Raises:
        BenchError subclasses, their message starting with the set's name: the hub could not be
            read (offline, gated, missing revision or file), a row does not fit the set's rules,
            an id repeats, or the count is not the expected one (nothing is written then), or
            a file cannot be written (OutputPathError).
    """
    started = time.perf_counter()
    try:
        references = spec.build(context)
        check_references(spec, references, expected)
    except BenchError as exc:
        raise exc.for_set(spec.name) from exc
    try:
        path = write_references(out_dir, spec.name, references, {
            "dataset": spec.dataset,
            "revision": REVISIONS[spec.dataset],
            "cleaning": spec.cleaning,
            "cluster_namespace": spec.cluster_namespace,
            "language": "th",
        })
    except BenchError as exc:
        raise exc.for_set(spec.name) from exc
    return BuiltSet(spec.name, len(references), len({ref.cluster for ref in references}), path,
                    time.perf_counter() - started)
