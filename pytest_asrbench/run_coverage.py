"""What a run saw, and so whether it may call a snapshot unused (and delete it).

A case snapshot is unused when no case of its case file has its exact id; a snapshot folder
is unused when its case file is gone. Both are decided only by a run that saw everything:
it finished normally (no Ctrl-C, SIGTERM, ``-x``/``--maxfail`` stop), had no collection
error, loaded every case file, and ran every case of every case file it collected (no
``-k``, ``-m``, node-id, ``--deselect`` or ``--lf`` selection). Anything less keeps every
file and says why in one line (:meth:`RunCoverage.incomplete_reason`).

Under pytest-xdist the workers collect and run; each sends :meth:`RunCoverage.payload` to
the controller, which merges them (:meth:`RunCoverage.merge`) and decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_asrbench.snapshot import snapshot_file_name


@dataclass
class CaseFileRecord:
    """One loaded case file: its snapshot folder and every case it holds (selected or not),
    with each case's ``[metric, language]`` pair (parallel to ``ids`` and ``nodeids``)."""

    path: str
    folder: str
    ids: list[str]
    nodeids: list[str]
    pairs: list[list[str]] = field(default_factory=list)


@dataclass
class RunCoverage:
    """The case files a run collected, the cases that ran to their end, and what went wrong."""

    files: dict[str, CaseFileRecord] = field(default_factory=dict)
    broken: list[str] = field(default_factory=list)
    collection_errors: list[str] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)
    writes: list[tuple[str, str]] = field(default_factory=list)
    workers: int = 0
    payloads: int = 0

    def add_file(self, path: Path, folder: Path, ids: list[str], nodeids: list[str],
                 pairs: list[tuple[str, str]] | None = None) -> None:
        """Note a loaded case file; ``pairs`` gives each case's (metric, language)."""
        self.files[str(folder)] = CaseFileRecord(str(path), str(folder), list(ids), list(nodeids),
                                                 [list(pair) for pair in pairs or ()])

    def payload(self) -> dict:
        """Plain data for the xdist controller (execnet sends only builtins)."""
        return {
            "files": [[r.path, r.folder, r.ids, r.nodeids, r.pairs] for r in self.files.values()],
            "broken": self.broken,
            "collection_errors": self.collection_errors,
            "writes": [list(write) for write in self.writes],
        }

    def merge(self, payload: dict) -> None:
        """Add one worker's :meth:`payload` (every worker collects the same files)."""
        self.payloads += 1
        for path, folder, ids, nodeids, pairs in payload["files"]:
            self.files.setdefault(folder, CaseFileRecord(path, folder, ids, nodeids, pairs))
        self.broken = sorted({*self.broken, *payload["broken"]})
        self.collection_errors = sorted({*self.collection_errors, *payload["collection_errors"]})
        self.writes.extend(tuple(write) for write in payload["writes"])

    def incomplete_reason(self, session: pytest.Session, exitstatus: int,
                          pair: tuple[str, str] | None = None) -> str | None:
        """Why this run may not call snapshots unused, or ``None`` when it saw everything.

        With ``pair`` (metric, language), only the collected cases of that pair must have run
        (the rest of the run's rules stand: no stop, every worker reported, no collection
        error, no broken case file, which may hold cases of the pair). A case file that was
        not collected at all is not known here (see the caller)."""
        stop = session.shouldstop or session.shouldfail
        if exitstatus == pytest.ExitCode.INTERRUPTED or stop:
            return f"the run was interrupted ({stop})" if isinstance(stop, str) else "the run was interrupted"
        if self.workers and self.payloads < self.workers:
            return f"{self.workers - self.payloads} of {self.workers} xdist worker(s) did not report what they collected"
        if self.collection_errors:
            return f"{len(self.collection_errors)} collection error(s), first in {self.collection_errors[0]}"
        if self.broken:
            return f"case file {self.broken[0]} cannot be loaded"
        expected = [nodeid for record in self.files.values()
                    for nodeid, of in zip(record.nodeids, record.pairs or [None] * len(record.nodeids))
                    if pair is None or (of is not None and tuple(of) == tuple(pair))]
        missing = sum(nodeid not in self.finished for nodeid in expected)
        if missing:
            whose = "the collected case files" if pair is None else f"({pair[0]}, {pair[1]})"
            return (f"{missing} of {len(expected)} case(s) of {whose} did not run "
                    "(a -k, -m, node-id, --deselect or --lf selection, or a stop)")
        return None

    def unused_snapshots(self) -> list[Path]:
        """Snapshot files in the folders of the collected case files that no case id names."""
        unused: list[Path] = []
        for record in self.files.values():
            folder = Path(record.folder)
            if not folder.is_dir():
                continue
            expected = {snapshot_file_name(case_id) for case_id in record.ids}
            unused += sorted(path for path in folder.glob("*.json") if path.name not in expected)
        return unused


_COVERAGE = pytest.StashKey[RunCoverage]()


def coverage_of(config: pytest.Config) -> RunCoverage:
    """This session's :class:`RunCoverage`, made on first use."""
    coverage = config.stash.get(_COVERAGE, None)
    if coverage is None:
        coverage = config.stash[_COVERAGE] = RunCoverage()
    return coverage
