"""Reading benchmark JSONL files: one JSON object per line, ids unique, errors at ``file:line``.

References (``refs/<set>.jsonl``, written by ``asrbench refs build``) have ``id``, ``text`` and
``cluster``; hypotheses (``hypotheses/<set>.jsonl``) have ``id`` and ``text``. Other keys are
allowed and ignored. Every value read must be a string; ``id`` (and ``cluster``) non-empty.
A key may appear once per object (RFC 8259 leaves repeats undefined; Python's ``json`` would
keep the last silently), and the file must not start with a UTF-8 byte order mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.jsonl import json_line, jsonl_lines
from pytest_asrbench.bench.errors import BenchFileNotFoundError, JsonlFormatError


@dataclass(frozen=True, slots=True)
class Record:
    """One line of a JSONL file: its fields, and ``line`` (1-based) for messages."""

    id: str
    text: str
    cluster: str | None
    line: int


def read_records(path: Path, *, with_cluster: bool) -> list[Record]:
    """The records of ``path`` in file order.

    Args:
        path: a UTF-8 JSONL file.
        with_cluster: require a ``cluster`` field (reference files) or not (hypothesis files).

    Raises:
        BenchFileNotFoundError: ``path`` does not exist (the message names it).
        JsonlFormatError: a line that is not a JSON object (blank lines included), a missing or
            non-string ``id``/``text``/``cluster``, an empty id or cluster, a key repeated in one
            line, a repeated id (names both lines), a leading UTF-8 byte order mark, or bytes
            that are not UTF-8.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BenchFileNotFoundError(f"{path}: no such file") from None
    lines = jsonl_lines(data, path, JsonlFormatError)
    required = ("id", "text", "cluster") if with_cluster else ("id", "text")
    records: list[Record] = []
    first_line: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        where = f"{path}:{number}"
        value = json_line(raw, where, JsonlFormatError, "one JSON object")
        if not isinstance(value, dict):
            raise JsonlFormatError(f"{where}: a {type(value).__name__}, not a JSON object with {', '.join(required)}")
        for key in required:
            if key not in value:
                raise JsonlFormatError(f"{where}: no {key!r} field (each line needs {', '.join(required)})")
            if not isinstance(value[key], str):
                raise JsonlFormatError(f"{where}: {key} must be a string, got {type(value[key]).__name__} {value[key]!r}")
        for key in ("id", "cluster") if with_cluster else ("id",):
            if not value[key].strip():
                raise JsonlFormatError(f"{where}: empty {key}")
        ident = value["id"]
        if ident in first_line:
            raise JsonlFormatError(f"{where}: id {ident!r} repeats line {first_line[ident]}; ids must be unique in a file")
        first_line[ident] = number
        records.append(Record(ident, value["text"], value.get("cluster") if with_cluster else None, number))
    return records
