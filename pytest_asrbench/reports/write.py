"""Writing the report files: each path checked before the run starts, each file written
atomically at its end (a reader never sees half a report; an interrupted write leaves the
previous file as it was)."""

from __future__ import annotations

from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench._shared.paths import os_reason, output_path_problem
from pytest_asrbench.errors import AsrbenchError

#: Each report option and the example file name its path advice gives.
OUTPUTS = {"--asrbench-report": "report.html", "--asrbench-markdown": "summary.md"}


class ReportWriteError(AsrbenchError):
    """A report file could not be written (the message names the option, the path and why)."""


def path_problem(option: str, path: Path) -> str | None:
    """``"--asrbench-report PATH: why"`` when no file can be written at ``path``, else ``None``."""
    problem = output_path_problem(path, "file", OUTPUTS[option])
    return f"{option} {path}: {problem}" if problem else None


def write_report(option: str, path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically.

    Raises:
        ReportWriteError: the write failed (names ``option``, ``path`` and the reason).
    """
    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise ReportWriteError(f"{option} {path}: cannot write the report: {os_reason(exc)}") from exc
