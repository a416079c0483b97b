"""``asrbench bench compare``: decide between two bench run records.

    asrbench bench compare base.json candidate.json --out decision.md [--view cer_normalized]
        [--seed N] [--resamples 1000] [--margin 0.01] [--manifest-sha256 HEX]

Both records are read and validated against the shipped schema, then checked to share the
manifest hash, the decode policy and the included rows (else refused, naming the field).
Writes the Markdown decision to ``--out`` and the JSON record beside it (``decision.json``),
both atomically, both paths checked before any work; prints the verdict and its reasons.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pytest_asrbench._shared.paths import shown_path
from pytest_asrbench.bench.compare.rule import DEFAULT_MARGIN
from pytest_asrbench.bench.errors import ManifestHashError
from pytest_asrbench.bench.outputs import check_outputs, write_output
from pytest_asrbench.errors import InputError
from pytest_asrbench.stats.bootstrap import DEFAULT_RESAMPLES


def add_parser(commands) -> argparse.ArgumentParser:
    """Add ``compare`` to the ``bench`` command's subparsers object."""
    compare = commands.add_parser(
        "compare", help="compare two bench run records: paired bootstrap, cost ratios, a dated verdict",
        description="Compare a candidate run with a base run of the same manifest and decode policy: paired "
                    "cluster bootstrap (speakers) of the CER difference, latency and core-cost ratios, and the "
                    "verdict promote / stay / research only / reject by the pre-registered rule.")
    compare.add_argument("base", type=Path, help="the base run record (asrbench.bench/1)")
    compare.add_argument("candidate", type=Path, help="the candidate run record")
    compare.add_argument("-o", "--out", type=Path, required=True, help="the decision in Markdown; its JSON goes beside it")
    compare.add_argument("--view", default=None,
                         help="the view that decides (default: the records' primary view: cer_normalized for zh, "
                              "the language's metric otherwise)")
    compare.add_argument("--seed", type=int, default=None, help="bootstrap seed (default: the base record's seed)")
    compare.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, help=f"default {DEFAULT_RESAMPLES}")
    compare.add_argument("--margin", type=float, default=DEFAULT_MARGIN,
                         help=f"non-inferiority margin, absolute CER (default {DEFAULT_MARGIN})")
    compare.add_argument("--thresholds", type=Path, default=None,
                         help="the pre-registered usability threshold file (asrbench.thresholds/1): the P1 rule and "
                              "the added-capability route")
    compare.add_argument("--manifest-sha256", default=None, metavar="HEX",
                         help="refuse records of any other manifest than this one (the registered corpus hash)")
    compare.set_defaults(handler=run_compare)
    return compare


def json_path(markdown: Path) -> Path:
    """``decision.md`` -> ``decision.json``."""
    return Path(markdown).with_suffix(".json")


def run_compare(args: argparse.Namespace) -> int:
    """Handler of ``asrbench bench compare``: 0 when the decision was written (whatever the verdict).

    Raises:
        OutputPathError, RecordError, ComparisonError, ManifestHashError (a record of another
        manifest than ``--manifest-sha256``), InputError: exit code 2 with the message.
    """
    from pytest_asrbench.bench.compare.decision import decide_records, markdown
    from pytest_asrbench.bench.run.schema import read_record

    if Path(args.out).suffix.lower() == ".json":
        raise InputError(f"--out {args.out}: name the Markdown file (decision.md); the JSON is written beside it")
    if not 0 <= args.margin < 1:
        raise InputError(f"--margin {args.margin}: a CER difference from 0 to 1")
    check_outputs([("--out", args.out, "file", "decision.md"), ("--out (JSON)", json_path(args.out), "file", "decision.json")])
    inputs = {Path(args.base).resolve(), Path(args.candidate).resolve()}
    for shown, path in (("--out", Path(args.out)), ("--out (JSON)", json_path(args.out))):
        if path.resolve() in inputs:
            raise InputError(f"{shown} {path} is one of the records being compared: it would be overwritten; "
                             "name the decision after neither input (decision.md)")
    base, candidate = read_record(args.base), read_record(args.candidate)
    if args.manifest_sha256 is not None:
        for name, record in (("base", base), ("candidate", candidate)):
            if record["corpus"]["manifest_sha256"] != args.manifest_sha256.lower():
                raise ManifestHashError(f"the {name} record ran manifest {record['corpus']['manifest_sha256']}, not "
                                        f"the expected {args.manifest_sha256}; compare runs of the registered manifest")
    seed = base["seed"] if args.seed is None else args.seed
    thresholds = None
    if args.thresholds is not None:
        from pytest_asrbench.bench.compare.thresholds import read_thresholds

        thresholds = read_thresholds(args.thresholds)
    decision = decide_records(base, candidate, base_path=str(args.base), candidate_path=str(args.candidate),
                              view=args.view, seed=seed, resamples=args.resamples, margin=args.margin,
                              thresholds=thresholds)
    text = markdown(decision)
    write_output("--out", args.out, text.encode("utf-8"))
    write_output("--out (JSON)", json_path(args.out),
                 (json.dumps(decision, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    print(f"verdict: {decision['verdict']}")
    for reason in decision["reasons"]:
        print(f"- {reason}")
    print(f"decision -> {shown_path(args.out)} and {shown_path(json_path(args.out))}")
    return 0
