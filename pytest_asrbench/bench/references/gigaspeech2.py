"""GigaSpeech2 Thai test set (``speechcolab/gigaspeech2``, ``data/th/test.tsv``; gated).

Rules (reference-builder specification): one segment per line, ``<segment id>\\t<text>``; the
segment id is ``<recording>-<index>`` (e.g. ``0-0``); text cleaned with the benchmark cleaning;
cluster = the recording (``0``). :func:`segment_order` gives a segment's place in its recording
(for ``gs2_long``).
"""

from __future__ import annotations

import re

from pytest_asrbench.bench.errors import SourceFormatError
from pytest_asrbench.bench.references.cleaning import cleaner
from pytest_asrbench.bench.references.hub import HubSource
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.pins import GIGASPEECH2
from pytest_asrbench.bench.references.transcripts import read_transcript_rows

PATH = "data/th/test.tsv"
SEGMENT_ID = re.compile(r"([^-\s]+)-(\d+)")


def _recording(segment_id: str, where: str) -> str:
    match = SEGMENT_ID.fullmatch(segment_id)
    if match is None:
        raise SourceFormatError(f"{where}: segment id {segment_id!r} is not <recording>-<index> (e.g. 0-0)")
    return match.group(1)


def segment_order(reference: Reference) -> int:
    """The index of a ``gs2`` segment in its recording (``"3-12"`` -> 12)."""
    return int(reference.id.rsplit("-", 1)[1])


def build_gs2(source: HubSource) -> list[Reference]:
    """The ``gs2`` set, in file order.

    Raises:
        SourceFormatError: a line is not two fields, or a segment id is not ``<recording>-<index>``.
        GatedDatasetError: no Hugging Face login, or the access terms are not accepted.
    """
    rows = read_transcript_rows(source, GIGASPEECH2, PATH, 2)
    clean = cleaner()
    return [Reference(id=fields[0], text=clean(fields[1]),
                      cluster=_recording(fields[0], f"{GIGASPEECH2}/{PATH} line {number}"))
            for number, fields in rows]
