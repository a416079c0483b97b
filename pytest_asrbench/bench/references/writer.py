"""Writing ``refs/<set>.jsonl`` and its ``<set>.meta.json`` sidecar, each atomically.

``<set>.jsonl``: one ``{"id", "text", "cluster"}`` object per line, UTF-8 (not ASCII-escaped),
in the set's order. ``<set>.meta.json``: how it was made (schema ``asrbench.refs/1``): set,
clips, clusters, dataset and pinned revision, cleaning version, library versions, and the
SHA-256 of the JSONL file. A reader sees either the old file or the whole new one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.bench.references.model import Reference

META_SCHEMA = "asrbench.refs/1"
#: Libraries whose version is recorded in the sidecar (they read or clean the references).
RECORDED_LIBRARIES = ("huggingface-hub", "pyarrow", "pythainlp")


def references_jsonl(references: Sequence[Reference]) -> bytes:
    """The JSONL bytes of ``references`` (one compact JSON object and ``\\n`` per clip)."""
    return "".join(json.dumps(ref.to_dict(), ensure_ascii=False) + "\n" for ref in references).encode("utf-8")


def write_references(out_dir: Path, name: str, references: Sequence[Reference], meta: dict) -> Path:
    """Write ``out_dir/<name>.jsonl`` and ``out_dir/<name>.meta.json`` (``meta`` plus the schema,
    counts, library versions and the JSONL's SHA-256); return the JSONL path.

    Raises:
        OSError: the folder cannot be created or written (nothing half-written is left).
    """
    data = references_jsonl(references)
    target = Path(out_dir) / f"{name}.jsonl"
    sidecar = {
        "schema": META_SCHEMA,
        "set": name,
        "clips": len(references),
        "clusters": len({ref.cluster for ref in references}),
        **meta,
        "libraries": {library: installed_version(library) for library in RECORDED_LIBRARIES},
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    write_atomic(target, data)
    write_atomic(target.with_name(f"{name}.meta.json"),
                 (json.dumps(sidecar, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return target
