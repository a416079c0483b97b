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
``--expect-rate`` expects the rate it scores now, and says so: ``null`` (the schema's
undefined rate) when its reference normalizes to nothing. ``--expect-rate`` takes a finite
number >= 0. Exit codes: 0 added and passing, 1 added but the case fails (its message is
shown), 2 refused (nothing written), 130 interrupted (once the case is written, the line says
it is in its file and gives the command that records it).
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import subprocess
import sys
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.config_layers import ENV_VAR
from pytest_asrbench._shared.paths import project_folder, shown_path
from pytest_asrbench._shared.project_ini import find_settings
from pytest_asrbench.intake.add_case import KINDS, AddCaseError, Added, append_case, build_case, find_duplicate, form_of


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
    sub.add_argument("--expect-rate", type=expect_rate, metavar="RATE",
                     help="score: the rate the reviewer expects, a finite number >= 0 (0.25 = 25%%; above 1 when "
                          "insertions outnumber the reference's words)")
    sub.add_argument("--note", help="why this case exists (the reviewer's words)")
    sub.add_argument("--id", help="the case id (default: derived from the text)")
    sub.add_argument("--file", type=Path, help="the case file (default <case folder>/<language>/<kind>.yaml, the case folder being the first "
                          "of the asrbench_case_dirs ini option, else cases)")
    sub.add_argument("--root", type=Path, default=Path("."), help="the project folder (default: the current one)")
    sub.add_argument("--no-run", action="store_true", help="only append the case; do not run or record it")
    sub.set_defaults(handler=run)


def expect_rate(text: str) -> float:
    """``--expect-rate``: a rate as the case schema takes it, a finite number >= 0 (a rate is
    errors over reference units, above 1 when insertions outnumber them; ``cases/schema.py``,
    ``$defs/score_values``). An empty reference's undefined rate is not given here:
    ``add-case`` writes ``rate: null`` for it itself.

    Raises:
        argparse.ArgumentTypeError: not a number, NaN, infinite or negative (argparse makes it
            the command's usage error, naming the option).
    """
    try:
        rate = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number: give the rate as a fraction (0.25 = 25%)") from None
    if math.isnan(rate) or math.isinf(rate):
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate: give a finite number >= 0 (0.25 = 25%)")
    if rate < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative: a rate is errors over reference words, a finite "
                                         "number >= 0 (0.25 = 25%)")
    return rate


def _current_rate(case: dict, language: str) -> float | None:
    """The rate ``case`` scores now; ``None`` when its reference normalizes to nothing (the
    rate is undefined: the schema's ``null``, which the case then expects)."""
    from pytest_asrbench.scoring import score

    return score(case["reference"], case["hypothesis"], language).rate


def _expect_rate_now(case: dict, args: argparse.Namespace) -> None:
    """Set ``case``'s expected rate when ``--expect-rate`` is not given: the rate it scores now,
    or ``None`` (YAML ``null``, the schema's undefined rate) when its reference normalizes to
    nothing, saying which.

    Raises:
        AddCaseError: ``--expect-rate`` given for a reference that normalizes to nothing (its
            rate is undefined, no number can hold).
    """
    rate = _current_rate(case, args.language)
    if rate is None and args.expect_rate is not None:
        raise AddCaseError(f"--expect-rate {args.expect_rate}: the reference normalizes to nothing, so the case's rate is "
                           "undefined (null); leave --expect-rate out to expect null, or give another reference")
    if args.expect_rate is not None:
        return
    case["expect"] = {"rate": rate}
    if rate is None:
        print("expect rate null: the reference normalizes to nothing, so the rate is undefined; the case checks that it "
              "stays so")
    else:
        print(f"expect rate {rate} is what the example scores now; pass --expect-rate to state the reviewer's value "
              "instead")


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


def _interrupted_after_writing(args: argparse.Namespace, added: Added, root: Path, record: list[str]) -> None:
    """Ctrl-C once the case is written (atomically, so whole): one ``interrupted`` line that
    says the case is in its file and gives the command that records it, run from ``root``
    (the node id is relative to it)."""
    where = "" if root.resolve() == Path.cwd().resolve() else f"from {shown_path(root)}, "
    report_line(command_path(args), f"the case {added.case_id!r} is in {shown_path(added.path)}, not yet recorded; "
                                    f"record it with: {where}{shlex.join(record)}", kind="interrupted")


def run(args: argparse.Namespace) -> int:
    root = project_folder(args.root)
    case_dirs = find_settings(root).args("asrbench_case_dirs", ["cases"])
    case = build_case(args.kind, texts=args.text, reference=args.reference, hypothesis=args.hypothesis,
                      expect=args.expect, expect_rate=args.expect_rate, note=args.note)
    duplicate = next(filter(None, (find_duplicate(root / folder / args.language, case) for folder in case_dirs)), None)
    if duplicate:
        path, case_id = duplicate
        raise AddCaseError(f"this example is a case already: {case_id!r} in {path.relative_to(root) if path.is_relative_to(root) else path}")
    if form_of(args.kind).rate_now:
        _expect_rate_now(case, args)
    path = (args.file if args.file.is_absolute() else root / args.file) if args.file else \
        root / case_dirs[0] / args.language / f"{args.kind}.yaml"
    added = append_case(path, args.language, case, args.id, root)
    record = ["pytest", "--asrbench", added.nodeid, "--snapshot-update", *_config_folder_options(args)]
    try:
        print(f"added {added.nodeid}")
        if args.no_run:
            return 0
        run_case = subprocess.run([sys.executable, "-m", *record, "-p", "no:cacheprovider", "-q", "--no-header"],
                                  cwd=root, env=_without_config_variable(args), capture_output=True, text=True)
    except KeyboardInterrupt:
        _interrupted_after_writing(args, added, root, record)
        return 130
    if run_case.returncode != 0:
        print(run_case.stdout, end="")
        print(run_case.stderr, end="", file=sys.stderr)
        report_line(command_path(args), f"the case was added but does not pass: fix it in {shown_path(added.path)} (line of id "
                                        f"{added.case_id!r})")
        return 1
    print(f"recorded its snapshot; run it with: pytest --asrbench {added.nodeid}")
    return 0
