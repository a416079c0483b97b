"""Make the English synthetic bench corpus: samples/en-bench/ (clips, manifest, sidecar,
pre-registration, clips.json).

Tools (Debian packages): ``espeak-ng`` (speech) and ``sox`` (16 kHz mono FLAC), through
``scripts/make_clips.py``'s synthesis function, so the clips are made exactly as the sample
clips are. Four eSpeak NG voices stand for four speakers (the bootstrap's clusters); three
slices: ``short`` (everyday sentences), ``numbers`` (numbers, dates, codes: the critical
tokens) and ``silence`` (digital silence and low white noise: hallucination and no-output).

    python scripts/make_en_bench.py           # rewrite samples/en-bench/
    python scripts/make_en_bench.py --check   # exit 0: the committed files are reproduced exactly

The corpus is a pilot: synthetic speech of four rule-based voices finds pipeline issues and
lets two models be compared end to end; it is no evidence about real English speech.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from make_clips import sha256, synthesize, tool_version  # noqa: E402

OUT = ROOT / "samples" / "en-bench"
SPEED = 160
#: speaker id -> eSpeak NG voice
VOICES = {"s1": "en-us", "s2": "en-gb", "s3": "en-us+f3", "s4": "en-gb-scotland"}
#: (slice, sentence); the clips go round the voices in order
SENTENCES = [
    ("short", "Good morning, how are you today?"),
    ("short", "Please open the door."),
    ("short", "I would like a cup of coffee."),
    ("short", "The meeting starts after lunch."),
    ("short", "Can you send me the report?"),
    ("short", "It is raining in the city."),
    ("short", "We need more paper for the printer."),
    ("short", "She left her keys on the table."),
    ("short", "Turn left at the next corner."),
    ("short", "The train was late again."),
    ("short", "My brother plays the guitar."),
    ("short", "Close the window before you leave."),
    ("short", "The children are reading a book."),
    ("short", "This soup is too hot."),
    ("short", "Let us walk to the park."),
    ("short", "He fixed the old bicycle."),
    ("short", "The shop closes early on Sunday."),
    ("short", "Thank you for your help."),
    ("short", "Where is the nearest station?"),
    ("short", "The dog is sleeping in the garden."),
    ("numbers", "The room number is 42."),
    ("numbers", "Call me at 7 tonight."),
    ("numbers", "The ticket costs 15 dollars."),
    ("numbers", "We have 3 cats and 2 dogs."),
    ("numbers", "The train leaves at platform 9."),
    ("numbers", "Order 250 boxes by Friday."),
    ("numbers", "She was born in 1990."),
    ("numbers", "The code is A 7."),
]
SILENCE = [("silence", "en-silence", ["synth", "2", "sine", "0", "vol", "0"]),
           ("silence", "en-noise", ["synth", "2", "whitenoise", "vol", "0.003"])]
SIDECAR = {
    "corpus": "pytest-asrbench en synthetic bench",
    "source": "samples/en-bench of this repository (scripts/make_en_bench.py)",
    "revision": "samples/en-bench/clips.json of the committed clips",
    "split": "pilot",
    "licence": "CC0-1.0",
    "consent": "synthetic speech (eSpeak NG): no person was recorded",
    "language": "en",
    "share_transcripts": True,
    "notes": "A pilot: synthetic speech of four rule-based voices, for comparing models end to end; no evidence "
             "about real English speech.",
}


def _noise(arguments: list[str], target: Path) -> None:
    # -R: repeatable random numbers (the white noise is the same every run); -D: no dither.
    subprocess.run(["sox", "-D", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", str(target), *arguments],
                   check=True)


def build(folder: Path) -> None:
    from pytest_asrbench.bench.manifest.meta import audio_set_digest

    folder.mkdir(parents=True, exist_ok=True)
    rows, clips = [], []
    speakers = list(VOICES)
    for index, (slice_name, text) in enumerate(SENTENCES, start=1):
        speaker = speakers[(index - 1) % len(speakers)]
        clip_id = f"en-b{index:02d}"
        audio = f"{clip_id}.flac"
        synthesize(VOICES[speaker], SPEED, text, folder / audio)
        rows.append({"id": clip_id, "audio": audio, "reference": text, "slice": slice_name,
                     "speaker": f"espeak-ng:{VOICES[speaker]}"})
        clips.append({"id": clip_id, "voice": VOICES[speaker], "speed": SPEED, "text": text,
                      "sha256": sha256(folder / audio)})
    for slice_name, clip_id, arguments in SILENCE:
        audio = f"{clip_id}.flac"
        _noise(arguments, folder / audio)
        rows.append({"id": clip_id, "audio": audio, "reference": "", "slice": slice_name, "speaker": "none:" + clip_id,
                     "duration": 2.0})
        clips.append({"id": clip_id, "sox": arguments, "sha256": sha256(folder / audio)})
    manifest = folder / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    digest = audio_set_digest((row["audio"], sha256(folder / row["audio"])) for row in rows)
    selection = {"rule": "every sentence of scripts/make_en_bench.py, voices in turn, and two silence clips",
                 "seed": None}
    sidecar = {**SIDECAR, "selection": selection, "audio_sha256": digest}
    (folder / "manifest.meta.json").write_text(json.dumps(sidecar, ensure_ascii=False, indent=2) + "\n",
                                               encoding="utf-8")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["slice"]] = counts.get(row["slice"], 0) + 1
    prereg = {"manifest_sha256": sha256(manifest), "slices": counts, "min_speakers": len(VOICES)}
    (folder / "preregistration.json").write_text(json.dumps(prereg, indent=2) + "\n", encoding="utf-8")
    versions = {"espeak-ng": tool_version(["espeak-ng", "--version"]), "sox": tool_version(["sox", "--version"])}
    (folder / "clips.json").write_text(json.dumps({"tools": versions, "clips": clips}, ensure_ascii=False, indent=2)
                                       + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="rebuild in a temporary folder and compare")
    args = parser.parse_args(argv)
    if not args.check:
        build(OUT)
        print(f"wrote {len(SENTENCES) + len(SILENCE)} clips, the manifest, its sidecar and pre-registration to {OUT}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        differ = sorted(p.name for p in Path(tmp).iterdir()
                        if not (OUT / p.name).is_file() or (OUT / p.name).read_bytes() != p.read_bytes())
    if differ:
        print("differ from the committed files: " + ", ".join(differ))
        return 1
    print("the committed files are reproduced exactly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
