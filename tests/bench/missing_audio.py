"""A copy of the zh pilot manifest some of whose rows name audio files that do not exist, its
sidecar's audio digest taken over the files that do (as a sidecar written from that folder)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PILOT = ROOT / "samples" / "zh-pilot"
PILOT_AUDIO = ROOT / "samples" / "zh"


def pilot_with_missing_audio(folder: Path, keep: tuple[str, ...], missing: dict[str, str]) -> Path:
    """The pilot manifest's rows ``keep`` (ids) written to ``folder``, each id of ``missing``
    pointing at the audio path given there (no such file under the pilot's audio root); its
    sidecar's ``audio_sha256`` is the digest of the files present. Returns the manifest path."""
    from pytest_asrbench.bench.manifest.meta import audio_set_digest

    rows = [json.loads(line) for line in (PILOT / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [row for row in rows if row["id"] in keep]
    for row in rows:
        row["audio"] = missing.get(row["id"], row["audio"])
    manifest = folder / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    meta = json.loads((PILOT / "manifest.meta.json").read_text(encoding="utf-8"))
    meta["audio_sha256"] = audio_set_digest(
        (row["audio"], hashlib.sha256((PILOT_AUDIO / row["audio"]).read_bytes()).hexdigest())
        for row in rows if row["id"] not in missing)
    (folder / "manifest.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return manifest
