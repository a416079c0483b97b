"""``asrbench signature``: print each input of a (metric, language) signature and the total.

    asrbench signature                      every metric in every language
    asrbench signature -l en --metric stt_wer
    asrbench signature -l en --json         machine-readable
    asrbench signature -l en --case         a ready `kind: signature` entry for cases/en/signature.yaml
    asrbench signature -l en --rev HEAD     as committed (library versions: the installed ones)
"""

from __future__ import annotations

import argparse
import json

from pytest_asrbench.signatures.compute import compute, known_languages, metric_versions
from pytest_asrbench.signatures.gate import RECORD_COMMAND, case_yaml
from pytest_asrbench.signatures.sources import GitSource, installed_source, project_source


def add_parser(subparsers) -> None:
    sub = subparsers.add_parser(
        "signature",
        help="print the signature of a metric in a language: each input's hash and the total",
        description="Print the inputs of each (metric, language) signature and their hashes. "
                    f"Re-record signature cases after a version bump with `{RECORD_COMMAND.format(cases='cases')}`.",
    )
    sub.add_argument("-l", "--language", action="append", help="language tag (repeatable; default: every config)")
    sub.add_argument("--metric", action="append", help="metric name (repeatable; default: every metric)")
    sub.add_argument("--json", action="store_true", help="print a JSON list of signatures")
    sub.add_argument("--case", action="store_true", help="print `kind: signature` YAML entries to paste in a case file")
    sub.add_argument("--root", help="project folder to read (default: the installed package and its configs)")
    sub.add_argument("--rev", help="read the files as of this git revision of the project (e.g. HEAD)")
    sub.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    source = project_source(args.root) if args.root else installed_source()
    if args.rev:
        source = GitSource(source.root, args.rev, configs=source.configs)
    metrics = args.metric or sorted(metric_versions(source))
    languages = args.language or known_languages(source)
    signatures = [compute(metric, language, source) for language in languages for metric in metrics]
    if args.json:
        print(json.dumps([{
            "metric": sig.metric, "language": sig.language, "version": sig.version,
            "config_version": sig.config_version, "signature": sig.signature, "components": sig.components,
        } for sig in signatures], ensure_ascii=False, indent=2))
        return 0
    if args.case:
        for sig in signatures:
            print(f"# {sig.metric} in {sig.language}: cases/{sig.language}/signature.yaml")
            print(case_yaml(sig), end="")
        return 0
    for index, sig in enumerate(signatures):
        if index:
            print()
        print(f"{sig.metric} / {sig.language}  (metric version {sig.version}, config version {sig.config_version})")
        width = max(len(name) for name in sig.components)
        for name, value in sig.components.items():
            print(f"  {name:<{width}}  {value}")
        print(f"  {'signature':<{width}}  {sig.signature}")
    return 0
