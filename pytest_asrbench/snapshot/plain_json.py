"""The JSON text of a case output made of plain JSON values, in one walk.

:func:`plain_json` gives, byte for byte, ``json.dumps(data, indent=2, ensure_ascii=False,
sort_keys=True) + "\\n"`` (the text a case snapshot holds) for data of JSON scalars (``str``,
``int``, ``float``, ``bool``, ``None``: exactly these types, no subclasses), lists, tuples and
dicts with ``str`` keys, nested at most ``max_depth`` containers deep; for anything else it
returns ``None`` and the caller uses syrupy's serializer. The standard library writes indented
JSON with its pure-Python encoder (its C encoder serves only unindented output); this walk does
the same job with fewer calls per value and checks the types on the way, so an output is walked
once instead of twice. ``tests/test_snapshot_plain_json.py`` compares it with ``json.dumps`` on
generated values.
"""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Any

_INFINITY = float("inf")


def _float_text(value: float) -> str:
    """``json.dumps``'s text of a float: ``NaN``, ``Infinity``, ``-Infinity`` or its repr."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def plain_json(data: Any, max_depth: int) -> str | None:
    """The snapshot text of ``data`` (see the module docstring), or ``None`` when ``data``
    holds anything but plain JSON values or nests containers ``max_depth`` deep or more."""
    parts: list[str] = []
    if not _write(data, 0, max_depth, parts):
        return None
    parts.append("\n")
    return "".join(parts)


def _write(value: Any, depth: int, max_depth: int, parts: list[str]) -> bool:
    kind = type(value)
    if kind is str:
        parts.append(encode_basestring(value))
    elif value is None:
        parts.append("null")
    elif kind is bool:
        parts.append("true" if value else "false")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif kind is float:
        parts.append(_float_text(value))
    elif depth >= max_depth:
        return False
    elif kind is dict:
        if not value:
            parts.append("{}")
            return True
        for key in value:
            if type(key) is not str:
                return False
        inner = ",\n" + "  " * (depth + 1)
        separator = inner[1:]
        parts.append("{")
        for key in sorted(value):
            parts.append(separator)
            separator = inner
            parts.append(encode_basestring(key))
            parts.append(": ")
            if not _write(value[key], depth + 1, max_depth, parts):
                return False
        parts.append("\n" + "  " * depth + "}")
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
            return True
        inner = ",\n" + "  " * (depth + 1)
        separator = inner[1:]
        parts.append("[")
        for item in value:
            parts.append(separator)
            separator = inner
            if not _write(item, depth + 1, max_depth, parts):
                return False
        parts.append("\n" + "  " * depth + "]")
    else:
        return False
    return True
