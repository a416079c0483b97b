"""The one syrupy adapter: how a case's output is compared with, and written to, its snapshot.

Every use of syrupy is here, so a syrupy upgrade (the version is pinned) touches one
module. What a run does with these (its mode, refusals, deletions, report) is
:mod:`pytest_asrbench.snapshot.session`'s decision; only it calls the functions below that
change process state.

- :class:`CaseSnapshotExtension` stores a case in the JSON file that
  :mod:`pytest_asrbench.snapshot_layout` names, writes it atomically (never a half-written
  file after a kill), leaves an equal file untouched (bytes and mtime) and records each
  write (:func:`take_writes`). It discovers no snapshots: the unused case snapshots are
  found by exact case id (:mod:`pytest_asrbench.run_coverage`), because syrupy's name
  matching compares only the leading identifier part of a name (``time-ten-thirty-pm`` and
  ``time-seven`` both read as ``time``).
- :func:`case_assertion` makes a case item's syrupy assertion with that extension (what
  syrupy's ``snapshot`` fixture makes, without a fixture per item); :func:`compare` runs one
  comparison and returns what a failure message needs; :func:`peek` compares without
  asserting, and :func:`write_snapshot_file` writes later.
- :func:`set_pending_mode` (``--asrbench-pending``) keeps each changed snapshot beside its
  recording as a pending change (:mod:`pytest_asrbench.review.pending`) for ``asrbench
  review``; a comparison made with ``reviewable=False`` (signature cases: the version gate's
  own re-recordings) is still written over its recording.
- :func:`unused_detection` turns syrupy's own unused-snapshot handling off for a session
  that did not see every case, without syrupy's "not recommended" warning.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.data import SnapshotCollections
from syrupy.extensions.base import AbstractSyrupyExtension
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from pytest_asrbench._shared.atomic import write_atomic
import pytest_asrbench._shared.caches as caches
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.review.pending import stage
from pytest_asrbench.snapshot.plain_json import plain_json

#: Set on each case item: the folder of its case file's snapshots.
SNAPSHOT_DIR = pytest.StashKey[Path]()

#: The marker syrupy gives every item that takes its ``snapshot`` fixture (syrupy 7's
#: ``pytest_collection_modifyitems``, registered by syrupy as "test directly or indirectly uses
#: the snapshot fixture"). A case item takes no fixture but makes a syrupy assertion, so it
#: carries the marker too: ``pytest -m syrupy_snapshot`` selects the cases, as it selects a
#: Python test that snapshots.
SYRUPY_MARKER = "syrupy_snapshot"

# (action, path) of every snapshot file this process wrote, in order; see take_writes().
_WRITES: list[tuple[str, str]] = []
# --asrbench-pending: changed snapshots go to pending files, except the locations below
# (signature cases), which are written over their recordings as usual.
_PENDING_MODE = False
_DIRECT: set[str] = set()


def set_pending_mode(enabled: bool) -> None:
    """Turn pending mode on or off for this process (each pytest-xdist worker sets its own)."""
    global _PENDING_MODE
    _PENDING_MODE = enabled
    _DIRECT.clear()


def _reset() -> None:
    """Forget the writes and the pending mode of an earlier session in this process."""
    set_pending_mode(False)
    _WRITES.clear()
    _LAST_LOCATION[:] = _LAST_NAME[:] = [None, None, None, None]


caches.register(_reset, "snapshot.adapter")


def pending_mode() -> bool:
    """Whether changed snapshots are kept as pending changes (``--asrbench-pending``)."""
    return _PENDING_MODE


class SnapshotWriteError(AsrbenchError):
    """A snapshot file could not be written (a read-only folder or file, a full disk)."""


def take_writes() -> list[tuple[str, str]]:
    """The ``(action, path)`` pairs written since the last call (``action``: created, updated,
    or rewrote for a case file)."""
    writes = list(_WRITES)
    _WRITES.clear()
    return writes


def record_case_file_rewrite(path: str) -> None:
    """Note a case file rewritten in place (a re-recorded signature case): the run lists it
    with the snapshot files it wrote (action ``rewrote``)."""
    _WRITES.append(("rewrote", str(path)))


def _snapshot_dir(test_location) -> Path | None:
    stash = getattr(test_location.item, "stash", None)  # xdist's rebuilt items have none
    return None if stash is None else stash.get(SNAPSHOT_DIR, None)


# The last (extension class, test location, index, answer) of each of the two questions below.
_LAST_LOCATION: list = [None, None, None, None]
_LAST_NAME: list = [None, None, None, None]


def _last_answer(last: list, cls, test_location, index, compute) -> str:
    """``compute(test_location, index)``, reused while syrupy asks again about the same
    location object (a frozen ``PyTestLocation``: its item and so its answers never change)
    and index; the one entry kept is replaced by the next question."""
    if last[1] is test_location and last[0] is cls and type(last[2]) is type(index) and last[2] == index:
        return last[3]
    answer = compute(test_location, index)
    last[:] = [cls, test_location, index, answer]
    return answer


#: Characters syrupy's file-name sanitizer keeps as they are (it drops ``\\/?*:|"<>`` and
#: control characters): a name of only these, short enough, is its own file stem.
_KEPT_AS_IS = re.compile(r"[A-Za-z0-9_.\-\[\]]*")


def _file_stem(name: str) -> str:
    """The file stem syrupy makes of the snapshot name ``name`` (its sanitizer, then its cut
    to fit 255 bytes with the suffix); a name that obeys the case schema's id rule is
    returned as it is, without syrupy's character-by-character walk."""
    limit = CaseSnapshotExtension._max_stem_length()
    if len(name) <= limit and _KEPT_AS_IS.fullmatch(name):
        return name
    return CaseSnapshotExtension._sanitize_filename(name)[:limit]


