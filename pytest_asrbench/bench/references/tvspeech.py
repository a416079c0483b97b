"""TVSpeech test split (``typhoon-ai/TVSpeech``, parquet; columns ``audio_id``, ``sentence``).

Rules (reference-builder specification): id = the row index in the split (files in name order,
rows in file order), as a string; text = ``sentence`` as it is (not cleaned); cluster = the
YouTube video id, which is ``audio_id`` without its last two ``_``-separated fields (a video id
may itself contain ``_``). :func:`row_order` gives a clip's place for ``tv_long``.
"""

from __future__ import annotations

from pytest_asrbench.bench.errors import SourceFormatError
from pytest_asrbench.bench.references.hub import HubSource
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.parquet import read_split
from pytest_asrbench.bench.references.pins import TVSPEECH

SPLIT = "test"
COLUMNS = ["audio_id", "sentence"]


def video_id(audio_id: str) -> str:
    """``"dQw4_w9WgXcQ_12_3"`` -> ``"dQw4_w9WgXcQ"``.

    Raises:
        SourceFormatError: ``audio_id`` has fewer than two ``_`` after a non-empty video id.
    """
    parts = audio_id.rsplit("_", 2) if isinstance(audio_id, str) else []
    if len(parts) != 3 or not parts[0]:
        raise SourceFormatError(f"{TVSPEECH}: audio_id {audio_id!r} is not <video id>_<a>_<b>")
    return parts[0]


def row_order(reference: Reference) -> int:
    """The row index of a ``tvspeech`` clip (its id)."""
    return int(reference.id)


def build_tvspeech(source: HubSource) -> list[Reference]:
    """The ``tvspeech`` set, in row order.

    Raises:
        SourceFormatError: a column is missing, or an ``audio_id`` has not the video-id shape.
    """
    rows = read_split(source, TVSPEECH, SPLIT, COLUMNS)
    return [Reference(id=str(index), text=row["sentence"], cluster=video_id(row["audio_id"]))
            for index, row in enumerate(rows)]
