"""JSON Lines input read one way everywhere: UTF-8 without a byte order mark, each key once.

RFC 8259 leaves an object's repeated key undefined and Python's :mod:`json` silently keeps the
last one, so a line like ``{"text": "a", "text": "b"}`` would be scored as ``"b"`` with no
word: :func:`unique_keys` refuses it instead. A byte order mark at the start of a JSONL file
would otherwise end up in the first line's first key or value. The error class is the
caller's (a benchmark file, a manifest), so each stage keeps its own exception type.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any


class RepeatedKeyError(ValueError):
    """A key that appears twice in one JSON object; ``key`` is that key."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads` that refuses a repeated key.

    Raises:
        RepeatedKeyError: (a ``ValueError``) a key appears twice in one object.
    """
    value: dict[str, Any] = {}
    for key, item in pairs:
        if key in value:
            raise RepeatedKeyError(key)
        value[key] = item
    return value


def loads_unique(text: str) -> Any:
    """``json.loads(text)`` with :func:`unique_keys` on every object.

    Raises:
        RepeatedKeyError: a key appears twice in one object (check it before ``ValueError``).
        json.JSONDecodeError: (a ``ValueError``) ``text`` is not JSON.
    """
    return json.loads(text, object_pairs_hook=unique_keys)


def json_line(raw: str, where: str, error: type[Exception], expected: str) -> Any:
    """One JSONL line parsed with :func:`loads_unique`, its faults said one way everywhere.

    Args:
        raw: the line, without its newline; ``where`` names it (``path:line``).
        error: the exception class to raise, called with the message.
        expected: what each line must be, for the message (``"one JSON object"``).

    Raises:
        error: a key appears twice in one object, or the line is not JSON (the message shows
            the parser's reason and the line's first 60 characters).
    """
    try:
        return loads_unique(raw)
    except RepeatedKeyError as exc:
        raise error(f"{where}: the key {exc.key!r} appears twice in this line; keep one") from None
    except ValueError as exc:
        shown = raw if len(raw) <= 60 else raw[:57] + "..."
        raise error(f"{where}: not JSON ({exc.args[0] if exc.args else exc}, in {shown!r}); "
                    f"each line must be {expected}") from None


def jsonl_lines(data: bytes, path: Path | str, error: type[Exception]) -> list[str]:
    """The lines of a JSONL file's bytes ``data``, without their ``\\n`` (a final newline ends
    the last line, it opens no empty one; every other line is kept, blank ones included).

    Args:
        data: the file's bytes; ``path`` names it in messages.
        error: the exception class to raise, called with the message.

    Raises:
        error: ``data`` starts with a UTF-8 byte order mark, or is not UTF-8.
    """
    if data.startswith(codecs.BOM_UTF8):
        raise error(f"{path}:1: the file starts with a UTF-8 byte order mark: save it without one")
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 ({exc}); save it as UTF-8") from None
    if lines and lines[-1] == "":
        lines.pop()
    return lines
