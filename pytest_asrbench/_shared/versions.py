"""Installed versions of distributions (for signatures, engine identities and run records)."""

from __future__ import annotations

import importlib.metadata


def installed_version(distribution: str) -> str | None:
    """The installed version of ``distribution`` (a PyPI name such as ``faster-whisper``), or
    ``None`` when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
