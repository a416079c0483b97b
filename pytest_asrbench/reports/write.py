"""Writing the report files: each path checked before the run starts, each file written
atomically at its end (a reader never sees half a report; an interrupted write leaves the
previous file as it was)."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench._shared.paths import from_root, os_reason, output_path_problem, shown_path
from pytest_asrbench.errors import AsrbenchError

#: Each report option and the example file name its path advice gives.
OUTPUTS = {"--asrbench-report": "report.html", "--asrbench-markdown": "summary.md"}


class ReportWriteError(AsrbenchError):
    """A report file could not be written (the message names the option, the path and why)."""


def path_problem(option: str, path: Path, cwd: str | os.PathLike | None = None) -> str | None:
    """``"--asrbench-report PATH: why"`` when no file can be written at ``path``, else ``None``;
    paths inside ``cwd`` (the folder pytest was started in; default the current one) are
    written from it (:func:`~pytest_asrbench._shared.paths.shown_path`)."""
    problem = output_path_problem(path, "file", OUTPUTS[option])
    return f"{option} {shown_path(path, cwd)}: {_from(problem, cwd)}" if problem else None


def _from(text: str, cwd: str | os.PathLike | None) -> str:
    """``text`` with the paths inside ``cwd`` written from it."""
    return from_root(text, cwd if cwd is not None else os.getcwd())


def shared_path_problem(outputs: list[tuple[str, Path]], cwd: str | os.PathLike | None = None) -> str | None:
    """``"--asrbench-report r.html and --asrbench-markdown r.html name the same file: ..."``
    when two ``(option, path)`` outputs would write one file (the same path after resolving
    ``..`` and links, or a hard link of an existing file), else ``None``; paths shown as
    :func:`path_problem` shows them."""
    for index, (option, path) in enumerate(outputs):
        for other, other_path in outputs[index + 1:]:
            if _same_file(path, other_path):
                return (f"{option} {shown_path(path, cwd)} and {other} {shown_path(other_path, cwd)} name the same "
                        f"file: the second write would replace the first; give each its own path (e.g. {option} "
                        f"{OUTPUTS.get(option, 'run.json')} {other} {OUTPUTS.get(other, 'run.json')})")
    return None


def _same_file(path: Path, other: Path) -> bool:
    if path.resolve() == other.resolve():
        return True
    try:
        return path.samefile(other)
    except OSError:
        return False  # one of them does not exist yet: the resolved paths decided


def write_report(option: str, path: Path, text: str, cwd: str | os.PathLike | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically.

    Raises:
        ReportWriteError: the write failed (names ``option``, ``path`` as :func:`path_problem`
            shows it, and the reason).
    """
    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise ReportWriteError(f"{option} {shown_path(path, cwd)}: cannot write the report: {os_reason(exc)}") from exc
