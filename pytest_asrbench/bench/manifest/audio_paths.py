"""Audio paths kept inside the audio root.

A manifest names each row's audio relative to ``--audio-root``. The path is refused (the row
is excluded with a reason code) when it is absolute or has a drive (``audio-absolute-path``),
has a ``..`` component (``audio-parent-reference``), passes through a symbolic link
(``audio-symlink``: a link can point anywhere, and what is read must be what the sidecar's
digest covers), resolves outside the root anyway (``audio-outside-root``), or names no file
(``audio-missing``; the gate refuses the corpus for it unless the caller allows missing audio).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath

ABSOLUTE = "audio-absolute-path"
PARENT = "audio-parent-reference"
SYMLINK = "audio-symlink"
OUTSIDE = "audio-outside-root"
MISSING = "audio-missing"
REASONS = (ABSOLUTE, PARENT, SYMLINK, OUTSIDE, MISSING)


def resolve_audio(root: Path, audio: str) -> tuple[Path | None, str | None]:
    """``(path, None)`` for an audio file inside ``root``, else ``(None, reason code)``.

    Args:
        root: the audio root folder (must exist: checked by the caller).
        audio: the row's ``audio`` field, ``/``-separated.
    """
    posix, windows = PurePosixPath(audio), PureWindowsPath(audio)
    if posix.is_absolute() or windows.is_absolute() or windows.drive or audio.startswith("\\"):
        return None, ABSOLUTE
    parts = [part for part in audio.replace("\\", "/").split("/") if part not in ("", ".")]
    if ".." in parts:
        return None, PARENT
    root = Path(root)
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            return None, SYMLINK
    resolved = current.resolve()
    if not resolved.is_relative_to(root.resolve()):
        return None, OUTSIDE
    if not resolved.is_file():
        return None, MISSING
    return resolved, None
