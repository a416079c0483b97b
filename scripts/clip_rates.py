"""The README's table of sample clips: reference, transcript, rate, how the transcript varies by
host, and flags.

Reads the recorded outputs of the `asr` cases (snapshots/<lang>/asr/*.json), so the table is
what CI checks, not a separate measurement. The transcript and rate shown are those of the
native recording (a host with no kernel variable set; the first in name order when there are
several), else of the first recording; "hosts" gives the number of distinct transcripts over
all recordings (native and simulated) and the range of their rates::

    python scripts/clip_rates.py            # print the table
    python scripts/clip_rates.py --write    # replace the table in README.md
    python scripts/clip_rates.py --check    # exit 1 when README.md's table is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BEGIN = "<!-- clip table: python scripts/clip_rates.py --write -->"
END = "<!-- end of clip table -->"
sys.path.insert(0, str(ROOT))

from pytest_asrbench.asr.identity import is_simulated, short_name  # noqa: E402
from pytest_asrbench.asr.recordings import ungroup_recordings  # noqa: E402


def _cell(text: str, width: int = 60) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= width else text[: width - 3] + "..."


def _rate(value) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def rows(snapshots: Path = ROOT / "snapshots") -> list[str]:
    found = []
    for path in sorted(snapshots.glob("*/asr/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        recordings = ungroup_recordings(data["recordings"], str(path))
        native = sorted(name for name in recordings if not is_simulated(name))
        found.append((path, data, recordings, native[0] if native else sorted(recordings)[0]))
    hosts = sorted({short_name(name) for *_, name in found})
    lines = [
        f"| clip | reference | transcript ({', '.join(hosts)}) | rate | hosts | flags |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for path, data, recordings, name in found:
        shown = recordings[name]
        unit = "WER" if shown["unit"] == "word" else "CER"
        transcripts = {entry["transcript"] for entry in recordings.values()}
        rates = [entry["rate"] for entry in recordings.values() if entry["rate"] is not None]
        if len(transcripts) == 1:
            kernels = f"same on {len(recordings)}"
        else:
            kernels = f"{len(transcripts)} transcripts on {len(recordings)}, {unit} {min(rates):.2f}-{max(rates):.2f}"
        flags = ", ".join(shown.get("flags", [])) or "-"
        lines.append(f"| {path.stem} | {_cell(data['reference'])} | {_cell(shown['transcript'])} | "
                     f"{unit} {_rate(shown['rate'])} | {kernels} | {flags} |")
    return lines


def table() -> str:
    return "\n".join([BEGIN, *rows(), END])


def replace_table(readme: str, new: str) -> str:
    """``readme`` with the text between :data:`BEGIN` and :data:`END` replaced by ``new``.

    Raises:
        SystemExit: the markers are missing (put them around the table once by hand).
    """
    start, stop = readme.find(BEGIN), readme.find(END)
    if start < 0 or stop < start:
        raise SystemExit(f"README.md has no clip table markers: add the lines {BEGIN!r} and {END!r}")
    return readme[:start] + new + readme[stop + len(END):]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the README's sample-clip table, from the asr snapshots")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="replace the table in README.md")
    group.add_argument("--check", action="store_true", help="exit 1 when README.md's table is stale")
    args = parser.parse_args(argv)
    current = README.read_text(encoding="utf-8")
    updated = replace_table(current, table())
    if args.write:
        if updated != current:
            README.write_text(updated, encoding="utf-8")
            print("README.md: clip table updated")
        return 0
    if args.check:
        if updated != current:
            print("README.md's clip table is stale: run `python scripts/clip_rates.py --write`", file=sys.stderr)
            return 1
        return 0
    print(table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