#: Containers nested this deep or deeper go through syrupy's serializer (its own depth limit).
_PLAIN_DEPTH = JSONSnapshotExtension._max_depth


class CaseSnapshotExtension(JSONSnapshotExtension):
    """JSON (UTF-8, unescaped, sorted keys) in the folder of the case file."""

    def serialize(self, data: Any, *, exclude=None, include=None, matcher=None) -> str:
        """The JSON text of ``data``: indented by two, keys sorted, UTF-8 unescaped, a final newline.

        An output of plain JSON values (every case kind's) is written in one walk by
        :func:`~pytest_asrbench.snapshot.plain_json.plain_json`, byte for byte what syrupy's
        own serializer gives it (which first copies it through its property filter, with
        sorted keys, then calls ``json.dumps(data, indent=2, ensure_ascii=False,
        sort_keys=True)``); anything else (sets, non-string keys, objects, filters) goes
        through syrupy's serializer.
        """
        if exclude is None and include is None:
            text = plain_json(data, _PLAIN_DEPTH)
            if text is not None:
                return text
        return super().serialize(data, exclude=exclude, include=include, matcher=matcher)

    @classmethod
    def get_location(cls, *, test_location, index) -> str:
        """``<case file's snapshot folder>/<snapshot name>.json`` for a case item (syrupy's own
        rule, without its ``pathlib`` round trip); syrupy's answer for any other item. syrupy
        asks three times per comparison: the last answer is reused (:func:`_last_answer`)."""
        return _last_answer(_LAST_LOCATION, cls, test_location, index, cls._location)

    @classmethod
    def _location(cls, test_location, index) -> str:
        folder = _snapshot_dir(test_location)
        if folder is None:
            return super().get_location(test_location=test_location, index=index)
        return os.path.join(str(folder), f"{cls.get_snapshot_name(test_location=test_location, index=index)}."
                                         f"{cls.file_extension}")

    @classmethod
    def get_snapshot_name(cls, *, test_location, index=0) -> str:
        """syrupy's snapshot name (the item's name, with an index suffix after the first),
        sanitized as syrupy does (:func:`_file_stem`). syrupy asks five times per comparison:
        the last answer is reused (:func:`_last_answer`)."""
        return _last_answer(_LAST_NAME, cls, test_location, index, cls._snapshot_name)

    @classmethod
    def _snapshot_name(cls, test_location, index) -> str:
        return _file_stem(AbstractSyrupyExtension.get_snapshot_name(test_location=test_location, index=index))

    @classmethod
    def dirname(cls, *, test_location) -> str:
        folder = _snapshot_dir(test_location)
        if folder is None:  # not a case item: behave like the stock JSON extension
            return super().dirname(test_location=test_location)
        return str(folder)

    @classmethod
    def discovery_dirname(cls, *, test_location) -> str:
        if _snapshot_dir(test_location) is None:
            return super().discovery_dirname(test_location=test_location)
        return cls.dirname(test_location=test_location)

    def discover_snapshots(self, *, test_location, ignore_extensions=None) -> SnapshotCollections:
        """None, for any item: only case items use this extension, and their unused snapshots
        are found by exact case id. syrupy's report asks every extension an assertion used
        about the folder of every collected test file; a Python test's JSON snapshots are its
        own extension's to discover."""
        return SnapshotCollections()

    @classmethod
    def write_snapshot_collection(cls, *, snapshot_collection, name_order=None) -> None:
        data = next(iter(snapshot_collection)).data
        write_snapshot_file(snapshot_collection.location, data)


