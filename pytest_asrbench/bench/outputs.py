"""The output paths of the benchmark commands: checked before any work, written in one step.

``asrbench bench score --json/--markdown`` and ``asrbench refs build --out`` call
:func:`check_outputs` first, so a bad path is one line (exit 2) before minutes of
bootstrapping or downloading, with the rule every writer of this package follows
(:func:`pytest_asrbench._shared.paths.output_path_problem`: parent folders are never created
silently). :func:`write_output` turns a write that still fails at the end (a full disk, a
folder removed meanwhile) into the same kind of one-line error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench._shared.paths import os_reason, output_path_problem
from pytest_asrbench.bench.errors import OutputPathError


def check_outputs(outputs: Iterable[tuple[str, Path | None, str, str]]) -> None:
    """Check ``(option, path, kind, example)`` outputs; a ``None`` path (option not given) is skipped.

    ``kind`` and ``example`` are those of :func:`output_path_problem` (``"file"`` or
    ``"folder"``; the file name suggested when a folder is given for a file).

    Raises:
        OutputPathError: the first path that cannot be written, or two options naming one
            file (the second write would replace the first).
    """
    seen: dict[str, str] = {}
    for option, path, kind, example in outputs:
        if path is None:
            continue
        problem = output_path_problem(path, kind, example)
        if problem:
            raise OutputPathError(f"{option} {path}: {problem}")
        key = os.path.realpath(path)
        if key in seen:
            raise OutputPathError(f"{option} {path}: {seen[key]} names the same file; give each output its own path")
        seen[key] = option


def write_output(option: str, path: Path, data: bytes) -> None:
    """Write ``data`` (bytes) to ``path`` atomically (its folder must exist: checked before).

    Raises:
        OutputPathError: the write failed (names the option, the path and the reason); the
            target is left as it was.
    """
    if not Path(path).parent.is_dir():  # removed since the check: never re-created silently
        raise OutputPathError(f"{option} {path}: the folder {Path(path).parent} no longer exists; "
                              "create it again or give another path")
    try:
        write_atomic(path, data)
    except OSError as exc:
        where = "" if exc.filename in (None, str(path)) else f" ({exc.filename})"
        raise OutputPathError(f"{option} {path}: cannot write it{where}: {os_reason(exc)}") from exc
