"""All-or-nothing file writes that honour the umask (a shared helper: stdlib only).

A reader, or a run killed half-way, sees either the old file or the whole new one: the bytes
go to a temporary file beside the target, are flushed to disk and moved onto the target with
``os.replace``. The new file gets the mode an ordinary ``open(path, "w")`` would give it
(``0o666`` less the umask), or the mode of the file it replaces.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def _umask() -> int:
    """The process umask (read by setting it and setting it back: there is no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _refuse_read_only(path: Path) -> None:
    if not os.access(path, os.W_OK) or not path.stat().st_mode & stat.S_IWUSR:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def write_atomic(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` (bytes) in one step; create its folder if needed.

    A target, or a folder, that exists but is read-only (not writable by this process, or
    without its owner-write bit, which also stops root) is refused: the user's protection of
    a file is not bypassed by the rename, nor a folder's by running as root.

    Raises:
        PermissionError: the target or its folder is not writable (the path is in the error).
        OSError: any other failure to create the folder or write the file; the target is then
            left as it was and no temporary file remains.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    _refuse_read_only(target.parent)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    else:
        _refuse_read_only(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