def write_snapshot_file(location: str, data: str, *, reviewable: bool = True) -> None:
    """Write one case snapshot: ``data`` (the JSON text a :func:`compare` obtained) to
    ``location``, atomically; an equal file is left untouched, and a write is recorded for
    :func:`take_writes` (``created`` or ``updated``). Used by syrupy's writes and by the
    signature re-recordings held back to the end of a run. In pending mode a change to a
    reviewable location goes to its pending file instead (action ``pending``); signature
    re-recordings pass ``reviewable=False``.

    Raises:
        SnapshotWriteError: the file cannot be read or written (read-only, full disk).
    """
    path = Path(location)
    encoded = data.encode("utf-8")
    if _PENDING_MODE and reviewable and str(path) not in _DIRECT:
        _stage(path, encoded)
        return
    try:
        if path.read_bytes() == encoded:
            return
        action = "updated"
    except FileNotFoundError:
        action = "created"
    except OSError as exc:
        raise SnapshotWriteError(f"cannot read snapshot {path}: {exc}") from exc
    try:
        write_atomic(path, encoded)
    except PermissionError as exc:
        raise SnapshotWriteError(
            f"cannot write snapshot {path}: {exc.strerror} ({exc.filename}); make the snapshot "
            "folder and its files writable, then run the update again") from exc
    except OSError as exc:
        if exc.errno == errno.EROFS:
            raise SnapshotWriteError(
                f"cannot write snapshot {path}: read-only file system ({exc.filename}); re-record in a "
                "writable checkout, or remount it read-write") from exc
        raise SnapshotWriteError(f"cannot write snapshot {path}: {exc}") from exc
    _WRITES.append((action, str(path)))


def _stage(path: Path, obtained: bytes | None) -> None:
    try:
        staged = stage(path, obtained)
    except OSError as exc:
        raise SnapshotWriteError(f"cannot write the pending change of {path}: {exc}") from exc
    if staged:
        _WRITES.append(("pending" if obtained is not None else "pending deletion", str(path)))


def stage_deletion(path: Path) -> None:
    """Pending mode: keep the deletion of the unused snapshot ``path`` as a pending change.

    Raises:
        SnapshotWriteError: the pending file cannot be written.
    """
    _stage(path, None)


def snapshot_file_name(case_id: str) -> str:
    """The file name (``<name>.json``) syrupy gives the snapshot of case ``case_id``.

    syrupy drops the characters ``\\/?*:|"<>`` and control characters, and cuts the name to
    fit 255 bytes with the suffix; ids that obey the case schema pass through unchanged.
    """
    return f"{_file_stem(case_id)}.{CaseSnapshotExtension.file_extension}"


@dataclass(frozen=True)
class Comparison:
    """One comparison of an output with its snapshot.

    ``recorded`` and ``obtained`` are JSON texts (``recorded`` is ``None`` when nothing is
    recorded yet); ``error`` is a :class:`SnapshotWriteError` when an update could not be
    written.
    """

    matched: bool
    location: str
    recorded: str | None
    obtained: str | None
    error: BaseException | None


