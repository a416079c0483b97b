"""``asrbench refs build``: build the Thai benchmark's reference files; the ``asrbench bench``
commands are registered here too (``score``: :mod:`pytest_asrbench.bench.score_command`; ``run``:
:mod:`pytest_asrbench.bench.run.cli`; ``compare``: :mod:`pytest_asrbench.bench.compare.cli`).

    asrbench refs build --out refs/                       # all eleven sets
    asrbench refs build --out refs/ --sets fleurs tv_long  # some of them

Prints one progress line when a set starts and one when it is written, then a summary table
(set, clips, expected, clusters, dataset, revision, result). Every set asked for is tried: a
set that fails (offline, gated without a login, a count mismatch ...) is reported on stderr as
``asrbench refs build: error: <set>: <what to do>``, writes nothing, and makes the exit code 2.
Registered in ``pytest_asrbench.cli`` through :func:`add_parser`; imports nothing heavy.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.paths import shown_path
from pytest_asrbench.bench.errors import BenchError
from pytest_asrbench.bench.outputs import check_outputs
from pytest_asrbench.bench.references.pins import EXPECTED_CLIPS, REVISIONS


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``refs`` (with its ``build`` subcommand) and ``bench`` (``score``, ``run``,
    ``compare``) to an argparse ``subparsers`` object."""
    import pytest_asrbench.bench.score_command as score_command
    import pytest_asrbench.bench.compare.cli as compare_cli
    import pytest_asrbench.bench.run.cli as run_cli

    bench = subparsers.add_parser("bench", help="benchmarks: score hypotheses, run a manifest, compare two runs")
    commands = bench.add_subparsers(dest="bench_command", required=True)
    score_command.add_parser(commands)
    run_cli.add_parser(commands)
    compare_cli.add_parser(commands)
    refs = subparsers.add_parser("refs", help="benchmark reference files (build them from the pinned datasets)")
    commands = refs.add_subparsers(dest="refs_command", required=True)
    build = commands.add_parser(
        "build", help="build refs/<set>.jsonl from the pinned Hugging Face datasets (text only, no audio)",
        description="Build the Thai benchmark's references ({id, text, cluster} JSONL per set) from pinned "
                    "dataset commits. gs2 and gs2_long need a Hugging Face login (huggingface-cli login or "
                    "HF_TOKEN) of an account that accepted GigaSpeech2's access terms.")
    build.add_argument("-o", "--out", required=True, type=Path,
                       help="output folder (created if missing, inside an existing folder)")
    build.add_argument("--sets", nargs="+", metavar="SET", default=None,
                       help=f"sets to build (default all): {' '.join(EXPECTED_CLIPS)}")
    build.set_defaults(handler=run_build, source=None)
    return refs


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) if i in (0, 4, 5, 6) else cell.rjust(width)
                       for i, (cell, width) in enumerate(zip(row, widths))).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return lines


def run_build(args: argparse.Namespace) -> int:
    """Handler of ``asrbench refs build``: 0 when every set was written, 2 when any failed
    (each failure is on stderr; the other sets are still built).

    ``args.source`` is the :class:`HubSource` to read (None: the Hugging Face Hub).

    ``--out`` is checked before anything is read (a file, a missing parent folder or a
    read-only place: one line, exit 2); a set whose files cannot be written at the end is
    reported like any failed set.

    Raises:
        OutputPathError: ``--out`` cannot hold the references (before anything is read).
        UnknownSetError: a name in ``--sets`` is not a set (before anything is read).
    """
    from pytest_asrbench.bench.references.builder import build_set
    from pytest_asrbench.bench.references.hub import HubSource
    from pytest_asrbench.bench.references.sets import BuildContext, resolve_sets

    check_outputs([("--out", args.out, "folder", "")])
    specs = resolve_sets(args.sets)
    context = BuildContext(args.source if args.source is not None else HubSource())
    rows = [["set", "clips", "expected", "clusters", "dataset", "revision", "result"]]
    failed = 0
    for number, spec in enumerate(specs, start=1):
        step = f"[{number}/{len(specs)}] {spec.name}"
        print(f"{step}: reading {spec.dataset}@{REVISIONS[spec.dataset][:8]} ...", flush=True)
        try:
            built = build_set(spec, context, args.out)
        except BenchError as exc:
            failed += 1
            report_line(command_path(args), str(exc))
            print(f"{step}: FAILED ({type(exc).__name__})", flush=True)
            rows.append([spec.name, "-", str(EXPECTED_CLIPS[spec.name]), "-", spec.dataset,
                         REVISIONS[spec.dataset][:8], f"FAILED: {type(exc).__name__}"])
            continue
        print(f"{step}: {built.clips} clips, {built.clusters} clusters -> {shown_path(built.path)} ({built.seconds:.1f} s)",
              flush=True)
        rows.append([spec.name, str(built.clips), str(EXPECTED_CLIPS[spec.name]), str(built.clusters),
                     spec.dataset, REVISIONS[spec.dataset][:8], shown_path(built.path)])
    print()
    for line in _table(rows):
        print(line)
    print(f"{len(specs) - failed} of {len(specs)} sets written to {shown_path(args.out)}" + (f", {failed} failed" if failed else ""))
    return 2 if failed else 0
