"""Tab-separated transcript files (FLEURS, GigaSpeech2): the rows of a pinned file."""

from __future__ import annotations

from pytest_asrbench.bench.errors import SourceFormatError
from pytest_asrbench.bench.references.hub import HubSource


def read_transcript_rows(source: HubSource, repo: str, path: str, fields: int) -> list[tuple[int, list[str]]]:
    """``(line number, fields)`` of every non-empty line of ``path`` (UTF-8, no header), split at
    tabs; a ``\\r`` before the newline is dropped, nothing else is stripped.

    Raises:
        SourceFormatError: the file is not UTF-8, or a line has another number of fields than ``fields``.
        HubError subclasses: the file could not be downloaded (see :mod:`.hub`).
    """
    local = source.fetch(repo, path)
    try:
        text = local.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SourceFormatError(f"{repo}/{path} is not UTF-8 ({exc})") from exc
    rows = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) != fields:
            raise SourceFormatError(
                f"{repo}/{path} line {number} has {len(parts)} tab-separated fields, expected {fields}: {line[:80]!r}")
        rows.append((number, parts))
    return rows
