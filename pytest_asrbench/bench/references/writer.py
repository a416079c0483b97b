"""Writing ``refs/<set>.jsonl`` and its ``<set>.meta.json`` sidecar, each atomically.

``<set>.jsonl``: one ``{"id", "text", "cluster"}`` object per line, UTF-8 (not ASCII-escaped),
in the set's order. ``<set>.meta.json``: how it was made (schema ``asrbench.refs/1``): set,
clips, clusters, dataset and pinned revision, cleaning version, the cluster namespace (what
the cluster ids identify; sets sharing one are resampled jointly by ``bench score``), library
versions, and the SHA-256 of the JSONL file. A reader sees either the old file or the whole new one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from pytest_asrbench._shared.paths import os_reason
from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.bench.errors import OutputPathError
from pytest_asrbench.bench.outputs import write_output
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

    ``out_dir`` is created when missing, but not its parents (checked before the build by
    :func:`pytest_asrbench.bench.outputs.check_outputs`).

    Raises:
        OutputPathError: ``out_dir`` cannot be created or a file cannot be written (names the
            file and the reason; nothing half-written is left).
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
    try:
        Path(out_dir).mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"--out {out_dir}: cannot create the folder: {os_reason(exc)}") from exc
    write_output("--out", target, data)
    write_output("--out", target.with_name(f"{name}.meta.json"),
                 (json.dumps(sidecar, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return target
