"""The README's clip table is the one the recorded snapshots give (no stale figures)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_clip_table_matches_the_snapshots():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "clip_rates.py"), "--check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_clip_table_lists_every_asr_snapshot():
    table = subprocess.run([sys.executable, str(ROOT / "scripts" / "clip_rates.py")], capture_output=True,
                           text=True, check=True).stdout
    clips = sorted(path.stem for path in (ROOT / "snapshots").glob("*/asr/*.json"))
    assert clips and all(f"| {clip} |" in table for clip in clips)
