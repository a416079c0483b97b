"""The README's clip table is the one the recorded snapshots give (no stale figures)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_clip_table_matches_the_snapshots():
    table = subprocess.run([sys.executable, str(ROOT / "scripts" / "clip_rates.py")], capture_output=True,
                           text=True, check=True).stdout.strip()
    assert table.count("\n") > 2
    assert table in (ROOT / "README.md").read_text(encoding="utf-8"), (
        "README's clip table is stale: paste the output of `python scripts/clip_rates.py`"
    )
