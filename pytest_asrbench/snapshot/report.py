"""What a run did to its snapshots, as one value: :class:`SnapshotReport`, rendered by the terminal summary.

The snapshot session (:mod:`pytest_asrbench.snapshot.session`) builds it once, at the end of
the run on the process that decides (the xdist controller, or the only process); the
plugin's terminal summary writes :meth:`SnapshotReport.lines`. Nothing here decides or
writes a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pytest_asrbench._shared.paths import shown_path


class UnusedAction(Enum):
    """What the run did with the unused snapshots it found."""

    DELETED = "deleted"  # --snapshot-update
    PENDING_DELETION = "pending deletion"  # --snapshot-update --asrbench-pending
    KEPT = "kept"  # --snapshot-update --snapshot-no-cleanup
    FAILED = "failed"  # a plain run: unused snapshots fail it
    REPORTED = "reported"  # a plain run that warns only, or already failed, or found none


@dataclass(frozen=True)
class SnapshotReport:
    """One run's snapshot outcome.

    ``writes``: ``(action, path)`` of every file written, in order (``created``, ``updated``,
    ``rewrote`` for a case file, ``pending``/``pending deletion`` for a change kept for
    review). ``skipped``: why the unused-snapshot check was not made (a run that did not see
    every case), else ``None``. ``unused_files``: snapshot files no case id names;
    ``orphan_folders``: snapshot folders whose case file is gone. ``signatures``: one line per
    patch-bumped (metric, language) pair whose signature was kept as recorded. ``waiting``:
    the pending files under the snapshot folder after the run (kept by this or an earlier
    ``--asrbench-pending`` run); ``review_command``: ``asrbench review`` with the options this
    project needs, as the lines name it.
    """

    writes: tuple[tuple[str, str], ...] = ()
    skipped: str | None = None
    unused_files: tuple[Path, ...] = ()
    orphan_folders: tuple[Path, ...] = ()
    unused_action: UnusedAction = UnusedAction.REPORTED
    signatures: tuple[str, ...] = ()
    waiting: tuple[Path, ...] = ()
    review_command: str = "asrbench review"

    @property
    def unused(self) -> tuple[Path, ...]:
        """Every unused snapshot file and folder."""
        return (*self.unused_files, *self.orphan_folders)

    @property
    def failed(self) -> bool:
        """Whether the unused snapshots alone fail the run."""
        return self.unused_action is UnusedAction.FAILED and bool(self.unused)

    def lines(self, root: Path) -> list[str]:
        """The terminal summary's lines; when :attr:`failed`, the last line says so. Empty when
        there is nothing to say. Snapshot and case files are the project's files: each is named
        from ``root``, the run's root folder, as pytest names node ids and the case messages name
        case files, through the one helper :func:`~pytest_asrbench._shared.paths.shown_path`
        (relative where inside ``root``, else as it is)."""
        writes = [(action, path) for action, path in self.writes if not action.startswith("pending")]
        pending = [(action, path) for action, path in self.writes if action.startswith("pending")]
        lines = [f"  {action} {shown_path(path, root)}" for action, path in writes]
        if lines:
            rewrote = sum(action == "rewrote" for action, _ in writes)
            written = f"{len(writes) - rewrote} snapshot file(s)"
            if rewrote:
                written += f" and {rewrote} case file(s) (re-recorded signatures)"
            lines.insert(0, f"{written} written:")
        review = self.review_command
        if pending:
            lines.append(f"{len(pending)} change(s) kept for review, recordings untouched (accept or reject them "
                         f"with `{review}`):")
            lines += [f"  {action} {shown_path(path, root)}" for action, path in pending]
        kept_now = {str(_pending_path(Path(path))) for _, path in pending}
        earlier = [path for path in self.waiting if str(path) not in kept_now]
        if earlier:
            lines.append(f"{len(earlier)} change(s) kept by an earlier --asrbench-pending run wait for review "
                         f"(`{review} --list` shows them; `{review}` accepts or rejects them)")
        if self.unused:
            lines.append(self._unused_heading())
            lines += [f"  {shown_path(path, root)}" for path in self.unused]
        if self.skipped:
            lines.append(f"unused-snapshot check skipped, nothing deleted: {self.skipped}")
        lines += self.signatures
        if self.failed:
            # The run fails for this alone: said last, near pytest's own final line.
            unused = self.unused
            listed = ", ".join(shown_path(path, root) for path in unused[:3]) + (", ..." if len(unused) > 3 else "")
            lines.append(f"FAILED: {len(unused)} unused snapshot file(s)/folder(s): {listed} "
                         "(pytest --asrbench <paths> --snapshot-update deletes them; --snapshot-warn-unused "
                         "only warns)")
        return lines

    def _unused_heading(self) -> str:
        kinds = [f"{len(self.unused_files)} snapshot file(s) no case id names"] if self.unused_files else []
        if self.orphan_folders:
            kinds.append(f"{len(self.orphan_folders)} snapshot folder(s) whose case file is gone")
        found = " and ".join(kinds)
        if self.unused_action is UnusedAction.DELETED:
            return f"deleted {found}:"
        if self.unused_action is UnusedAction.PENDING_DELETION:
            return f"unused: {found}; their deletion is kept for review (asrbench review):"
        if self.unused_action is UnusedAction.KEPT:
            return (f"unused: {found}; kept because of --snapshot-no-cleanup "
                    "(run --snapshot-update without it to delete them):")
        return f"unused: {found}; re-run with --snapshot-update to delete them:"


def _pending_path(path: Path) -> Path:
    from pytest_asrbench.review.pending import pending_path

    return pending_path(path)
