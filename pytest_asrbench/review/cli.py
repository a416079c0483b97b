"""``asrbench review``: step through the snapshot changes a ``--asrbench-pending`` run kept.

    pytest --asrbench cases --snapshot-update --asrbench-pending
    asrbench review                 # each change: accept [a] / reject [r] / skip [s] / quit [q]
    asrbench review --list          # list them, change nothing (exit 1 when any is pending)
    asrbench review --accept-all    # or --reject-all, for CI and scripts

Exit codes: 0 when done (and, for ``--list``, nothing pending), 1 when a change is still
pending after ``--list`` or was refused (stale recording, version gate, a recording that is
not a snapshot), 2 bad usage, unreadable pending files (all listed at once) or, for ``--list``,
recordings that are not snapshots (all listed, after the changes that can be shown).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.paths import project_folder, shown_path
from pytest_asrbench._shared.project_ini import find_settings
from pytest_asrbench.review.pending import find
from pytest_asrbench.review.session import fixed, list_changes, read_key, review


def add_parser(subparsers) -> None:
    sub = subparsers.add_parser("review", help="accept or reject the snapshot changes kept by --asrbench-pending")
    mode = sub.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="list the pending changes and what they change")
    mode.add_argument("--accept-all", action="store_true", help="accept every pending change")
    mode.add_argument("--reject-all", action="store_true", help="reject every pending change")
    sub.add_argument("--root", type=Path, default=Path("."), help="the project folder (default: the current one)")
    sub.add_argument("--snapshot-dir", default=None, help="snapshot folder under the root (default: the "
                     "asrbench_snapshot_dir option of the project's pytest ini file, else snapshots)")
    sub.add_argument("--case-dir", action="append", default=None, metavar="NAME",
                     help="case folder name under the root (repeatable; default: the asrbench_case_dirs option of "
                          "the project's pytest ini file, else cases)")
    sub.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``asrbench review``: the exit codes of the module docstring.

    Raises:
        InputError: ``--root`` is not a folder (a typo would otherwise read as "nothing pending").
    """
    root = project_folder(args.root)
    command = command_path(args)
    settings = find_settings(root)
    case_dirs = args.case_dir or settings.args("asrbench_case_dirs", ["cases"])
    args.snapshot_dir = args.snapshot_dir or settings.text("asrbench_snapshot_dir", "snapshots")
    changes = find(root / args.snapshot_dir)
    if not changes:
        print(f"no pending changes under {shown_path(root / args.snapshot_dir)} (make some with "
              f"`pytest --asrbench {case_dirs[0]} --snapshot-update --asrbench-pending`)")
        return 0
    if args.list:
        problems = list_changes(changes, root=root, snapshots=args.snapshot_dir, case_dirs=case_dirs)
        print(f"{len(changes)} change(s) pending")
        for problem in problems:
            report_line(command, problem)
        return 2 if problems else 1
    decide = fixed("accept") if args.accept_all else fixed("reject") if args.reject_all else read_key()
    tally = review(changes, decide, root=root, snapshots=args.snapshot_dir, case_dirs=case_dirs)
    print(tally.summary())
    for reason in tally.refused:
        report_line(command, reason, kind="refused")
    return 1 if tally.refused else 0
