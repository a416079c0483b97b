"""Reading a reference set's sidecar ``<set>.meta.json``: the JSON object next to ``<set>.jsonl``.

``asrbench refs build`` writes it (schema ``asrbench.refs/1``); a team's own benchmark may write
it by hand. The scorer reads two keys: ``cluster_namespace`` (:mod:`.clusters`) and
``language`` (:mod:`.measure`); the others describe how the set was made.
"""

from __future__ import annotations

import json
from pathlib import Path

from pytest_asrbench.bench.errors import JsonlFormatError


def sidecar_path(references: Path) -> Path:
    """``<set>.meta.json`` next to the references file ``<set>.jsonl``."""
    return Path(references).with_suffix(".meta.json")


def read_sidecar(references: Path) -> dict | None:
    """The sidecar object of the references file ``references``, or ``None`` without a sidecar.

    Raises:
        JsonlFormatError: the sidecar exists but is not UTF-8 JSON or not an object (the message
            names the file and what to write).
    """
    sidecar = sidecar_path(references)
    try:
        data = sidecar.read_bytes()
    except FileNotFoundError:
        return None
    try:
        meta = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise JsonlFormatError(f"{sidecar}: not UTF-8 JSON ({exc}); rebuild it with asrbench refs build "
                               "or write a JSON object") from None
    if not isinstance(meta, dict):
        raise JsonlFormatError(f"{sidecar}: a {type(meta).__name__}, not a JSON object")
    return meta
