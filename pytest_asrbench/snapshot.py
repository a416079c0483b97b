"""The syrupy extension that stores case outputs as JSON under ``snapshots/<lang>/<file>/<id>.json``.

Snapshots are grouped per case file and discovered per case file, so a case deleted from a
YAML file is reported as unused, while the snapshots of a case file that fails to load are
never touched.
"""

from __future__ import annotations

from pathlib import Path

from syrupy.extensions.json import JSONSnapshotExtension


class CaseSnapshotExtension(JSONSnapshotExtension):
    """JSON (UTF-8, unescaped, sorted keys) in a folder set by the case item."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        folder = getattr(test_location.item, "asrbench_snapshot_dir", None)
        if folder is None:  # not a case item: behave like the stock JSON extension
            return super().dirname(test_location=test_location)
        return str(folder)

    @classmethod
    def discovery_dirname(cls, *, test_location) -> str:
        return cls.dirname(test_location=test_location)


def snapshot_dir(root: Path, snapshots: str, language: str, case_file: Path) -> Path:
    """``<root>/<snapshots>/<language>/<case file stem>``."""
    return root / snapshots / language / case_file.stem
