"""Isan dialect test split (``typhoon-ai/thai-dialect-isan-dataset``, parquet; columns ``id``,
``raw``, ``name``).

Rules (reference-builder specification): id = the dataset's ``id``; text = ``raw`` with every
dialect word marked ``[isan spelling]<thai spelling>`` replaced by its Thai spelling (the
``thai_spelling`` column is not used: it does not line up with ``raw``); not cleaned otherwise;
cluster = the speaker, the third ``;``-separated field of ``name`` (e.g.
``opentyphoon;is;f_011;fin;0674.wav`` -> ``f_011``), or of ``id`` when ``name`` is empty.
Text outside a complete ``[...]<...>`` pair is kept as it is.
"""

from __future__ import annotations

import re

from pytest_asrbench.bench.errors import SourceFormatError
from pytest_asrbench.bench.references.hub import HubSource
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.parquet import read_split
from pytest_asrbench.bench.references.pins import ISAN

SPLIT = "test"
COLUMNS = ["id", "raw", "name"]
DIALECT_PAIR = re.compile(r"\[([^\]]*)\]<([^>]*)>")


def thai_spelling(raw: str) -> str:
    """``raw`` with each ``[isan]<thai>`` pair replaced by ``thai``:
    ``"[เฮ็ด]<ทำ>อะไร"`` -> ``"ทำอะไร"``."""
    return DIALECT_PAIR.sub(lambda match: match.group(2), raw)


def speaker(row: dict) -> str:
    """The speaker field of a row's ``name`` (or ``id`` when ``name`` is empty).

    Raises:
        SourceFormatError: that value has fewer than three ``;``-separated fields.
    """
    value = row.get("name") or row.get("id")
    parts = value.split(";") if isinstance(value, str) else []
    if len(parts) < 3 or not parts[2]:
        raise SourceFormatError(f"{ISAN}: row id {row.get('id')!r}: cannot read the speaker from "
                                f"{value!r} (expected like opentyphoon;is;f_011;fin;0674.wav)")
    return parts[2]


def build_isan(source: HubSource) -> list[Reference]:
    """The ``isan`` set, in row order.

    Raises:
        SourceFormatError: a column is missing, ``raw`` is not text, or the speaker is unreadable.
    """
    references = []
    for row in read_split(source, ISAN, SPLIT, COLUMNS):
        if not isinstance(row["raw"], str):
            raise SourceFormatError(f"{ISAN}: row id {row['id']!r} has no raw transcript ({row['raw']!r})")
        references.append(Reference(id=str(row["id"]), text=thai_spelling(row["raw"]), cluster=speaker(row)))
    return references
