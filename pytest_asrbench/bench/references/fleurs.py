"""FLEURS Thai test set (``google/fleurs``, ``data/th_th/test.tsv``).

Rules (reference-builder specification): one clip per line; id = the wav file name (the
second column); text = the ``transcription`` column (the fourth) cleaned with the benchmark
cleaning; cluster = the clip itself (FLEURS sentences are read by several speakers, but each
recording is scored on its own).
"""

from __future__ import annotations

from pytest_asrbench.bench.references.cleaning import cleaner
from pytest_asrbench.bench.references.hub import HubSource
from pytest_asrbench.bench.references.model import Reference
from pytest_asrbench.bench.references.pins import FLEURS
from pytest_asrbench.bench.references.transcripts import read_transcript_rows

PATH = "data/th_th/test.tsv"
#: id, file name, raw transcription, transcription, phonemes, samples, gender
COLUMNS = ("id", "file_name", "raw_transcription", "transcription", "phonemes", "num_samples", "gender")


def build_fleurs(source: HubSource) -> list[Reference]:
    """The ``fleurs`` set, in file order.

    Raises:
        SourceFormatError: a line does not have the seven FLEURS columns.
    """
    rows = read_transcript_rows(source, FLEURS, PATH, len(COLUMNS))
    clean = cleaner()
    return [Reference(id=fields[1], text=clean(fields[3]), cluster=fields[1]) for _, fields in rows]
