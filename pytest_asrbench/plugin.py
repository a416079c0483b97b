"""pytest hooks only: options, collection of YAML case files, report header and summary.

Everything else is imported from the stage modules; without ``--asrbench`` no YAML file is
collected and ordinary pytest runs are untouched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_asrbench.snapshot import CASE_SUFFIXES

# The ASR stage's own options and run-record hooks (imports nothing heavy).
pytest_plugins = ["pytest_asrbench.asr.pytest_hooks"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("asrbench", "speech-recognition evaluation cases (pytest-asrbench)")
    group.addoption(
        "--asrbench",
        action="store_true",
        default=False,
        help="collect YAML case files (*.yaml under a folder named by asrbench_case_dirs, or given by path)",
    )
    parser.addini("asrbench_snapshot_dir", "folder (relative to rootdir) of recorded case outputs", default="snapshots")
    parser.addini(
        "asrbench_case_dirs",
        "names of folders whose YAML files are case files",
        type="args",
        default=["cases"],
    )


def _given_paths(config: pytest.Config) -> list[Path]:
    return [Path(config.invocation_params.dir, arg.split("::")[0]).resolve() for arg in config.args]


def _is_case_file(file_path: Path, config: pytest.Config) -> bool:
    """A YAML file under a folder named in ``asrbench_case_dirs``, or under (or equal to) a
    path given on the command line other than the rootdir itself (so ``pytest --asrbench .``
    does not take ``.pre-commit-hooks.yaml`` for a case file)."""
    if file_path.suffix not in CASE_SUFFIXES:
        return False
    if set(config.getini("asrbench_case_dirs")).intersection(file_path.parts[:-1]):
        return True
    resolved = file_path.resolve()
    root = config.rootpath.resolve()
    return any(given == resolved or (given != root and given in resolved.parents) for given in _given_paths(config))


def pytest_configure(config: pytest.Config) -> None:
    """Runs that name single cases (``cases/en/a.yaml::case``) turn off syrupy's unused check.

    syrupy ties a node id to snapshots in the test file's own folder; ours live in
    ``snapshots/``, so it would take every other case of the file for unused (and
    ``--snapshot-update`` would delete their snapshots).
    """
    if not config.getoption("asrbench"):
        return
    if any("::" in arg and Path(arg.split("::")[0]).suffix in CASE_SUFFIXES for arg in config.args):
        config.option.disable_unused_snapshots = True


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if not config.getoption("asrbench") or not _is_case_file(file_path, config):
        return None
    from pytest_asrbench.cases.items import CaseFileNode

    return CaseFileNode.from_parent(parent, path=file_path)


def pytest_report_collectionfinish(config: pytest.Config, items) -> str | None:
    """Without ``--asrbench``, a hint when the command line names case files or folders."""
    if config.getoption("asrbench"):
        return None
    folders = set(config.getini("asrbench_case_dirs"))
    for path in _given_paths(config):
        if path.suffix in CASE_SUFFIXES or folders.intersection(path.parts) or any(
            (path / name).is_dir() for name in folders
        ):
            return "asrbench: YAML case files are collected only with --asrbench (pytest --asrbench <paths>)"
    return None


def _orphans(config: pytest.Config) -> list[Path]:
    from pytest_asrbench.snapshot import orphan_snapshot_dirs

    folders = [path for path in _given_paths(config) if path.is_dir()]
    return orphan_snapshot_dirs(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots", folders,
                                config.getini("asrbench_case_dirs"))


ORPHANS = pytest.StashKey[tuple[list[Path], bool]]()


def pytest_sessionfinish(session: pytest.Session, exitstatus) -> None:
    """Snapshot folders whose case file is gone: reported, and deleted by ``--snapshot-update``."""
    config = session.config
    if not config.getoption("asrbench") or hasattr(config, "workerinput"):
        return
    orphans = _orphans(config)
    deleted = bool(orphans) and bool(getattr(config.option, "update_snapshots", False))
    if deleted:
        for folder in orphans:
            for snapshot in folder.glob("*.json"):
                snapshot.unlink()
            if not any(folder.iterdir()):
                folder.rmdir()
    config.stash[ORPHANS] = (orphans, deleted)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    orphans, deleted = config.stash.get(ORPHANS, ([], False))
    if not orphans:
        return
    root = config.rootpath
    verb = "deleted" if deleted else "unused: their case file is gone; --snapshot-update deletes them"
    terminalreporter.write_sep("-", "asrbench snapshot folders")
    terminalreporter.write_line(f"{len(orphans)} snapshot folder(s) {verb}:")
    for folder in orphans:
        terminalreporter.write_line(f"  {folder.relative_to(root) if folder.is_relative_to(root) else folder}")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    if not config.getoption("asrbench"):
        return None
    from pytest_asrbench import __version__
    from pytest_asrbench.normalize.registry import get_config, known_languages
    from pytest_asrbench.scoring.metrics import METRICS

    languages = ", ".join(f"{tag} {get_config(tag).version}" for tag in known_languages())
    metrics = ", ".join(f"{metric.name} {metric.version}" for metric in METRICS.values())
    return [f"asrbench {__version__}: languages {languages}; metrics {metrics}"]