def case_assertion(item: pytest.Item, *, update: bool, new_only: bool = False) -> SnapshotAssertion:
    """syrupy's assertion for the case item ``item``, made with the case extension: what
    syrupy's ``snapshot`` fixture makes (the same session, location and registration, so
    syrupy's report counts it), without a fixture set up per item and without the default
    extension's snapshot discovery at the case file's folder (case snapshots are found by
    exact case id, :mod:`pytest_asrbench.run_coverage`).

    ``update``: a differing snapshot is written (``--snapshot-update``); ``new_only``: only a
    snapshot not recorded yet is (syrupy's new-snapshots-only mode).

    Raises:
        pytest.UsageError: syrupy's plugin is not active in this run (``-p no:syrupy``).
    """
    session = getattr(item.config, "_syrupy", None)  # syrupy's fixture reads the same attribute
    if session is None:
        raise pytest.UsageError("asrbench case items compare their outputs through syrupy's plugin, which this run "
                                "does not load: remove `-p no:syrupy`")
    return SnapshotAssertion(session=session, extension_class=CaseSnapshotExtension, test_location=PyTestLocation(item),
                             update_snapshots=update, update_new_snapshots_only=new_only)


def compare(item: pytest.Item, output: Any, *, update: bool, update_new_only: bool = False, may_write: bool = True,
            new_only: bool = False, reviewable: bool = True) -> Comparison:
    """Compare ``output`` with the snapshot of the case item ``item`` in one syrupy assertion
    (:func:`case_assertion`).

    ``update`` and ``update_new_only`` are the run's syrupy modes (``--snapshot-update``, its
    new-snapshots-only mode). A differing snapshot is written under them, unless ``may_write``
    is false: then it is compared only and stays as recorded, and it still counts as used.
    With ``new_only``, only a snapshot that is not recorded yet is written (syrupy's
    new-snapshots-only mode); a recorded one that differs stays as it is. With
    ``reviewable=False`` the write goes over the recording even in pending mode.
    """
    if not may_write:
        update = update_new_only = False
    elif new_only and update:
        update, update_new_only = False, True
    recorded = case_assertion(item, update=update, new_only=update_new_only)
    if not reviewable:  # before the assertion: syrupy may write the file during it
        _DIRECT.add(str(recorded.extension.get_location(test_location=recorded.test_location, index=recorded.index)))
    matched = recorded == output
    execution = recorded.executions[max(recorded.executions)]
    error = execution.exception if isinstance(execution.exception, SnapshotWriteError) else None
    return Comparison(matched and error is None, str(execution.snapshot_location),
                      None if execution.recalled_data is None else str(execution.recalled_data),
                      None if execution.asserted_data is None else str(execution.asserted_data), error)


def peek(item: pytest.Item, output: Any) -> Comparison:
    """Compare ``output`` with the snapshot of the case item ``item`` without a syrupy
    assertion: nothing is written and syrupy's report does not count it (neither passed nor
    failed). For a signature case whose re-recording waits for the end of the run: the
    obtained text is written then, if at all, by :func:`write_snapshot_file`.
    """
    extension = CaseSnapshotExtension()
    location = str(extension.get_location(test_location=PyTestLocation(item), index=0))
    obtained = str(extension.serialize(output))
    try:
        text = Path(location).read_bytes().decode("utf-8")
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        return Comparison(False, location, None, obtained, SnapshotWriteError(f"cannot read snapshot {location}: {exc}"))
    return Comparison(text == obtained, location, text, obtained, None)


@contextmanager
def unused_detection(config: pytest.Config, *, enabled: bool) -> Iterator[None]:
    """Around syrupy's session finish: turn its unused-snapshot handling off when not ``enabled``.

    syrupy reads ``--snapshot-disable-unused`` when it builds its report (at session finish)
    and again when it prints it; the option is set for the first and restored before the
    second, so no unused snapshot is reported or deleted and no "not recommended" warning
    is printed for a choice the user did not make.
    """
    option = config.option
    previous = getattr(option, "disable_unused_snapshots", False)
    if not enabled:
        option.disable_unused_snapshots = True
    try:
        yield
    finally:
        option.disable_unused_snapshots = previous

