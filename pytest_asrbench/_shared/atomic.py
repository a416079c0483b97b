"""All-or-nothing file writes (caches, assembled models, run records, snapshots).

A reader (another pytest-xdist worker, a later run) sees either no file or a whole one:
the bytes go to a temporary file in the target's folder, which is fsynced and moved onto
the target with ``os.replace`` only when the writer finished without an error.

The file gets the permissions a plain ``open(target, "w")`` would give it,
``0o666 & ~umask``: ``tempfile.mkstemp`` creates its file ``0o600`` whatever the umask,
so without the ``fchmod`` below a cache shared by a team (umask 002, a group folder) could
not be read by anyone but its writer.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

#: Permission bits of a new file before the umask, as ``open()`` uses them.
FILE_MODE = 0o666

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process's umask (e.g. ``0o022``), read without changing it where the OS allows.

    Linux reports it in ``/proc/self/status``; elsewhere it is read by setting and
    restoring it under a lock (``os.umask`` has no read-only form).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):  # no /proc, or no Umask line: read it the portable way below
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o077)
        os.umask(mask)
    return mask


@contextmanager
def atomic_file(target: Path, mode: int | None = None) -> Iterator[BinaryIO]:
    """Yield a binary file whose content replaces ``target`` when the block ends normally.

    An exception inside the block (a failed checksum, a full disk, Ctrl-C) removes the
    temporary file and propagates; ``target`` is left as it was. The target's folder is
    created (with the umask's permissions). The new file's mode is ``mode``, by default
    ``0o666 & ~umask``.

    Raises:
        IsADirectoryError: ``target`` is an existing folder (refused before any temporary
            file is made: a temporary file would land in the folder's parent).
        OSError: the folder cannot be created or written.
    """
    target = Path(target)
    refuse_folder_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            os.chmod(tmp, FILE_MODE & ~current_umask() if mode is None else mode)
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:  # any exit, Ctrl-C included, leaves no temporary file; re-raised
        Path(tmp).unlink(missing_ok=True)
        raise


def refuse_folder_target(target: Path) -> None:
    """Raise ``IsADirectoryError`` (naming ``target``) when ``target`` is an existing folder.

    ``os.replace`` cannot put a file over a folder, and the temporary file would have been
    made beside the folder (in its parent: ``/.tmp.xyz`` for ``/tmp``), so a folder target is
    refused before anything is written.
    """
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file; give a file path inside it", str(target))


def _read_only_file_system(path: Path) -> bool:
    """Whether ``path`` lies on a file system mounted read-only (where ``statvfs`` tells)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): cannot tell
        return False


def _refuse_read_only(path: Path) -> None:
    if _read_only_file_system(path):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
    if not os.access(path, os.W_OK) or not path.stat().st_mode & stat.S_IWUSR:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def write_atomic(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` (bytes) in one step, as :func:`atomic_file` does,
    keeping the mode of the file it replaces; create its folder if needed.

    A target, or a folder, that exists but is read-only (not writable by this process, or
    without its owner-write bit, which also stops root) is refused: the user's protection of
    a file (a recorded snapshot) is not bypassed by the rename.

    Raises:
        IsADirectoryError: ``target`` is an existing folder (nothing is created).
        PermissionError: the target or its folder is not writable (the path is in the error).
        OSError: with ``errno.EROFS`` when the folder is on a read-only file system.
        OSError: any other failure to create the folder or write the file; the target is then
            left as it was and no temporary file remains.
    """
    target = Path(target)
    refuse_folder_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    _refuse_read_only(target.parent)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = None
    else:
        _refuse_read_only(target)
    with atomic_file(target, mode) as out:
        out.write(data)
