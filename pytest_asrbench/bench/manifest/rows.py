"""Reading a manifest's rows: one JSON object per line, every error naming ``file:line``.

A row is ``{"id", "audio", "reference", "slice", "speaker"}`` (strings; ``id``, ``audio``,
``slice`` and ``speaker`` non-empty) with optional ``duration`` (seconds, a number > 0),
``licence`` and ``consent`` (a row's own provenance, over the sidecar's: ``null`` means the
row has none) and ``intervals`` (long-form rows: ``[{"start", "end", "reference"}]`` in
seconds, for CER by interval). Other keys are refused, so a misspelt ``licence`` never passes
as a row without one. The file must be UTF-8 without a byte order mark; ids are unique.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench._shared.jsonl import json_line, jsonl_lines
from pytest_asrbench.bench.errors import BenchFileNotFoundError, ManifestFormatError

REQUIRED = ("id", "audio", "reference", "slice", "speaker")
OPTIONAL = ("duration", "licence", "consent", "intervals")
#: Fields that must not be empty strings.
NON_EMPTY = ("id", "audio", "slice", "speaker")
#: Marks a row field that is absent (distinct from an explicit ``null``).
ABSENT = object()


@dataclass(frozen=True)
class Interval:
    """A stretch of a long-form row: ``start`` <= ``end`` seconds and its reference text."""

    start: float
    end: float
    reference: str


@dataclass(frozen=True)
class ManifestRow:
    """One manifest line. ``licence`` / ``consent`` are :data:`ABSENT` when the row does not
    set them (the sidecar's apply), ``None`` when it sets them to ``null``."""

    id: str
    audio: str
    reference: str
    slice: str
    speaker: str
    line: int
    duration: float | None = None
    licence: object = ABSENT
    consent: object = ABSENT
    intervals: tuple[Interval, ...] = field(default=())


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _intervals(value: object, where: str) -> tuple[Interval, ...]:
    if not isinstance(value, list) or not value:
        raise ManifestFormatError(f"{where}: intervals must be a non-empty list of {{start, end, reference}}")
    out = []
    for number, item in enumerate(value, start=1):
        at = f"{where}: intervals[{number}]"
        if not isinstance(item, dict) or set(item) != {"start", "end", "reference"}:
            raise ManifestFormatError(f"{at}: must be an object with exactly start, end and reference")
        if not (_number(item["start"]) and _number(item["end"]) and 0 <= item["start"] < item["end"]):
            raise ManifestFormatError(f"{at}: start and end must be seconds with 0 <= start < end")
        if not isinstance(item["reference"], str):
            raise ManifestFormatError(f"{at}: reference must be a string")
        if out and item["start"] < out[-1].end:
            raise ManifestFormatError(f"{at}: starts before the previous interval ends; list them in order")
        out.append(Interval(float(item["start"]), float(item["end"]), item["reference"]))
    return tuple(out)


def _row(value: object, where: str, number: int) -> ManifestRow:
    if not isinstance(value, dict):
        raise ManifestFormatError(f"{where}: a {type(value).__name__}, not a JSON object with {', '.join(REQUIRED)}")
    unknown = sorted(set(value) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise ManifestFormatError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; a row has "
                                  f"{', '.join(REQUIRED)} and optionally {', '.join(OPTIONAL)}")
    for key in REQUIRED:
        if key not in value:
            raise ManifestFormatError(f"{where}: no {key!r} field (each row needs {', '.join(REQUIRED)})")
        if not isinstance(value[key], str):
            raise ManifestFormatError(f"{where}: {key} must be a string, got {type(value[key]).__name__} {value[key]!r}")
    for key in NON_EMPTY:
        if not value[key].strip():
            raise ManifestFormatError(f"{where}: empty {key}")
    duration = value.get("duration")
    if duration is not None and not (_number(duration) and duration > 0):
        raise ManifestFormatError(f"{where}: duration must be a number of seconds > 0, got {duration!r}")
    for key in ("licence", "consent"):
        if key in value and value[key] is not None and not isinstance(value[key], str):
            raise ManifestFormatError(f"{where}: {key} must be a string or null, got {value[key]!r}")
    intervals = _intervals(value["intervals"], where) if "intervals" in value else ()
    return ManifestRow(value["id"], value["audio"], value["reference"], value["slice"], value["speaker"], number,
                       None if duration is None else float(duration), value.get("licence", ABSENT),
                       value.get("consent", ABSENT), intervals)


def read_rows(path: Path) -> list[ManifestRow]:
    """The rows of the manifest ``path`` in file order.

    Raises:
        BenchFileNotFoundError: ``path`` does not exist.
        ManifestFormatError: a line that is not a JSON object with the row fields (see the
            module docstring), a repeated key or id, a byte order mark, bytes that are not
            UTF-8, or no row at all.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BenchFileNotFoundError(f"{path}: no such manifest") from None
    lines = jsonl_lines(data, path, ManifestFormatError)
    rows: list[ManifestRow] = []
    first: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        where = f"{path}:{number}"
        value = json_line(raw, where, ManifestFormatError, "one JSON object")
        row = _row(value, where, number)
        if row.id in first:
            raise ManifestFormatError(f"{where}: id {row.id!r} repeats line {first[row.id]}; ids must be unique")
        first[row.id] = number
        rows.append(row)
    if not rows:
        raise ManifestFormatError(f"{path}: the manifest has no row")
    return rows
