"""pytest hooks only: options, collection of YAML case files, report header and summary.

Everything else is imported from the stage modules; without ``--asrbench`` no YAML file is
collected and ordinary pytest runs are untouched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CASE_SUFFIXES = (".yaml", ".yml")

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "asrbench_case(kind, language): a YAML case collected by pytest-asrbench")


def _is_case_file(file_path: Path, config: pytest.Config) -> bool:
    if file_path.suffix not in CASE_SUFFIXES:
        return False
    folders = set(config.getini("asrbench_case_dirs"))
    if folders.intersection(file_path.parts[:-1]):
        return True
    given = {Path(arg.split("::")[0]).resolve() for arg in config.args}
    return file_path.resolve() in given


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if not config.getoption("asrbench") or not _is_case_file(file_path, config):
        return None
    from pytest_asrbench.cases.items import CaseFileNode

    return CaseFileNode.from_parent(parent, path=file_path)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    if not config.getoption("asrbench"):
        return None
    from pytest_asrbench import __version__
    from pytest_asrbench.normalize.registry import get_config, known_languages
    from pytest_asrbench.scoring.metrics import METRICS

    languages = ", ".join(f"{tag} {get_config(tag).version}" for tag in known_languages())
    metrics = ", ".join(f"{metric.name} {metric.version}" for metric in METRICS.values())
    return [f"asrbench {__version__}: languages {languages}; metrics {metrics}"]
