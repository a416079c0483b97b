"""Output paths checked before work starts: one rule for every command and option that writes.

A command that runs for minutes (a pytest run, a bootstrap, a reference build) and only then
finds that it cannot write its output has wasted the run, and a traceback at the end hides
the one line the user needs. So every output path is checked first with
:func:`output_path_problem`, and the caller turns the answer into its own one-line error
(``--asrbench-run-record PATH: ...``, ``asrbench bench score: error: --json PATH: ...``).

The rule: a missing parent folder is never created silently (a typo would scatter outputs in
new folders); the one folder that may be created is an output *folder* itself, inside an
existing one. Writability is proven by creating and removing one temporary file, so a
read-only or special file system (``/proc``) and root's own limits are caught too.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

#: The kinds of output :func:`output_path_problem` checks.
KINDS = ("file", "folder")
#: Files an output never replaces: case files, configs, lexicons and source. A report or a
#: record given such a path is almost always an option whose value was left out
#: (``--asrbench-report cases/en/numbers.yaml``).
PROTECTED_SUFFIXES = (".yaml", ".yml", ".toml", ".tsv", ".py", ".cfg", ".ini")


def os_reason(exc: OSError) -> str:
    """The reason of an ``OSError`` in words (a read-only file system is named as such)."""
    if exc.errno == errno.EROFS:
        return "read-only file system"
    return exc.strerror or str(exc)


def _probe(folder: Path, name: str) -> str | None:
    """Why no file can be created in ``folder`` (an existing folder), or ``None``."""
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{name}.", suffix=".probe", dir=folder)
    except OSError as exc:
        return f"cannot create a file in {folder}: {os_reason(exc)}; give a path in a writable folder"
    os.close(fd)
    os.unlink(probe)
    return None


def _missing_parent(folder: Path) -> str | None:
    """Why ``folder`` (the parent of an output) cannot hold it, or ``None``."""
    if not folder.exists():
        return f"the folder {folder} does not exist; create it first (mkdir -p {folder}) or give another path"
    if not folder.is_dir():
        return f"{folder} is not a folder; give a path inside an existing folder"
    return None


def output_path_problem(path: str | os.PathLike, kind: str = "file", example: str = "out.json") -> str | None:
    """Why an output cannot be written at ``path``, or ``None`` when it can.

    Args:
        path: the output path as the user gave it (relative paths are relative to the
            current folder).
        kind: ``"file"``: a file written at ``path`` (its folder must exist; an existing
            target must be a writable regular file). ``"folder"``: a folder whose files are
            written inside it (it may be created, but only inside an existing folder; an
            existing one must be a writable folder).
        example: a file name used in the advice when a folder is given for a file
            (``"run.json"`` gives "give a file path such as /tmp/run.json").

    Returns:
        One sentence naming the path, what is wrong and what to do, or ``None``.

    Raises:
        ValueError: ``kind`` is not one of :data:`KINDS`.

    The check creates and removes one temporary file (in the target's folder), nothing else.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    target = Path(path)
    if kind == "folder":
        if target.exists():
            if not target.is_dir():
                return f"{target} is not a folder; give a folder path (the output files are written inside it)"
            return _probe(target, "output")
        return _missing_parent(target.parent) or _probe(target.parent, target.name)
    if target.is_dir():
        return f"{target} is a folder; give a file path such as {target / example}"
    problem = _missing_parent(target.parent)
    if problem:
        return problem
    if target.exists() and target.suffix.lower() in PROTECTED_SUFFIXES:
        return (f"{target} exists and is a {target.suffix} file (a case file, config or source file); an output "
                "never replaces one: give the output its own path (was the option's value left out?)")
    if target.exists() or target.is_symlink():
        try:
            mode = target.lstat().st_mode
        except OSError as exc:
            return f"cannot read {target}: {os_reason(exc)}; give another path"
        if not stat.S_ISREG(mode):
            return f"{target} exists and is not a regular file (a device, a link or a pipe); give another path"
        if not os.access(target, os.W_OK) or not mode & stat.S_IWUSR:
            return f"{target} exists and is not writable; make it writable or give another path"
    return _probe(target.parent, target.name)


def path_option(text: str) -> str:
    """An option's PATH value as given (an argparse ``type``), refusing an empty one: ``--x ""``
    (an unset shell variable, ``$GITHUB_STEP_SUMMARY`` outside CI) would otherwise read as the
    option not given, and nothing would be written or said.

    Raises:
        argparse.ArgumentTypeError: ``text`` is empty or only whitespace (pytest and argparse
            show it as a usage error naming the option).
    """
    if not text.strip():
        import argparse

        raise argparse.ArgumentTypeError("the path is empty: give a file path (is the variable that should "
                                         "hold it unset?), or leave the option out")
    return text


def from_root(text: str, root: str | os.PathLike) -> str:
    """``text`` (a message) with every path inside ``root`` (a run's or project's root folder)
    written relative to it, as pytest writes node ids (``cases/en/bad.yaml:4: ...``); a path
    outside it stays as given, and so does every path when ``root`` is the file system's root.
    Messages that name case files (a case file that could not be loaded, a failing case, a case
    ``asrbench add-case`` refuses) are shown so wherever they are printed."""
    for prefix in dict.fromkeys((str(root), os.path.realpath(root))):
        if os.path.dirname(prefix) == prefix:
            continue  # the file system's root: every absolute path would lose its anchor
        text = text.replace(prefix.rstrip(os.sep) + os.sep, "")
    return text



def shown_path(path: str | os.PathLike, cwd: str | os.PathLike | None = None) -> str:
    """How a command names a file or folder it wrote (``wrote r.html``, ``record -> run.json``):
    a relative path as the user gave it; an absolute one relative to the current folder ``cwd``
    (default: the process's) when it lies inside it, else as it is. Every "wrote" line of the
    ``asrbench`` commands and of a ``pytest --asrbench`` run names its path through this."""
    given = os.fspath(path)
    if not os.path.isabs(given):
        return given
    base = os.fspath(cwd) if cwd is not None else os.getcwd()
    for folder, target in ((base, given), (os.path.realpath(base), os.path.realpath(given))):
        relative = os.path.relpath(target, folder)
        if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
            return relative
    return given


def project_folder(path: Path, option: str = "--root") -> Path:
    """``path`` resolved, when it is an existing folder: the project folder a command reads and
    writes under (``--root``). A typo must not read as an empty project nor create one.

    Raises:
        InputError: ``path`` does not exist or is not a folder (names ``option``).
    """
    from pytest_asrbench.errors import InputError

    if not path.is_dir():
        problem = "is not a folder" if path.exists() else "no such folder"
        raise InputError(f"{option} {path}: {problem}; give the project's folder (the one holding its case folder)")
    return path.resolve()
