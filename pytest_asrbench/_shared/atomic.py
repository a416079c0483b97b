"""All-or-nothing file writes (caches, assembled models, run records).

A reader (another pytest-xdist worker, a later run) sees either no file or a whole one:
the bytes go to a temporary file in the target's folder, which is fsynced and moved onto
the target with ``os.replace`` only when the writer finished without an error.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


@contextmanager
def atomic_file(target: Path) -> Iterator[BinaryIO]:
    """Yield a binary file whose content replaces ``target`` when the block ends normally.

    An exception inside the block (a failed checksum, a full disk) removes the temporary
    file and propagates; ``target`` is left as it was. The target's folder is created.

    Raises:
        OSError: the folder cannot be created or written.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
