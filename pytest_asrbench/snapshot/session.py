"""One pytest session's snapshot decisions: :class:`SnapshotSession`, one per run in ``config.stash``.

The only reader of syrupy's options (``--snapshot-update``, ``--snapshot-no-cleanup``,
``--snapshot-disable-unused``, ``--snapshot-warn-unused``) and of ``--asrbench-pending`` and
``--asrbench-record-fingerprint``. Hooks, case items and case kinds ask it:

- its mode: :attr:`~SnapshotSession.updating`, :attr:`~SnapshotSession.pending`,
  :attr:`~SnapshotSession.adding_fingerprints` (case kinds get them through their
  :class:`~pytest_asrbench.cases.registry.RunContext`);
- one case's snapshot step: :meth:`~SnapshotSession.record` compares (and under
  ``--snapshot-update`` writes) through :mod:`.adapter`, after the version gate's refusals
  (:mod:`pytest_asrbench.cases.version_gate_session`) under the case kind's
  :class:`~pytest_asrbench.cases.registry.SnapshotRules`, and holds back a patch-bumped
  signature re-recording; :meth:`~SnapshotSession.keep` compares a failed case's snapshot
  without writing;
- the end of the run: what an xdist worker sends (:meth:`~SnapshotSession.send_to_controller`,
  :meth:`~SnapshotSession.merge_worker`); around syrupy's own finish, whether unused snapshots
  may be named (:meth:`~SnapshotSession.around_syrupy_finish`); then
  :meth:`~SnapshotSession.conclude`: the held-back signature rewrites
  (:mod:`.patch_rewrites`), unused snapshot files and orphan folders (reported, deleted,
  staged for review, or kept), and the run's :class:`~.report.SnapshotReport`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import pytest_asrbench.snapshot.adapter as adapter
from pytest_asrbench.snapshot.report import SnapshotReport, UnusedAction

if TYPE_CHECKING:
    from pytest_asrbench.cases.model import Case
    from pytest_asrbench.cases.registry import SnapshotRules
    from pytest_asrbench.signatures.patch_deferrals import PendingRewrite

# The case stage (and through it the normalizers) is imported where a case is recorded or a
# run concluded, never by a run without --asrbench, which asks this session only its mode.

_SESSION = pytest.StashKey["SnapshotSession"]()
#: Keys of what an xdist worker sends its controller (``workeroutput``).
_COVERAGE, _DEFERRALS = "asrbench_coverage", "asrbench_deferrals"


def snapshot_session(config: pytest.Config) -> SnapshotSession:
    """The run's :class:`SnapshotSession` (made on first use, kept in ``config.stash``)."""
    found = config.stash.get(_SESSION, None)
    if found is None:
        found = config.stash[_SESSION] = SnapshotSession(config)
    return found


@dataclass(frozen=True)
class Recording:
    """One case's snapshot step: its :class:`~.adapter.Comparison`, its state for the case
    record (``new``, ``same``, ``changed``, or ``kept`` when the gate refused to re-record),
    and ``refusal``, the version gate's reason the case fails (``None`` when none)."""

    comparison: adapter.Comparison
    state: str
    refusal: str | None = None


