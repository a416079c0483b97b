"""Input paths checked before work starts: one rule for every command that reads a file or folder.

A command given a folder where it reads a file (``asrbench asr parity cases/en``), a file where
it reads a folder (``bench score --refs refs.jsonl``) or a path that does not exist must say so
in one line naming the path, the option it came from and the kind of path the option takes,
before it loads a model or reads anything else, never ``[Errno 21] Is a directory`` or "no such
folder" for a file that exists. :func:`input_path_problem` is the rule;
:func:`check_input_paths` raises the first problem of a command's inputs as its error.
Outputs have their own rule (:mod:`pytest_asrbench._shared.paths`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

#: The kinds of input :func:`input_path_problem` checks.
KINDS = ("file", "folder")


def _label(path: Path, option: str | None) -> str:
    return f"{option} {path}" if option else str(path)


def input_path_problem(path: str | os.PathLike, kind: str, what: str, option: str | None = None,
                       advice: str | None = None) -> str | None:
    """Why ``path`` cannot be read as an input of ``kind``, or ``None`` when it can.

    Args:
        path: the path as the user gave it (relative to the current folder).
        kind: ``"file"`` (a regular file, read whole) or ``"folder"`` (a folder whose files
            are read).
        what: what the command reads there, in the user's words (``"manifest"``, ``"case
            file"``, ``"references folder"``): named in the message.
        option: the option the path came from (``"--manifest"``), or ``None`` for a
            positional argument.
        advice: what to do when the path does not exist (``"build it with asrbench refs
            build --out refs"``); the message has a generic one otherwise.

    Returns:
        One sentence naming the path (and option), what kind of path it is and what kind is
        expected, or ``None``.

    Raises:
        ValueError: ``kind`` is not one of :data:`KINDS`.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    target = Path(path)
    label = _label(target, option)
    article = "an" if what[:1].lower() in "aeiou" else "a"
    if not target.exists():
        dangling = " (a link to a missing target)" if target.is_symlink() else ""
        return f"{label}: no such {kind}{dangling}; {advice or f'give the path of {article} {what}'}"
    if kind == "file" and target.is_dir():
        return f"{label} is a folder, where a file is expected: give the path of {article} {what}"
    if kind == "folder" and not target.is_dir():
        return f"{label} is a file, where a folder is expected: give the path of {article} {what}"
    if kind == "file" and not target.is_file():
        return f"{label} is not a regular file (a device or a pipe): give the path of {article} {what}"
    if not os.access(target, os.R_OK | (os.X_OK if kind == "folder" else 0)):
        return f"{label}: permission denied; make the {kind} readable or give another {what}"
    return None


def check_input_paths(inputs: Iterable[tuple[str | None, str | os.PathLike | None, str, str, str | None]],
                      error: type[Exception]) -> None:
    """Check a command's inputs in order, before it does any work; a ``None`` path (an option
    not given) is skipped.

    Args:
        inputs: ``(option, path, kind, what, advice)`` per input, as :func:`input_path_problem`
            takes them.
        error: the exception class the command raises for bad input (its message is the
            problem).

    Raises:
        error: the first input with a problem.
    """
    for option, path, kind, what, advice in inputs:
        if path is None:
            continue
        problem = input_path_problem(path, kind, what, option, advice)
        if problem:
            raise error(problem)
