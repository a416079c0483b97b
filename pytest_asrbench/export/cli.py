"""``asrbench export sclite INPUT... --out DIR``: sclite's trn files and pra alignment files.

INPUT is a case file, a folder of case files (``cases``, ``cases/hi``) or a run record
(``--asrbench-run-record PATH``). DIR gets one folder per language and metric and a
``README.txt`` that says which file is which view; then, with NIST SCTK installed, e.g.
``sclite -r DIR/ko/stt_wer/ref.trn trn -h DIR/ko/stt_wer/hyp.trn trn -i rm -s -o sum stdout``
(:mod:`pytest_asrbench.export.sclite`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_asrbench import __version__
from pytest_asrbench._shared.paths import output_path_problem, project_folder, shown_path
import pytest_asrbench.export.sclite as sclite
from pytest_asrbench.export.sources import ExportError, gather


def add_parser(subparsers) -> None:
    sub = subparsers.add_parser("export", help="write scores in other tools' formats (sclite)")
    formats = sub.add_subparsers(dest="format", required=True)
    trn = formats.add_parser("sclite", help="per language: ref.trn, hyp.trn and alignments.pra of the headline view "
                             "(and of a second view) from cases or a run record")
    trn.add_argument("inputs", nargs="+", type=Path, metavar="RUN_OR_CASES",
                     help="case files, folders of case files, or run records (.json)")
    trn.add_argument("-o", "--out", type=Path, required=True, help="folder for the files (created)")
    trn.add_argument("--raw", action="store_true", help="write the texts as given, not the normalized tokens")
    trn.add_argument("--root", type=Path, default=Path("."), help="the project folder (snapshots of asr cases)")
    trn.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    problem = output_path_problem(args.out, kind="folder")
    if problem:
        raise ExportError(f"--out: {problem}")
    utterances = gather(args.inputs, project_folder(args.root))
    if not utterances:
        raise ExportError("no score or asr case (or run-record clip with a reference) in the inputs: nothing to export")
    written = sclite.write(utterances, args.out, raw=args.raw, version=__version__)
    print(f"{written.utterances} utterance(s), {len(written.files)} file(s) in {shown_path(args.out)}; "
          f"{shown_path(args.out / 'README.txt')} says which file is which view and how to run sclite on it")
    return 0
