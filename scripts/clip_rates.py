"""Print the README's table of sample clips: reference, transcript, rate and flags per clip.

Reads the recorded outputs of the `asr` cases (snapshots/<lang>/asr/*.json), so the table is
what CI checks, not a separate measurement:

    python scripts/clip_rates.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rows() -> list[str]:
    lines = ["| clip | reference | transcript | rate | flags |", "| --- | --- | --- | --- | --- |"]
    for path in sorted((ROOT / "snapshots").glob("*/asr/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        unit = "WER" if data["unit"] == "word" else "CER"
        rate = "n/a" if data["rate"] is None else f"{data['rate']:.2f}"
        transcript = data["transcript"].replace("|", "\\|")
        if len(transcript) > 60:
            transcript = transcript[:57] + "..."
        reference = data["pairs"][0]["reference"].replace("|", "\\|")
        flags = ", ".join(data.get("flags", [])) or "-"
        lines.append(f"| {path.stem} | {reference} | {transcript} | {unit} {rate} | {flags} |")
    return lines


if __name__ == "__main__":
    print("\n".join(rows()))
