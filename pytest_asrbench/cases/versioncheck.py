"""``asrbench check-version``: refuse a change to a score's inputs that arrives without a bump.

    asrbench check-version                 working tree against HEAD (a pre-commit hook)
    asrbench check-version --base main     a branch against main (CI)

For every (metric, language), the signature of the base revision (files read with
``git show``) is compared with the working tree's. When it differs and neither the
metric's version (``pytest_asrbench/scoring/metrics.py``) nor the language config's
``version`` moved, the command prints the same finding as the ``kind: signature`` case and
exits 1. It only reads: it never re-records a signature or a snapshot (that is
``pytest --asrbench cases --snapshot-update``, after the bump). Library versions are
compared through their exact pins in ``pyproject.toml``, since the installed ones are not
known for the base revision.

Exit codes: 0 no finding, 1 findings, 2 the base revision or the project cannot be read.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench.cases.signature_cases import project_gate
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.signatures.compute import (
    COMMON_LIBRARIES,
    METRICS_MODULE,
    compute,
    known_languages,
    language_libraries,
    metric_versions,
)
from pytest_asrbench.signatures.providers import provided_versions
from pytest_asrbench.signatures.gate import describe_changes, record_command, unbumped_message
from pytest_asrbench.signatures.sources import GitSource, project_source


@dataclass(frozen=True)
class Finding:
    metric: str
    language: str
    message: str


def find_project(start: Path) -> Path:
    """The folder at or above ``start`` that holds ``pytest_asrbench/scoring/metrics.py``.

    Raises:
        AsrbenchError: there is none (run the command inside the project).
    """
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        if (folder / METRICS_MODULE).is_file():
            return folder
    raise AsrbenchError(f"no pytest-asrbench project at or above {start} ({METRICS_MODULE} not found); "
                        "run check-version inside the project or pass --root")


def _pins(source) -> dict[str, str]:
    """``{distribution (lowercase): version}`` of the exact ``==`` pins in ``pyproject.toml``."""
    data = source.read("pyproject.toml")
    if data is None:
        return {}
    project = load_toml(data, "pyproject.toml").get("project", {})
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    pins = {}
    for requirement in requirements:
        match = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*==\s*([^;,\s]+)", requirement)
        if match:
            pins[match[1].lower().replace("_", "-")] = match[2]
    return pins


def _library_changes(before: dict[str, str], after: dict[str, str], declared: tuple[str, ...]) -> list[str]:
    """The pin moves of the common libraries and ``declared`` (the language's, from its steps)."""
    names = list(COMMON_LIBRARIES) + list(declared)
    changes = []
    for name in names:
        key = name.lower()
        if before.get(key) != after.get(key) and (key in before or key in after):
            changes.append(f"library {name} {before.get(key, 'unpinned')}→{after.get(key, 'unpinned')}")
    return changes


def check(root: Path, base: str) -> tuple[list[Finding], int]:
    """Findings of the working tree at ``root`` against revision ``base``, and pairs checked.

    Raises:
        SourceError: ``base`` is not a revision of the repository holding ``root``.
    """
    now = project_source(root)
    before = GitSource(root, base, configs=now.configs, option="--base")
    versions_before = metric_versions(before) | provided_versions(before)
    languages_before = set(known_languages(before))
    pins_before, pins_now = _pins(before), _pins(now)
    recorded = project_gate(Path(root)).recorded()
    findings, checked = [], 0
    for language in known_languages(now):
        if language not in languages_before:
            continue  # a new language: its signature case is recorded with it
        declared = language_libraries(now, language)
        for metric in sorted(metric_versions(now) | provided_versions(now)):
            if metric not in versions_before or (metric, language) not in recorded:
                continue  # CI gates only the pairs that have a signature case
            old = compute(metric, language, before, with_libraries=False)
            new = compute(metric, language, now, with_libraries=False)
            checked += 1
            changes = describe_changes(old.components, new.components)
            changes += _library_changes(pins_before, pins_now, declared)
            if not changes or old.version != new.version or old.config_version != new.config_version:
                continue
            case = recorded.get((metric, language))
            cases = case.cases if case else (f"cases/{language}" if (Path(root) / "cases" / language).is_dir() else "cases")
            findings.append(Finding(metric, language, unbumped_message(
                metric, language, new.version, new.config_version, changes, record_command(cases),
                version_file=new.version_file)))
    return findings, checked


def add_parser(subparsers) -> None:
    sub = subparsers.add_parser(
        "check-version",
        help="fail when a file feeding a metric signature changed since a revision without a version bump",
        description="Compare every (metric, language) signature of the working tree with revision BASE. "
                    "Exit 1 when one changed and neither the metric's nor the config's version moved. "
                    "Reads only; never re-records anything.",
    )
    sub.add_argument("--base", default="HEAD", help="git revision to compare with (default: HEAD)")
    sub.add_argument("--root", default=".", help="project folder (default: the one holding the current folder)")
    sub.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    root = find_project(Path(args.root))
    findings, checked = check(root, args.base)
    for finding in findings:
        print(finding.message)
    if findings:
        print(f"check-version: {len(findings)} change(s) since {args.base} without a version bump", file=sys.stderr)
        return 1
    print(f"check-version: no unbumped change since {args.base} ({checked} metric/language pairs checked)")
    return 0
