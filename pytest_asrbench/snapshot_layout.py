"""Where case outputs are recorded: JSON files in a tree that mirrors the case files.

``cases/en/numbers.yaml`` records case ``minus`` in ``snapshots/en/numbers/minus.json``: the
path of the case file under its case folder (``asrbench_case_dirs``), without the suffix.
The mapping is one-to-one, so two case files never share snapshots, and a snapshot folder
whose case file is gone can be found (:func:`orphan_snapshot_dirs`). A case's file
is its id as syrupy sanitizes file names (:func:`pytest_asrbench.snapshot.snapshot_file_name`).
Paths only: no syrupy, no pytest.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: Suffixes of case files, compared without regard to case (``c2.YAML`` is a case file too).
CASE_SUFFIXES = (".yaml", ".yml")


def is_case_suffix(path: Path) -> bool:
    """Whether ``path`` ends in ``.yaml`` or ``.yml``, in any letter case (``.YAML``, ``.Yml``)."""
    return path.suffix.lower() in CASE_SUFFIXES


def _has_case_file(stem_path: Path) -> bool:
    """Whether a case file ``<stem_path>.<yaml|yml, any case>`` exists."""
    folder = stem_path.parent
    return folder.is_dir() and any(
        entry.stem == stem_path.name and is_case_suffix(entry) and entry.is_file() for entry in folder.iterdir())


def case_root(path: Path, case_dirs: Iterable[str]) -> Path | None:
    """The nearest folder at or above ``path`` named in ``case_dirs`` (``cases``), if any."""
    names = set(case_dirs)
    for folder in [path, *path.parents]:
        if folder.name in names:
            return folder
    return None


def snapshot_dir(root: Path, snapshots: str, case_file: Path, case_dirs: Iterable[str]) -> Path:
    """``<root>/<snapshots>/<case file path under its case folder, without suffix>``.

    A file outside every case folder (given on the command line) mirrors its path under
    ``root``, or its bare name when it lies outside ``root`` too.
    """
    case_file = case_file.resolve()
    base = case_root(case_file.parent, case_dirs) or root.resolve()
    try:
        relative = case_file.relative_to(base)
    except ValueError:
        relative = Path(case_file.name)
    return root / snapshots / relative.with_suffix("")


def orphan_snapshot_dirs(root: Path, snapshots: str, folders: Iterable[Path], case_dirs: list[str]) -> list[Path]:
    """Snapshot folders under the given case folders' mirrors whose case file no longer exists.

    ``folders`` are directories the run covered (command-line arguments). For each, its case
    folder is found (itself, an ancestor, or a child named in ``case_dirs``); every folder
    of JSON files in the mirrored snapshot tree must then have a case file
    (``<case folder>/<relative>.yaml`` or ``.yml``, in any letter case).
    """
    orphans: set[Path] = set()
    snapshot_root = root / snapshots
    for folder in folders:
        folder = folder.resolve()
        base = case_root(folder, case_dirs)
        pairs = [(folder, base)] if base else [(folder / name, folder / name) for name in case_dirs]
        for covered, base in pairs:
            if not covered.is_dir():
                continue
            mirror = snapshot_root / covered.relative_to(base)
            if not mirror.is_dir():
                continue
            for json_dir in {path.parent for path in mirror.rglob("*.json")}:
                relative = json_dir.relative_to(snapshot_root)
                if not _has_case_file(base / relative):
                    orphans.add(json_dir)
    return sorted(orphans)
