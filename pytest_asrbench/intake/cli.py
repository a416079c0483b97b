"""``asrbench add-case``: one reviewer's example becomes a case, run once and recorded.

    asrbench add-case -l hi --kind score --reference "मेरी flight कल है" \\
        --hypothesis "मेरी fight कल है" --note "reviewer: real error" [--expect-rate 0.25]
    asrbench add-case -l de --kind equal --text "Anmelde-Konto" --text "Anmeldekonto"
    asrbench add-case -l en --kind normalize --text "ten mm" --expect "10 mm" --file cases/en/units.yaml

The case goes to ``--file``, or to ``<case folder>/<language>/<kind>.yaml`` (created when
missing), the case folder being the first of the project's ``asrbench_case_dirs`` ini option
(default ``cases``), whose case files are also searched for the same example. Its expected
rate and its run use the project's config folders (``--config-dir``, the
``asrbench_config_dirs`` ini option, ``ASRBENCH_CONFIG_DIRS``; :mod:`pytest_asrbench.cli`).
Then ``pytest --asrbench <file>::<id> --snapshot-update`` runs it alone (a selection: nothing
else is re-recorded or deleted) and the node id is printed. A ``score`` case without
``--expect-rate`` expects the rate it scores now, and says so. Exit codes: 0 added and
passing, 1 added but the case fails (its message is shown), 2 refused (nothing written).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.config_layers import ENV_VAR
from pytest_asrbench._shared.paths import project_folder, shown_path
from pytest_asrbench._shared.project_ini import find_settings
from pytest_asrbench.intake.add_case import KINDS, AddCaseError, append_case, build_case, find_duplicate, form_of


def add_parser(subparsers) -> None:
    from pytest_asrbench.cases.field_help import kinds_help
    from pytest_asrbench.cases.loader import case_schema

    sub = subparsers.add_parser("add-case", help="append a reviewer's example to a case file, run it and record it",
                                epilog=kinds_help(case_schema()), formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("-l", "--language", required=True, help="language tag of the case file (en, hi, fr-CA ...)")
    sub.add_argument("--kind", required=True, choices=KINDS,
                     help="the case's kind: what it checks (README, 'Writing cases')")
    sub.add_argument("--reference", help="score: the reference text")
    sub.add_argument("--hypothesis", help="score: the hypothesis text")
    sub.add_argument("--text", action="append", default=[], help="normalize/equal/distinct/untouched text (repeatable)")
    sub.add_argument("--expect", help="normalize: the expected normalized form")
    sub.add_argument("--expect-rate", type=float, help="score: the rate the reviewer expects (0.25 = 25%%)")
    sub.add_argument("--note", help="why this case exists (the reviewer's words)")
    sub.add_argument("--id", help="the case id (default: derived from the text)")
    sub.add_argument("--file", type=Path, help="the case file (default <case folder>/<language>/<kind>.yaml, the case folder being the first "
                          "of the asrbench_case_dirs ini option, else cases)")
    sub.add_argument("--root", type=Path, default=Path("."), help="the project folder (default: the current one)")
    sub.add_argument("--no-run", action="store_true", help="only append the case; do not run or record it")
    sub.set_defaults(handler=run)


def _current_rate(case: dict, language: str) -> float:
    from pytest_asrbench.scoring import score

    rate = score(case["reference"], case["hypothesis"], language).rate
    if rate is None:
        raise AddCaseError("the reference normalizes to nothing, so the case has no rate: give --expect-rate "
                           "or another reference")
    return rate


def _config_folder_options(args: argparse.Namespace) -> list[str]:
    """pytest options that give the case's run the config folders this command searched
    (``args.config_folders``: ``--config-dir``, the ini option, ``ASRBENCH_CONFIG_DIRS``, in
    that order), so the run checks the case against the configs its expected rate came from."""
    folders = getattr(args, "config_folders", [])
    return ["-o", "asrbench_config_dirs=" + " ".join(shlex.quote(str(folder)) for folder in folders)] if folders else []


def _without_config_variable(args: argparse.Namespace) -> dict[str, str] | None:
    """The environment of the case's run: this one, less ``ASRBENCH_CONFIG_DIRS`` when its
    folders are passed as options already (:func:`_config_folder_options`)."""
    if not getattr(args, "config_folders", []):
        return None
    return {key: value for key, value in os.environ.items() if key != ENV_VAR}


def run(args: argparse.Namespace) -> int:
    root = project_folder(args.root)
    case_dirs = find_settings(root).args("asrbench_case_dirs", ["cases"])
    case = build_case(args.kind, texts=args.text, reference=args.reference, hypothesis=args.hypothesis,
                      expect=args.expect, expect_rate=args.expect_rate, note=args.note)
    duplicate = next(filter(None, (find_duplicate(root / folder / args.language, case) for folder in case_dirs)), None)
    if duplicate:
        path, case_id = duplicate
        raise AddCaseError(f"this example is a case already: {case_id!r} in {path.relative_to(root) if path.is_relative_to(root) else path}")
    if form_of(args.kind).rate_now and args.expect_rate is None:
        case["expect"] = {"rate": _current_rate(case, args.language)}
        print(f"expect rate {case['expect']['rate']} is what the example scores now; pass --expect-rate to "
              "state the reviewer's value instead")
    path = (args.file if args.file.is_absolute() else root / args.file) if args.file else \
        root / case_dirs[0] / args.language / f"{args.kind}.yaml"
    added = append_case(path, args.language, case, args.id, root)
    print(f"added {added.nodeid}")
    if args.no_run:
        return 0
    run_case = subprocess.run([sys.executable, "-m", "pytest", "--asrbench", added.nodeid, "--snapshot-update",
                               "-p", "no:cacheprovider", "-q", "--no-header", *_config_folder_options(args)],
                              cwd=root, env=_without_config_variable(args), capture_output=True, text=True)
    if run_case.returncode != 0:
        print(run_case.stdout, end="")
        print(run_case.stderr, end="", file=sys.stderr)
        report_line(command_path(args), f"the case was added but does not pass: fix it in {shown_path(added.path)} (line of id "
                                        f"{added.case_id!r})")
        return 1
    print(f"recorded its snapshot; run it with: pytest --asrbench {added.nodeid}")
    return 0
