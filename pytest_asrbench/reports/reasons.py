"""Why a case failed, in one line: the reason every output shows beside a failing case (the
terminal summary, the Markdown summary, the HTML report), as pytest's short test summary shows
each failure's first message line beside its node id.

A case's failure message (:mod:`pytest_asrbench.cases.items`) is read by
:func:`pytest_asrbench._shared.failure_reason.message_reason` (pytest's own short test summary
shows the same line). The message starts with where the case is
(``cases/en/a.yaml:6: case 'pair' (score):``), then one problem per line: the first of those is
the reason. A failure that is no case's own message (an error the runner did not
expect) gives pytest's crash line, and a case item that made no record its phase and reason.
"""

from __future__ import annotations

from pytest_asrbench._shared.failure_reason import message_reason
from pytest_asrbench.reports.model import CaseEntry

__all__ = ["case_id", "failure_reason", "location", "message_reason"]


def case_id(entry: CaseEntry) -> str:
    """The case's id (the last part of its node id when the record has none)."""
    return entry.record.get("id") or entry.nodeid.rsplit("::", 1)[-1]


def location(entry: CaseEntry) -> str:
    """``file:line`` of the case (the file relative to the run's root directory, as the record
    has it); the node id's file part when the record has no line."""
    file, line = entry.record.get("file"), entry.record.get("line")
    if file and line:
        return f"{file}:{line}"
    return entry.nodeid.split("::")[0]


def failure_reason(entry: CaseEntry) -> str:
    """The first line of why ``entry`` failed; empty for an entry that did not fail (a case
    whose output changed under ``--snapshot-update`` passed)."""
    if entry.outcome != "failed":
        return ""
    if entry.no_record:
        return entry.no_record
    if entry.crash:
        return entry.crash
    return message_reason(entry.message)
