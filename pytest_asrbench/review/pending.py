"""Pending snapshot changes: a file beside the recording that holds what a run obtained.

``snapshots/en/numbers/minus.json`` gets ``snapshots/en/numbers/minus.json.pending``, a JSON
document::

    {"asrbench_pending": 1, "action": "update", "recorded_sha256": "<hex or null>",
     "obtained": "<the new snapshot text, or null for a deletion>"}

``action`` is ``create`` (nothing recorded yet), ``update`` or ``delete`` (an unused snapshot
a complete ``--snapshot-update`` run would delete). ``recorded_sha256`` is the SHA-256 of the
recording the run compared with, so a change is never applied over a recording that moved
since (:class:`StalePendingError`). The suffix keeps pending files out of every ``*.json``
scan (syrupy, unused-snapshot checks), so a pending change never counts as a recording.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench.errors import AsrbenchError

PENDING_SUFFIX = ".pending"
FORMAT = 1
ACTIONS = ("create", "update", "delete")


class PendingError(AsrbenchError):
    """A pending file cannot be read or applied."""


class StalePendingError(PendingError):
    """The recording changed after the run that wrote the pending change."""


def pending_path(snapshot: Path) -> Path:
    """``<snapshot>.pending``: where the pending change of ``snapshot`` is kept."""
    return snapshot.with_name(snapshot.name + PENDING_SUFFIX)


def _sha256(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _read_recorded(snapshot: Path) -> bytes | None:
    try:
        return snapshot.read_bytes()
    except FileNotFoundError:
        return None


def stage(snapshot: Path, obtained: bytes | None) -> bool:
    """Keep ``obtained`` (the new snapshot bytes; ``None`` to delete it) as the pending change
    of ``snapshot``. Returns whether a change is pending: when ``obtained`` equals the
    recording, nothing is pending and an older pending file of ``snapshot`` is removed.

    Raises:
        OSError: the pending file cannot be written (the caller reports it with the path).
    """
    recorded = _read_recorded(snapshot)
    target = pending_path(snapshot)
    if obtained == recorded:
        target.unlink(missing_ok=True)
        return False
    action = "delete" if obtained is None else ("create" if recorded is None else "update")
    document = {"asrbench_pending": FORMAT, "action": action, "recorded_sha256": _sha256(recorded),
                "obtained": None if obtained is None else obtained.decode("utf-8")}
    write_atomic(target, (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return True


@dataclass(frozen=True)
class PendingChange:
    """One pending change: the snapshot it would write, what it holds and what is recorded now."""

    snapshot: Path
    action: str
    recorded_sha256: str | None
    obtained: str | None

    @property
    def path(self) -> Path:
        """The pending file itself."""
        return pending_path(self.snapshot)

    def recorded(self) -> str | None:
        """The recording as it is now (``None`` when there is none)."""
        data = _read_recorded(self.snapshot)
        return None if data is None else data.decode("utf-8")

    def stale(self) -> bool:
        """Whether the recording moved since the run that wrote this change."""
        return _sha256(_read_recorded(self.snapshot)) != self.recorded_sha256

    def accept(self) -> None:
        """Apply the change (write or delete the snapshot, atomically) and remove the pending file.

        Raises:
            StalePendingError: the recording changed since the pending run; nothing is written.
        """
        if self.stale():
            raise StalePendingError(
                f"{self.snapshot}: the recording changed after the run that wrote {self.path.name}; "
                "nothing written: run the update with --asrbench-pending again")
        if self.obtained is None:
            self.snapshot.unlink(missing_ok=True)
        else:
            write_atomic(self.snapshot, self.obtained.encode("utf-8"))
        self.path.unlink()

    def reject(self) -> None:
        """Drop the change: the recording stays as it is."""
        self.path.unlink(missing_ok=True)


#: What to do with a pending file that cannot be used.
REMEDY = "run the update with --asrbench-pending again"


def _parse(path: Path) -> tuple[PendingChange | None, str | None]:
    """The change held in ``path``, or ``(None, why it cannot be used)``."""
    if not path.name.endswith(PENDING_SUFFIX):
        return None, f"not a pending file (its name must end in {PENDING_SUFFIX})"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"cannot read the pending change ({exc})"
    problem = _problem(document)
    if problem:
        return None, problem
    return PendingChange(path.with_name(path.name[: -len(PENDING_SUFFIX)]), document["action"],
                         document["recorded_sha256"], document["obtained"]), None


def read(path: Path) -> PendingChange:
    """The change held in the pending file ``path`` (``<snapshot>.json.pending``).

    Raises:
        PendingError: the file is not a pending change this version writes (the message says
            which field is wrong); delete it and run the update with --asrbench-pending again.
    """
    change, problem = _parse(path)
    if change is None:
        suffix = "" if problem.startswith("not a pending file") else f"; delete it and {REMEDY}"
        raise PendingError(f"{path}: {problem}{suffix}")
    return change


def _problem(document) -> str | None:
    if not isinstance(document, dict) or document.get("asrbench_pending") != FORMAT:
        return f"not a pending change of format {FORMAT} (field 'asrbench_pending')"
    if document.get("action") not in ACTIONS:
        return f"field 'action' is {document.get('action')!r}, not one of {', '.join(ACTIONS)}"
    if not isinstance(document.get("recorded_sha256"), (str, type(None))):
        return "field 'recorded_sha256' must be a hex string or null"
    obtained = document.get("obtained")
    if (obtained is None) != (document["action"] == "delete") or not isinstance(obtained, (str, type(None))):
        return "field 'obtained' must be the snapshot text (null only for a deletion)"
    if obtained is not None:
        try:
            parsed = json.loads(obtained)
        except json.JSONDecodeError as exc:
            return f"field 'obtained' is not a snapshot's JSON text ({exc})"
        if not isinstance(parsed, dict):
            return "field 'obtained' must hold a snapshot (a JSON object)"
    return None


def pending_files(snapshot_root: Path) -> list[Path]:
    """Every pending file under ``snapshot_root`` (``*.json.pending``), sorted; none are read."""
    if not snapshot_root.is_dir():
        return []
    return sorted(snapshot_root.rglob("*.json" + PENDING_SUFFIX))


def find(snapshot_root: Path) -> list[PendingChange]:
    """Every pending change under ``snapshot_root``, sorted by snapshot path.

    Raises:
        PendingError: one or more pending files cannot be read; the message lists every one
            of them with its fault (all at once, not one per call) and what to do.
    """
    changes, broken = [], []
    for path in pending_files(snapshot_root):
        change, problem = _parse(path)
        if change is None:
            broken.append(f"  {path}: {problem}")
        else:
            changes.append(change)
    if broken:
        raise PendingError(f"{len(broken)} pending file(s) cannot be used; delete them and {REMEDY} "
                           "(the recordings beside them are untouched):\n" + "\n".join(broken))
    return changes
