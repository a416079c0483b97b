"""Utterances to export: reference/hypothesis pairs from case files and run records.

- cases: the pairs each case's kind exports (its runner's ``exported_pairs``,
  :mod:`pytest_asrbench.cases.registry`): a ``score`` case's reference/hypothesis pairs (one
  utterance per pair of a list-valued case); an ``asr`` case's reference and the transcript
  recorded in its snapshot, from the recording of this machine (its host identity,
  docs/asr.md), else the first recording (which one is said in :attr:`Utterance.note`).
- a run record (``asrbench.run/1``, ``--asrbench-run-record``): each clip that has a
  reference (clips of ``asr`` cases) with its transcript.

Utterance ids are sclite's ``speaker-utterance`` form: the speaker is the language and the
case file's name (``hi_rescue``; ``-`` becomes ``_`` so the first ``-`` ends the speaker),
the utterance is the case id (with ``.1``, ``.2`` for the pairs of a list case).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.cases.kinds import get_runner
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.registry import exported_pairs_of
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.snapshot import snapshot_file_name
from pytest_asrbench.snapshot_layout import is_case_suffix, snapshot_dir

RUN_RECORD_SCHEMA = "asrbench.run/1"


class ExportError(AsrbenchError):
    """An input cannot be exported (not a case file or run record, no snapshot for an asr case)."""


@dataclass(frozen=True)
class Utterance:
    """One pair to export: ``id`` (``speaker-utterance``), language, metric, the raw texts,
    and a note on where the hypothesis came from (or ``None``)."""

    id: str
    language: str
    metric: str
    reference: str
    hypothesis: str
    note: str | None = None


def _token(text: str) -> str:
    """``text`` as a piece of an sclite id: no spaces, parentheses or ``-``."""
    return re.sub(r"[\s()\-]+", "_", text)


def _recorded_snapshot(case, root: Path):
    """A reader of ``case``'s recorded snapshot (parsed JSON) for the kinds that need it.

    Raises (when called):
        ExportError: the snapshot is missing or not valid JSON.
    """
    def read():
        path = snapshot_dir(root, "snapshots", case.file, ["cases"]) / snapshot_file_name(case.id)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ExportError(f"{case.where()}: {case.kind} case {case.id!r} has no readable snapshot at {path} "
                              f"({exc}); if the case belongs to a project other than {root}, name its folder with "
                              "--root; else record it first (pytest --asrbench <file> --snapshot-update)") from exc
    return read


def from_case_file(path: Path, root: Path) -> list[Utterance]:
    """The pairs the cases of one case file export (``score`` and ``asr`` cases), as utterances.

    Raises:
        ExportError: the file does not load (its first problem is named), or an ``asr`` case
            has no readable recorded snapshot.
        AsrCaseError: an ``asr`` case's snapshot holds no recording.
    """
    loaded = load_case_file(path)
    if loaded.errors:
        raise ExportError(f"{path}: the case file does not load: {loaded.errors[0]}")
    found = []
    for case in loaded.cases:
        speaker = _token(f"{case.language}_{path.stem}")
        pairs = exported_pairs_of(get_runner(case.kind), case, _recorded_snapshot(case, root))
        for number, pair in enumerate(pairs, 1):
            utterance = _token(case.id) + (f".{number}" if len(pairs) > 1 else "")
            found.append(Utterance(f"{speaker}-{utterance}", case.language, case.metric, pair.reference,
                                   pair.hypothesis, pair.note))
    return found


def from_run_record(path: Path) -> list[Utterance]:
    """The clips of a run record that have a reference, as utterances.

    Raises:
        ExportError: the file is not an ``asrbench.run/1`` record, or a clip of it lacks a field
            the export needs (``source``, ``language``, ``transcript`` as text; ``reference``
            text or null; ``metric`` text when given): the message names the clip and the field.
    """
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{path}: cannot read the run record ({exc})") from exc
    if not isinstance(record, dict) or record.get("schema") != RUN_RECORD_SCHEMA:
        raise ExportError(f"{path}: not a run record of schema {RUN_RECORD_SCHEMA} (write one with "
                          "pytest --asrbench cases --asrbench-run-record PATH)")
    clips = record.get("clips", [])
    if not isinstance(clips, list):
        raise ExportError(f"{path}: 'clips' must be a list of clip objects, not {type(clips).__name__}; "
                          "write the record again with pytest --asrbench-run-record PATH")
    found = []
    for number, clip in enumerate(clips, 1):
        _check_clip(path, number, clip)
        if clip.get("reference") is None:
            continue
        found.append(Utterance(f"{_token(clip['language'])}-{_token(Path(clip['source']).stem)}", clip["language"],
                               clip.get("metric") or "stt_wer", clip["reference"], clip["transcript"]))
    return found


#: The fields of a run record's clip the export reads, and whether null is allowed.
_CLIP_FIELDS: tuple[tuple[str, bool], ...] = (
    ("source", False), ("language", False), ("transcript", False), ("reference", True), ("metric", True))


def _check_clip(path: Path, number: int, clip: object) -> None:
    """Raise :class:`ExportError` naming clip ``number`` of ``path`` and its first field the
    export cannot read (a missing or null transcript is never written as the word "None")."""
    if not isinstance(clip, dict):
        raise ExportError(f"{path}: clip {number} is a {type(clip).__name__}, not an object with source, language, "
                          "reference and transcript")
    for name, nullable in _CLIP_FIELDS:
        value = clip.get(name)
        if (value is None and not nullable and not (name == "transcript" and clip.get("reference") is None)) or \
                (value is not None and not isinstance(value, str)):
            shown = "is missing" if name not in clip else f"is {json.dumps(value)}"
            raise ExportError(f"{path}: clip {number} ({clip.get('source', 'no source')}): {name!r} {shown}; it must "
                              f"be text{' or null' if nullable else ''} (an asrbench.run/1 clip)")


def gather(inputs: list[Path], root: Path) -> list[Utterance]:
    """Every utterance of the given case files, folders of case files and run records, in
    order; ids must be unique across them.

    Raises:
        ExportError: an input does not exist or is neither kind; two utterances share an id.
    """
    found: list[Utterance] = []
    for given in inputs:
        if given.is_dir():
            for path in sorted(p for p in given.rglob("*") if is_case_suffix(p) and p.is_file()):
                found += from_case_file(path, root)
        elif given.is_file() and is_case_suffix(given):
            found += from_case_file(given, root)
        elif given.is_file() and given.suffix.lower() == ".json":
            found += from_run_record(given)
        elif not given.exists():
            raise ExportError(f"{given}: no such file or folder; give case files, folders of them or run records")
        else:
            raise ExportError(f"{given}: not a case file, a folder of case files or a run record (.json)")
    seen: set[str] = set()
    for utterance in found:
        if utterance.id in seen:
            raise ExportError(f"two utterances share the id ({utterance.id}): export their inputs separately")
        seen.add(utterance.id)
    return found
