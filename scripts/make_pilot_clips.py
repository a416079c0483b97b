#!/usr/bin/env python3
"""Make the Mandarin pilot's extra clips and its manifest from the committed zh sample clips.

    python scripts/make_pilot_clips.py          # (re)write samples/zh/pilot/ and the manifest
    python scripts/make_pilot_clips.py --check  # exit 1 if a committed file differs

No synthesizer is needed: the clips are derived, sample for sample, from ``samples/zh/zh-0*.flac``
(eSpeak NG speech, CC0; see samples/PROVENANCE.md):

- ``pilot/zh-noise.wav``: 3 s of low white noise (peak about -34 dBFS, above the engine's
  -50 dBFS silence gate, so the model does decode it), numpy PCG64 seed 2026: the silence
  slice, where any text is a hallucination;
- ``pilot/zh-long.wav``: the three sentences twice over with 1 s of digital silence between
  them (about 16 s): the long-form slice, with one interval per sentence in the manifest.

The manifest (``samples/zh-pilot/manifest.jsonl``), its sidecar and pre-registration are
written beside, the sidecar's ``audio_sha256`` computed with the gate's own digest.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

AUDIO_ROOT = ROOT / "samples" / "zh"
PILOT = ROOT / "samples" / "zh-pilot"
RATE = 16_000
SENTENCES = [("zh-01", "谢谢你。"), ("zh-02", "我爱你。"), ("zh-03", "我们去吃饭吧。")]
GAP_SECONDS = 1.0
SPEAKER = "espeak-ng:cmn-latn-pinyin"


def wav_bytes(samples) -> bytes:
    import numpy as np

    pcm = np.clip(np.round(samples * 32768.0), -32768, 32767).astype("<i2").tobytes()
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(RATE)
        handle.writeframes(pcm)
    return out.getvalue()


def clips() -> tuple[dict[str, bytes], list[dict]]:
    import numpy as np
    from pytest_asrbench.asr.audio import load_audio

    noise = np.random.default_rng(2026).uniform(-0.02, 0.02, 3 * RATE).astype(np.float32)
    gap = np.zeros(int(GAP_SECONDS * RATE), dtype=np.float32)
    parts, intervals, position = [gap], [], len(gap) / RATE
    for _ in range(2):
        for clip_id, text in SENTENCES:
            speech = load_audio(AUDIO_ROOT / f"{clip_id}.flac").samples
            start = position - GAP_SECONDS / 2
            position += len(speech) / RATE + GAP_SECONDS
            parts += [speech, gap]
            intervals.append({"start": round(max(0.0, start), 3), "end": round(position - GAP_SECONDS / 2, 3),
                              "reference": text})
    intervals[0]["start"], intervals[-1]["end"] = 0.0, round(position, 3)
    files = {"pilot/zh-noise.wav": wav_bytes(noise), "pilot/zh-long.wav": wav_bytes(np.concatenate(parts))}
    return files, intervals


def manifest_rows(intervals: list[dict]) -> list[dict]:
    rows = [{"id": clip_id, "audio": f"{clip_id}.flac", "reference": text, "slice": "short", "speaker": SPEAKER}
            for clip_id, text in SENTENCES]
    rows.append({"id": "zh-noise", "audio": "pilot/zh-noise.wav", "reference": "", "slice": "silence",
                 "speaker": "none:noise", "duration": 3.0})
    rows.append({"id": "zh-long", "audio": "pilot/zh-long.wav", "reference": "".join(i["reference"] for i in intervals),
                 "slice": "long_form", "speaker": SPEAKER, "intervals": intervals})
    return rows


def outputs() -> dict[Path, bytes]:
    from pytest_asrbench._shared.hashing import file_sha256
    from pytest_asrbench.bench.manifest.meta import audio_set_digest

    import hashlib

    files, intervals = clips()
    rows = manifest_rows(intervals)
    out = {AUDIO_ROOT / name: data for name, data in files.items()}
    digests = []
    for row in rows:
        path = AUDIO_ROOT / row["audio"]
        digests.append((row["audio"], hashlib.sha256(out[path]).hexdigest() if path in out else file_sha256(path)))
    manifest = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode("utf-8")
    meta = {
        "corpus": "pytest-asrbench zh pilot",
        "source": "samples/zh of this repository (scripts/make_clips.py, scripts/make_pilot_clips.py)",
        "revision": "samples/clips.json of the committed clips",
        "split": "pilot",
        "licence": "CC0-1.0",
        "consent": "synthetic speech (eSpeak NG): no person was recorded",
        "selection": {"rule": "every zh sample clip, one noise clip, one long-form clip made of the sample clips",
                      "seed": 2026},
        "audio_sha256": audio_set_digest(digests),
        "share_transcripts": True,
        "notes": "A pipeline pilot only: synthetic, one voice, far too small for any claim about Mandarin.",
    }
    prereg = {"manifest_sha256": hashlib.sha256(manifest).hexdigest(),
              "slices": {"short": 3, "silence": 1, "long_form": 1}, "min_speakers": 1}
    out[PILOT / "manifest.jsonl"] = manifest
    out[PILOT / "manifest.meta.json"] = (json.dumps(meta, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    out[PILOT / "preregistration.json"] = (json.dumps(prereg, indent=2) + "\n").encode("utf-8")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args()
    differ = 0
    for path, data in outputs().items():
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                print(f"differs: {path.relative_to(ROOT)}")
                differ += 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
