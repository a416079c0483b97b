"""Lexicon files: two-column TSV tables (``key<TAB>value``) that configs name.

Blank lines and lines starting with ``#`` are ignored. A line without exactly one tab,
an empty key, or a key listed twice is an error naming the file and line: a lexicon
with a silently dropped or shadowed entry would change scores unnoticed.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from pytest_asrbench._shared.tsv import tsv_rows
from pytest_asrbench.errors import ConfigError


def load_lexicon(path: Path, shown: Path | str | None = None) -> dict[str, str]:
    """Read a TSV lexicon into ``{key: value}``; keys and values are NFC-normalized.

    ``shown`` is the file the messages name (default ``path``): a project's own lexicon, not
    its copy in the merged configs folder.

    Raises:
        ConfigError: missing file, malformed line, empty key or duplicate key
            (message: ``path:line: what is wrong``).
    """
    if not path.is_file():
        raise ConfigError(f"{path}: lexicon file not found; fix the path in the language config's [lexicons]")
    path_shown = path if shown is None else shown
    table: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, parts in tsv_rows(path.read_text(encoding="utf-8")):
        if len(parts) != 2:
            raise ConfigError(
                f"{path_shown}:{number}: expected 'key<TAB>value' (one tab), found {len(parts) - 1} tab(s)"
            )
        key, value = (unicodedata.normalize("NFC", part.strip()) for part in parts)
        if not key:
            raise ConfigError(f"{path_shown}:{number}: empty key")
        if key in table:
            raise ConfigError(
                f"{path_shown}:{number}: duplicate key {key!r} (first on line {first_line[key]}); keep one entry"
            )
        table[key] = value
        first_line[key] = number
    return table