class SnapshotSession:
    """The snapshot mode of one run and everything it decides (see the module docstring)."""

    def __init__(self, config: pytest.Config):
        option = config.option
        self.config = config
        #: ``--snapshot-update``: differing snapshots are re-recorded.
        self.updating = bool(getattr(option, "update_snapshots", False))
        #: ``--snapshot-update-new-only``: snapshots not recorded yet are recorded.
        self.updating_new_only = bool(getattr(option, "update_new_snapshots_only", False))
        #: ``--asrbench-pending``: changes are kept beside their recordings for review.
        self.pending = bool(getattr(option, "asrbench_pending", False))
        #: ``--snapshot-update --asrbench-record-fingerprint``: an ``asr`` recording gains this
        #: host's kernel fingerprint.
        self.adding_fingerprints = self.updating and bool(getattr(option, "asrbench_record_fingerprint", False))
        self._cleanup = self.updating and not getattr(option, "no_cleanup", False)
        self._unused_disabled = bool(getattr(option, "disable_unused_snapshots", False))
        self._unused_warns = bool(getattr(option, "warn_unused_snapshots", False))
        #: What the run did, once :meth:`conclude` ran (on the controller or only process).
        self.report: SnapshotReport | None = None
        self._incomplete: str | None = None

    # ---- start and end of the process ---------------------------------------------------

    def check_options(self) -> None:
        """Refuse an option that needs another: ``--asrbench-record-fingerprint`` and
        ``--asrbench-pending`` act only while re-recording (``--snapshot-update``).

        Raises:
            pytest.UsageError: naming the missing option and the full command.
        """
        option = self.config.option
        if getattr(option, "asrbench_record_fingerprint", False) and not self.updating:
            raise pytest.UsageError(
                "--asrbench-record-fingerprint only acts while re-recording: add --snapshot-update "
                "(pytest --asrbench <paths> --snapshot-update --asrbench-record-fingerprint)")
        if self.pending and (not getattr(option, "asrbench", False) or not self.updating):
            raise pytest.UsageError("--asrbench-pending keeps the changes of a re-recording for review: use it with "
                                    "--asrbench and --snapshot-update (pytest --asrbench cases --snapshot-update "
                                    "--asrbench-pending), then run `asrbench review`")

    def start(self) -> None:
        """Set this process's write mode (each xdist worker starts its own session)."""
        adapter.set_pending_mode(self.pending)

    def close(self) -> None:
        """Leave no pending mode behind in this process (an in-process run, pytester)."""
        if self.pending:
            adapter.set_pending_mode(False)

    # ---- one case -------------------------------------------------------------------------

    def record(self, item: pytest.Item, case: Case, output: dict[str, Any], rules: SnapshotRules,
               pending_rewrite: PendingRewrite | None = None) -> Recording:
        """Compare ``output`` (the kind's snapshot view) with the snapshot of ``case`` (run by
        the case item ``item``) in one syrupy assertion (:func:`.adapter.compare`), and under
        ``--snapshot-update`` write it, as the version gate and the kind's ``rules`` allow:

        - the gate refuses the pair (signature changed without a bump, signatures
          unreadable): compared without writing, with the refusal;
        - ``pending_rewrite`` (a patch-bumped signature case): compared without a syrupy
          assertion; the rewrite is held back to :meth:`conclude`, the comparison counts as
          matched;
        - a patch-only bump under ``rules.patch_rule``: a new snapshot is recorded, a differing
          recorded one is refused (and its pair's signature kept).

        A write that fails is the comparison's ``error``
        (:class:`~.adapter.SnapshotWriteError`).
        """
        from pytest_asrbench.cases.case_record import snapshot_state
        from pytest_asrbench.cases.version_gate_session import (defer_rewrite, note_patch_refusal, patch_bump_refusal,
                                                          update_refusal)

        config = self.config
        if self.updating:
            refusal = update_refusal(case, config, full=rules.explains_refusal)
            if refusal:
                return Recording(self._compare(item, output, may_write=False), "kept", refusal)
        if pending_rewrite is not None:
            comparison = adapter.peek(item, output)
            defer_rewrite(config, replace(
                pending_rewrite, snapshot_location=None if comparison.matched else comparison.location,
                snapshot_text=None if comparison.matched else comparison.obtained))
            return Recording(replace(comparison, matched=comparison.error is None),
                             snapshot_state(comparison.recorded, comparison.obtained))
        # Under a patch-only bump a new case may be recorded, a recorded output never changed.
        patch_refusal = patch_bump_refusal(case, config) if self.updating and rules.patch_rule else None
        comparison = self._compare(item, output, new_only=patch_refusal is not None, reviewable=rules.reviewable)
        state = snapshot_state(comparison.recorded, comparison.obtained)
        if patch_refusal and not comparison.matched and comparison.recorded is not None:
            note_patch_refusal(case, config)
            return Recording(comparison, state, patch_refusal)
        return Recording(comparison, state)

    def keep(self, item: pytest.Item, output: dict[str, Any]) -> adapter.Comparison:
        """Compare ``output`` with the snapshot of the case item ``item`` without writing (a
        case that failed before its output): the snapshot stays as recorded and counts as used."""
        return self._compare(item, output, may_write=False)

    def _compare(self, item: pytest.Item, output: dict[str, Any], **how) -> adapter.Comparison:
        return adapter.compare(item, output, update=self.updating, update_new_only=self.updating_new_only, **how)

    def note_rewrites(self, paths) -> None:
        """List case files a kind rewrote in place (re-recorded signatures) with the writes."""
        for path in paths:
            adapter.record_case_file_rewrite(path)

    # ---- end of the run ----------------------------------------------------------------------

    def send_to_controller(self, workeroutput: dict) -> None:
        """xdist worker: what it collected, ran and wrote, and the signature rewrites it held back."""
        from pytest_asrbench.cases.version_gate_session import deferrals
        from pytest_asrbench.run_coverage import coverage_of

        coverage = coverage_of(self.config)
        coverage.writes.extend(adapter.take_writes())
        workeroutput[_COVERAGE] = coverage.payload()
        workeroutput[_DEFERRALS] = deferrals(self.config).payload()

    def merge_worker(self, workeroutput: dict) -> None:
        """xdist controller: merge what one worker sent (:meth:`send_to_controller`)."""
        from pytest_asrbench.cases.version_gate_session import deferrals
        from pytest_asrbench.run_coverage import coverage_of

        if workeroutput.get(_COVERAGE) is not None:
            coverage_of(self.config).merge(workeroutput[_COVERAGE])
        if workeroutput.get(_DEFERRALS) is not None:
            deferrals(self.config).merge(workeroutput[_DEFERRALS])

    @contextmanager
    def around_syrupy_finish(self, session: pytest.Session, exitstatus: int) -> Iterator[None]:
        """Around syrupy's session finish: a run that did not see every case
        (:mod:`pytest_asrbench.run_coverage`) has syrupy's unused-snapshot handling off."""
        from pytest_asrbench.run_coverage import coverage_of

        self._incomplete = coverage_of(self.config).incomplete_reason(session, exitstatus)
        with adapter.unused_detection(self.config, enabled=self._incomplete is None):
            yield

    def conclude(self, session: pytest.Session, exitstatus: int, covered_folders: list[Path]) -> SnapshotReport:
        """After :meth:`around_syrupy_finish`, the end of the run on the deciding process: carry out or keep the held-back
        signature rewrites, then find the unused snapshots (files no case id names, and
        folders under the mirrors of ``covered_folders`` whose case file is gone) and delete,
        stage, keep or report them. A run that did not see every case names and deletes
        nothing. Sets ``session.exitstatus`` to failed when a kept signature or an unused
        snapshot fails an otherwise passing run. Returns the report (also :attr:`report`).

        Raises:
            SnapshotWriteError: a pending deletion cannot be written.
            OSError: an unused snapshot cannot be deleted.
        """
        from pytest_asrbench.run_coverage import coverage_of
        from pytest_asrbench.snapshot.patch_rewrites import finish_deferred
        from pytest_asrbench.snapshot_layout import orphan_snapshot_dirs

        config = self.config
        coverage = coverage_of(config)
        reason = self._incomplete
        kept_signatures = finish_deferred(session, exitstatus, coverage)
        if kept_signatures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # the signature cases passed on this promise
        coverage.writes.extend(adapter.take_writes())
        files: list[Path] = []
        folders: list[Path] = []
        action = UnusedAction.REPORTED
        if reason is None and not self._unused_disabled:
            files = coverage.unused_snapshots()
            folders = orphan_snapshot_dirs(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots",
                                           covered_folders, config.getini("asrbench_case_dirs"))
            if self._cleanup and self.pending:
                _stage_deletions(files, folders)
                coverage.writes.extend(adapter.take_writes())
                action = UnusedAction.PENDING_DELETION
            elif self._cleanup:
                _delete(files, folders)
                action = UnusedAction.DELETED
            elif self.updating:
                action = UnusedAction.KEPT  # --snapshot-update --snapshot-no-cleanup
            elif (files or folders) and not self._unused_warns and session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
                action = UnusedAction.FAILED
        self.report = SnapshotReport(tuple(coverage.writes), reason, tuple(files), tuple(folders), action,
                                     tuple(kept_signatures), tuple(_waiting_for_review(config)),
                                     _review_command(config))
        return self.report


