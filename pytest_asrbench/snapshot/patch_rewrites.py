"""The end of an ``--snapshot-update`` run: carry out the patch-bump signature rewrites held back.

The signature case of a pair whose pending bump is patch-only (x.y.Z) re-records nothing
while the run goes on (:mod:`pytest_asrbench.signatures.patch_deferrals`). Here, once per run (on
the xdist controller, after every worker sent its deferrals), each pending pair is either
re-recorded (its YAML lines and its snapshot; the files are listed with the other writes) or
kept as recorded, with one summary line saying why: some of its cases would change (a patch
bump does not allow that), or the run did not see every case of the pair (a stop, a
selection, a case file not collected). Keeping it leaves the bump pending, so the next
``--snapshot-update`` refuses the same cases again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_asrbench._shared.paths import from_root, shown_path
from pytest_asrbench.cases.signature_files import case_files_holding, rewrite_case
from pytest_asrbench.cases.version_gate_session import deferrals, session_gate
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.run_coverage import RunCoverage
from pytest_asrbench.snapshot.adapter import record_case_file_rewrite, write_snapshot_file


def finish_deferred(session: pytest.Session, exitstatus: int, coverage: RunCoverage) -> list[str]:
    """Decide and carry out this run's pending signature rewrites; returns the summary lines
    of the pairs kept as recorded (empty when every pending pair was re-recorded).

    A rewrite that fails (the case file no longer reads back, a read-only snapshot folder)
    is reported as a kept pair with its error; nothing is silently skipped.
    """
    config = session.config
    pending = deferrals(config)
    if not pending.pending:
        return []
    collected = {Path(record.path).resolve() for record in coverage.files.values()}
    case_dirs = config.getini("asrbench_case_dirs")

    def unseen(pair: tuple[str, str]) -> str | None:
        reason = coverage.incomplete_reason(session, exitstatus, pair)
        if reason:
            return reason
        missed = case_files_holding(config.rootpath, case_dirs, pair, collected)
        if missed:
            return (f"{len(missed)} case file(s) that may hold its cases were not collected (first: "
                    f"{shown_path(missed[0], config.rootpath)})")
        return None

    lines = []
    for decision in pending.decide(unseen):
        if decision.action == "keep":
            lines.append(decision.message)
            continue
        item = decision.pending
        try:
            if rewrite_case(Path(item.path), item.case_id, session_gate(config).current(*item.pair)):
                record_case_file_rewrite(item.path)
            if item.snapshot_text is not None and item.snapshot_location is not None:
                write_snapshot_file(item.snapshot_location, item.snapshot_text, reviewable=False)
        except (ValueError, OSError, AsrbenchError) as exc:
            lines.append(from_root(f"signature of ({item.metric}, {item.language}) not re-recorded ({item.where}): {exc}",
                                   config.rootpath))
    return lines
