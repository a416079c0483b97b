"""File hashes."""

from __future__ import annotations

import hashlib
import os


def file_sha256(path: str | os.PathLike, chunk_size: int = 1 << 20) -> str:
    """SHA-256 hex digest (64 characters) of a file's bytes, read in ``chunk_size`` chunks (1 MiB).

    Raises:
        OSError: the file cannot be read.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(chunk_size), b""):
            digest.update(block)
    return digest.hexdigest()
