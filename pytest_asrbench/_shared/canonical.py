"""Canonical JSON: the byte form of a value that hashes the same whatever its key order."""

from __future__ import annotations

import json


def canonical_json(value: object) -> bytes:
    """UTF-8 JSON of ``value`` with sorted keys, no spaces and non-ASCII kept as is.

    Raises:
        TypeError: ``value`` holds something JSON cannot encode.
    """
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
