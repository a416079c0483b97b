"""``asrbench check-version``: refuse a change to a score's inputs that arrives without a bump.

    asrbench check-version                 working tree against HEAD (a pre-commit hook)
    asrbench check-version --base main     a branch against main (CI)

For every (metric, language) that a signature case records, the signature of the base
revision (files read with ``git show``) is compared with the working tree's. When it differs
and neither the metric's version nor the language config's ``version`` moved, the command
prints the same finding as the ``kind: signature`` case and exits 1. It only reads: it never
re-records a signature or a snapshot (that is ``pytest --asrbench <cases> --snapshot-update``,
after the bump).

Two kinds of project:

- **a team's project** that installs the package: its own config folders (the
  ``asrbench_config_dirs`` ini option of its pytest.ini / pyproject.toml / tox.ini /
  setup.cfg, ``ASRBENCH_CONFIG_DIRS``, or ``--config-dir``) are layered over the installed
  package's configs at the base revision and in the working tree; the installed package is
  the same on both sides, so a finding is always one of the project's configs or lexicons,
  named by its own path (``myconfigs/en.toml``, ``myconfigs/en/spelling.tsv``). Its signature
  cases are found under its ``asrbench_case_dirs`` folders (default ``cases``);
- **this package's repository** (the folder holding ``pytest_asrbench/scoring/metrics.py``):
  the package's modules, metric versions and shipped configs. Library versions are compared
  through their exact pins in ``pyproject.toml``, since the installed ones are not known for
  the base revision.

Exit codes: 0 no finding, 1 findings, 2 the base revision or the project cannot be read.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.config_layers import (
    ENV_VAR, layered_configs_dir, origin_in)
from pytest_asrbench._shared.project_ini import ProjectSettings, find_settings, project_config_folders
from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench.cases.signature_files import project_gate
from pytest_asrbench.errors import InputError
from pytest_asrbench.signatures.compute import (
    COMMON_LIBRARIES,
    METRICS_MODULE,
    compute,
    known_languages,
    language_libraries,
    metric_versions,
)
from pytest_asrbench.signatures.providers import provided_versions
from pytest_asrbench.signatures.version_gate import describe_changes, record_command, unbumped_message
from pytest_asrbench.signatures.sources import DirSource, GitSource, project_source


@dataclass(frozen=True)
class Finding:
    metric: str
    language: str
    message: str


def find_project(start: Path) -> Path | None:
    """The folder at or above ``start`` that holds ``pytest_asrbench/scoring/metrics.py`` (this
    package's repository, or a copy of it), or ``None`` (a team's project)."""
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        if (folder / METRICS_MODULE).is_file():
            return folder
    return None


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


# ---- a team's project: its own config folders over the installed package --------------------

@dataclass(frozen=True)
class TeamProject:
    """A project that installs the package: its root, its config folders (absolute, in search
    order; empty when it names none) and the folder names of its case files."""

    root: Path
    config_dirs: list[Path]
    case_dirs: list[str]
    #: why ``config_dirs`` is empty ("pytest.ini names none"); "" when it is not
    no_config_dirs: str = ""


def team_project(start: Path, given: list[Path], environ: dict[str, str] | None = None) -> TeamProject:
    """The team project holding ``start``: its pytest settings (:mod:`.._shared.project_ini`), and
    its config folders: ``given`` (``--config-dir``, relative to the current folder), then the
    ``asrbench_config_dirs`` ini option (relative to the project root), then
    ``ASRBENCH_CONFIG_DIRS``.

    ``config_dirs`` is empty when no setting names a folder: the project has no config of its
    own, so there is nothing of its own to check (:func:`run` says so and passes).

    Raises:
        ConfigError: a named folder does not exist (the message names the setting).
    """
    settings: ProjectSettings = find_settings(start)
    folders = project_config_folders(settings, given, environ)
    found = "" if folders else (f"{_shown(Path(settings.ini_file), settings.root)} names none" if settings.ini_file else
                                f"no pytest.ini, pyproject.toml, tox.ini or setup.cfg at or above {settings.root}")
    return TeamProject(settings.root, folders, settings.args("asrbench_case_dirs", ["cases"]), found)


def _folder_at(folder: Path, base: str, out: Path) -> Path:
    """A copy of ``folder`` as it was at revision ``base``, written under ``out`` (empty when
    the folder did not exist then).

    Raises:
        SourceError: ``folder`` is not in a git repository, or ``base`` is not a commit there.
    """
    source = GitSource(folder, base, option="--base")
    out.mkdir(parents=True)
    for rel in sorted(source.files):
        data = source.read(rel)
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return out


def _package_root() -> Path:
    import pytest_asrbench

    return Path(pytest_asrbench.__file__).resolve().parent.parent


def check_team(project: TeamProject, base: str) -> tuple[list[Finding], int]:
    """Findings of a team project's config folders (working tree) against revision ``base``,
    and the number of (metric, language) pairs checked: only pairs with a signature case
    under ``project.case_dirs``, in languages that existed at ``base``.

    Raises:
        SourceError: ``base`` cannot be read.
        ConfigError: a config of either side is malformed (bad ``extends``, bad TOML).
    """
    from pytest_asrbench.normalize.registry import shipped_configs_dir

    shipped, package_root = shipped_configs_dir(), _package_root()
    effective_now = layered_configs_dir(project.config_dirs, shipped)
    now = DirSource(package_root, "configs", configs_root=effective_now)
    with tempfile.TemporaryDirectory(prefix="asrbench-check-version-") as scratch:
        then = [_folder_at(folder, base, Path(scratch) / str(index)) for index, folder in enumerate(project.config_dirs)]
        before = DirSource(package_root, "configs", configs_root=layered_configs_dir(then, shipped))
        return _compare_team(project, before, now)


def _compare_team(project: TeamProject, before: DirSource, now: DirSource):
    def locate(rel: str) -> str | None:
        origin = origin_in(project.config_dirs, rel)
        if origin is None:
            return None
        try:
            return origin.resolve().relative_to(project.root).as_posix()
        except ValueError:
            return str(origin)

    recorded = project_gate(project.root, project.case_dirs).recorded()
    languages_before = set(known_languages(before))
    findings, checked = [], 0
    for (metric, language), case in sorted(recorded.items()):
        if language not in languages_before or language not in known_languages(now):
            continue  # a new language: its signature case is recorded with it
        old = compute(metric, language, before, with_libraries=False)
        new = compute(metric, language, now, with_libraries=False)
        checked += 1
        changes = describe_changes(old.components, new.components)
        if not changes or old.version != new.version or old.config_version != new.config_version:
            continue
        findings.append(Finding(metric, language, unbumped_message(
            metric, language, new.version, new.config_version, changes, record_command(case.cases), locate,
            version_file=new.version_file)))
    return findings, checked


def add_parser(subparsers) -> None:
    sub = subparsers.add_parser(
        "check-version",
        help="fail when a file feeding a metric signature changed since a revision without a version bump",
        description="Compare every recorded (metric, language) signature of the working tree with revision BASE. "
                    "Exit 1 when one changed and neither the metric's nor the config's version moved. In a "
                    "project that installs pytest-asrbench, its own config folders (asrbench_config_dirs, "
                    f"{ENV_VAR}, --config-dir) are checked. Reads only; never re-records anything.",
    )
    sub.add_argument("--base", default="HEAD", help="git revision to compare with (default: HEAD)")
    sub.add_argument("--root", default=".", help="project folder (default: the one holding the current folder)")
    sub.add_argument("--config-dir", action="append", default=[], metavar="DIR", type=Path,
                     help="a project config folder to check (repeatable; searched before asrbench_config_dirs and "
                          f"{ENV_VAR})")
    sub.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``asrbench check-version``: 0 no finding (or, in a team project that names no
    config folder of its own, nothing to check: a note says how to name one), 1 findings.

    Raises:
        InputError: ``--root`` is not a folder.
        ConfigError: a team project names a config folder that is missing.
        SourceError: the base revision cannot be read.
    """
    if not Path(args.root).is_dir():
        raise InputError(f"--root {args.root}: no such folder; give the project's folder")
    root = find_project(Path(args.root))
    if root is not None:
        findings, checked = check(root, args.base)
        where = "this package's metrics and configs"
    else:
        project = team_project(Path(args.root), args.config_dir)
        if not project.config_dirs:
            # Only the shipped configs are in use, and they are versioned by the package itself:
            # a pre-commit hook in a project that only writes cases must not block its commits.
            print(f"{command_path(args)}: nothing to check: no project config folder "
                  f"({project.no_config_dirs}); the shipped configs are versioned by pytest-asrbench itself. "
                  f"To check configs of your own, name their folders with `asrbench_config_dirs = myconfigs` in "
                  f"the [pytest] section of pytest.ini (or [tool.pytest.ini_options] of pyproject.toml), with "
                  f"{ENV_VAR}, or with --config-dir")
            return 0
        findings, checked = check_team(project, args.base)
        where = ", ".join(_shown(folder, project.root) for folder in project.config_dirs)
        if not checked:
            report_line(command_path(args), f"no signature case under {', '.join(project.case_dirs)} of "
                        f"{project.root} records a language of {where}; print one with `asrbench signature -l <lang> "
                        f"--metric stt_wer --config-dir <folder> --case` into a case file there (asrbench_case_dirs "
                        f"names case folders)", kind="warning")
    for finding in findings:
        print(finding.message)
    if findings:
        report_line(command_path(args), f"{len(findings)} change(s) since {args.base} without a version bump")
        return 1
    print(f"{command_path(args)}: no unbumped change since {args.base} in {where} ({checked} metric/language pairs "
          "checked)")
    return 0


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)
