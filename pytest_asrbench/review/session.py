"""Stepping through pending changes: show each one, take a decision, apply it.

The decision comes from a ``decide`` callable (a key read from the terminal, or a fixed
answer for ``--accept-all`` / ``--reject-all``), so the loop is the same for people and
scripts. Accepting re-checks the version gate of the change's (metric, language): a change
made under a version bump that is no longer there (reverted since) is refused, as
``--snapshot-update`` would refuse it; so is a change over a recording that moved since.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pytest_asrbench.cases.signature_files import project_gate
from pytest_asrbench.review.changes import CaseRef, describe, locate
from pytest_asrbench.review.pending import PendingChange, PendingError

#: Keys of the interactive prompt and the decision each stands for.
KEYS = {"a": "accept", "r": "reject", "s": "skip", "q": "quit"}
PROMPT = "accept [a], reject [r], skip [s], quit [q]? "


@dataclass
class Tally:
    """What a review did: changes accepted, rejected, skipped, and refused (with why)."""

    accepted: list[Path] = field(default_factory=list)
    rejected: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def summary(self) -> str:
        text = (f"accepted {len(self.accepted)}, rejected {len(self.rejected)}, skipped {len(self.skipped)}"
                f"{f', refused {len(self.refused)}' if self.refused else ''}")
        return text + ("; skipped changes stay pending (asrbench review again)" if self.skipped else "")


def gate_refusal(case: CaseRef, root: Path, case_dirs: list[str]) -> str | None:
    """Why a change of ``case`` may not be accepted now: the version gate of its (metric,
    language) refuses re-recording (a changed metric without a bump). ``None`` when allowed."""
    if case.metric is None or case.language is None:
        return None
    return project_gate(root, case_dirs).update_refusal(case.metric, case.language)


def review(changes: list[PendingChange], decide: Callable[[PendingChange, list[str]], str], *, root: Path,
           snapshots: str, case_dirs: list[str], out: TextIO = sys.stdout) -> Tally:
    """Show each change on ``out``, ask ``decide(change, lines)`` for ``accept``, ``reject``,
    ``skip`` or ``quit``, and apply it. Changes after a ``quit`` are skipped; a change that
    cannot be shown (its recording is not a snapshot) is refused and the review goes on."""
    tally = Tally()
    total = len(changes)
    for number, change in enumerate(changes, 1):
        case = locate(change.snapshot, root, snapshots, case_dirs)
        try:
            lines = describe(change, case, root)
        except PendingError as exc:  # a recording that is not a snapshot: the others still go on
            tally.refused.append(str(exc))
            print(f"[{number}/{total}] cannot show this change, still pending: {exc}", file=out)
            continue
        print(f"[{number}/{total}] " + lines[0], file=out)
        for line in lines[1:]:
            print(line, file=out)
        decision = decide(change, lines)
        if decision == "quit":
            tally.skipped += [c.snapshot for c in changes[number - 1:]]
            break
        if decision == "skip":
            tally.skipped.append(change.snapshot)
        elif decision == "reject":
            change.reject()
            tally.rejected.append(change.snapshot)
            print("  rejected: the recording stays as it is", file=out)
        else:
            refusal = gate_refusal(case, root, case_dirs) if change.action != "delete" else None
            if refusal:
                tally.refused.append(f"{change.snapshot}: {refusal}")
                print(f"  refused, still pending: {refusal}", file=out)
                continue
            try:
                change.accept()
            except PendingError as exc:
                tally.refused.append(str(exc))
                print(f"  refused, still pending: {exc}", file=out)
                continue
            tally.accepted.append(change.snapshot)
            print("  accepted: " + ("snapshot deleted" if change.action == "delete" else "snapshot written"), file=out)
    return tally


def list_changes(changes: list[PendingChange], *, root: Path, snapshots: str, case_dirs: list[str],
                 out: TextIO = sys.stdout) -> list[str]:
    """Show every change on ``out`` and change nothing; return the problems of those that
    cannot be shown (a recording that is not a snapshot), all of them, after the others."""
    problems = []
    for change in changes:
        try:
            lines = describe(change, locate(change.snapshot, root, snapshots, case_dirs), root)
        except PendingError as exc:
            problems.append(str(exc))
            continue
        for line in lines:
            print(line, file=out)
    return problems


def fixed(decision: str) -> Callable[[PendingChange, list[str]], str]:
    """A ``decide`` that always answers ``decision`` (``--accept-all``, ``--reject-all``)."""
    return lambda change, lines: decision


def read_key(stream: TextIO = sys.stdin, out: TextIO = sys.stdout) -> Callable[[PendingChange, list[str]], str]:
    """A ``decide`` that prompts and reads one key: a single keypress on a terminal (no Enter
    needed), a line from a pipe. End of input counts as quit; an unknown key asks again."""

    def decide(change: PendingChange, lines: list[str]) -> str:
        while True:
            key = _one_key(stream, out)
            if key is None:
                out.write("\n")
                return "quit"
            key = key.strip().lower()[:1]
            if stream.isatty():
                out.write(key + "\n")
            if key in KEYS:
                return KEYS[key]
            out.write(f"  unknown key {key!r}: press a, r, s or q\n")

    return decide


def _one_key(stream: TextIO, out: TextIO) -> str | None:
    """Prompt on ``out`` and read one answer from ``stream``: a line from a pipe, one key from a
    terminal. The terminal is put in cbreak mode *before* the prompt is shown, so a key pressed
    as soon as the prompt appears is never left waiting in a line buffer for an Enter."""
    if not stream.isatty():
        out.write(PROMPT)
        out.flush()
        line = stream.readline()
        return line if line else None
    import termios
    import tty

    descriptor = stream.fileno()
    saved = termios.tcgetattr(descriptor)
    try:
        tty.setcbreak(descriptor)
        out.write(PROMPT)
        out.flush()
        char = stream.read(1)
    finally:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)
    if char in ("", "\x04"):  # end of input, Ctrl-D
        return None
    return char