def _waiting_for_review(config: pytest.Config) -> list[Path]:
    """The pending files under the snapshot folder (kept by this or an earlier
    ``--asrbench-pending`` run), counted for the report; none is read."""
    from pytest_asrbench.review.pending import pending_files

    return pending_files(config.rootpath / (config.getini("asrbench_snapshot_dir") or "snapshots"))


def _review_command(config: pytest.Config) -> str:
    """``asrbench review`` with the options this project needs (a rootdir other than the
    current folder, its own snapshot or case folder names)."""
    words = ["asrbench review"]
    if config.rootpath.resolve() != Path(config.invocation_params.dir).resolve():
        words.append(f"--root {config.rootpath}")
    snapshots = config.getini("asrbench_snapshot_dir") or "snapshots"
    if snapshots != "snapshots":
        words.append(f"--snapshot-dir {snapshots}")
    case_dirs = config.getini("asrbench_case_dirs")
    if list(case_dirs) != ["cases"]:
        words += [f"--case-dir {name}" for name in case_dirs]
    return " ".join(words)


def _delete(files: list[Path], folders: list[Path]) -> None:
    for path in files:
        path.unlink()
    for folder in folders:
        for snapshot in folder.glob("*.json"):
            snapshot.unlink()
        if not any(folder.iterdir()):
            folder.rmdir()


def _stage_deletions(files: list[Path], folders: list[Path]) -> None:
    """Pending mode: each unused snapshot becomes a pending deletion for `asrbench review`."""
    for path in [*files, *(snapshot for folder in folders for snapshot in sorted(folder.glob("*.json")))]:
        adapter.stage_deletion(path)
