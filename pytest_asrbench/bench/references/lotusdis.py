"""LOTUSDIS test split (``nectec/LOTUSDIS``, parquet; columns ``audio.path``, ``sentence``,
``mic``), one set per microphone.

Rules (reference-builder specification): the same 5,516 turns exist on all five devices; a
set keeps the rows whose ``mic`` equals its microphone name exactly (``con123``, ``lav123``,
``jbl``, ``bt3m``, ``bt10m``); id = the file name of ``audio.path`` without its extension
(``Hijack_S013_T014_Con123_chunk215``); text = ``sentence`` as it is; cluster = the meeting,
the ``_S<digits>_`` part of the id (``S013``). Only the ``path`` field of the ``audio`` struct is
read, never its ``bytes``.
"""

from __future__ import annotations

import posixpath
import re

from pytest_asrbench.bench.errors import SourceFormatError
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.pins import LOTUSDIS

SPLIT = "test"
COLUMNS = ["audio.path", "sentence", "mic"]
MEETING = re.compile(r"_(S\d+)_")


def clip_name(path: str) -> str:
    """``"x/Hijack_S013_T014_Con123_chunk215.wav"`` -> ``"Hijack_S013_T014_Con123_chunk215"``.

    Raises:
        SourceFormatError: ``path`` is not a string with a file extension.
    """
    name = posixpath.basename(path) if isinstance(path, str) else ""
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem or not extension:
        raise SourceFormatError(f"{LOTUSDIS}: audio.path {path!r} is not a file name with an extension")
    return stem


def lotus_references(rows: list[dict], mic: str) -> list[Reference]:
    """The references of microphone ``mic`` among the split's ``rows`` (row order).

    Raises:
        SourceFormatError: a row's audio path has no extension or no ``_S<digits>_`` meeting.
    """
    references = []
    for row in rows:
        if row["mic"] != mic:
            continue
        name = clip_name((row.get("audio") or {}).get("path"))
        meeting = MEETING.search(name)
        if meeting is None:
            raise SourceFormatError(f"{LOTUSDIS}: clip {name!r} has no _S<digits>_ meeting in its name")
        references.append(Reference(id=name, text=row["sentence"], cluster=meeting.group(1)))
    return references
