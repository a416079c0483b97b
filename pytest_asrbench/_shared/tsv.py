"""TSV tables (lexicons): the rows of a file, the same way for the normalizer and the signatures."""

from __future__ import annotations

from collections.abc import Iterator


def tsv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """``(line number, fields)`` of each row of ``text``: 1-based numbers; fields split at
    tabs and not stripped; blank lines and lines whose first non-space character is ``#`` skipped.
    """
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        yield number, line.split("\t")
