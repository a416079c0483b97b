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


def shared_path_problem(outputs: list[tuple[str, Path]]) -> str | None:
    """``"--asrbench-report r.html and --asrbench-markdown r.html name the same file: ..."``
    when two ``(option, path)`` outputs would write one file (the same path after resolving
    ``..`` and links, or a hard link of an existing file), else ``None``."""
    for index, (option, path) in enumerate(outputs):
        for other, other_path in outputs[index + 1:]:
            if _same_file(path, other_path):
                return (f"{option} {path} and {other} {other_path} name the same file: the second write would "
                        f"replace the first; give each its own path (e.g. {option} {OUTPUTS.get(option, 'run.json')} "
                        f"{other} {OUTPUTS.get(other, 'run.json')})")
    return None


def _same_file(path: Path, other: Path) -> bool:
    if path.resolve() == other.resolve():
        return True
    try:
        return path.samefile(other)
    except OSError:
        return False  # one of them does not exist yet: the resolved paths decided


def write_report(option: str, path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically.

    Raises:
        ReportWriteError: the write failed (names ``option``, ``path`` and the reason).
    """
    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise ReportWriteError(f"{option} {path}: cannot write the report: {os_reason(exc)}") from exc
