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

from pytest_asrbench.errors import UnknownMetricError
from pytest_asrbench.signatures.compute import METRICS_MODULE, compute, known_languages, metric_versions, resolve
from pytest_asrbench.signatures.version_gate import RECORD_COMMAND, case_yaml
from pytest_asrbench.signatures.providers import provided_versions, providers
from pytest_asrbench.signatures.sources import GitSource, SourceError, installed_source, project_source


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


def _chosen(args: argparse.Namespace, source) -> tuple[list[str], list[str]]:
    """The metrics and languages to print, every name checked before any hashing.

    Raises:
        SourceError: ``--root`` (or the revision) holds no project: no metrics module or no
            language config.
        UnknownMetricError: a ``--metric`` is not a metric of the project; lists the known ones.
        ConfigError: a ``-l`` has no config (nor a base language with one); lists the known ones.
    """
    versions = metric_versions(source)
    if not versions:
        raise SourceError(f"no pytest-asrbench project in {source.label} ({METRICS_MODULE} not found); "
                          "pass --root a project folder (the one holding pytest_asrbench/ and configs/)")
    languages = known_languages(source)
    if not languages:
        raise SourceError(f"no language configs (*.toml) in {source.label}/{source.configs}; "
                          "pass --root a project folder (the one holding pytest_asrbench/ and configs/)")
    provided = provided_versions(source)
    unknown = [name for name in args.metric or () if name not in versions and name not in provided]
    if unknown:
        raise UnknownMetricError(f"unknown metric(s) {', '.join(map(repr, unknown))}; known metrics: "
                                 f"{', '.join(sorted({*versions, *provided}))}")
    for tag in args.language or ():
        resolve(source, tag)  # ConfigError naming the known languages
    return args.metric or sorted({*versions, *provided}), args.language or languages


def run(args: argparse.Namespace) -> int:
    """Handler of ``asrbench signature``; 0, or raises an ``AsrbenchError`` (exit 2) for an
    unknown metric or language or a folder or revision that holds no project."""
    source = project_source(args.root) if args.root else installed_source()
    if args.rev:
        source = GitSource(source.root, args.rev, configs=source.configs)
    metrics, languages = _chosen(args, source)
    scored = providers()
    # A provider metric scores only its own languages (th_bench_cer: th).
    signatures = [compute(metric, language, source) for language in languages for metric in metrics
                  if metric not in scored or language in scored[metric].languages]
    if args.json:
        print(json.dumps([{
            "metric": sig.metric, "language": sig.language, "version": sig.version,
            "config_version": sig.config_version, "signature": sig.signature, "components": sig.components,
        } for sig in signatures], ensure_ascii=False, indent=2))
        return 0
    if args.case:
        for sig in signatures:
            print(f"# {sig.metric} in {sig.language}: the signature case for <your case folder>/{sig.language}/"
                  "signature.yaml")
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
