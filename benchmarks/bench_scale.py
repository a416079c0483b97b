#!/usr/bin/env python3
"""``asrbench bench run`` at scale: the zh sample clips plus synthetic eSpeak NG clips through
the local executor and a 2-worker local Ray, side by side.

    python benchmarks/bench_scale.py --clips 200 [--workers 2] [--keep DIR]

The clips are made at benchmark time into a temporary folder with ``scripts/make_clips.py``'s
own ``synthesize`` (espeak-ng's ``cmn-latn-pinyin`` voice, sox to 16 kHz mono): short Mandarin
sentences at a few speaking rates, and the three zh sample clips. They get a manifest and a
sidecar (``share_transcripts``, so the records hold the transcripts). Then, one arm after the
other on the same manifest:

- ``local``: one process, ``--threads 2`` (every core in one engine);
- ``ray``: ``--executor ray --workers 2 --threads 1`` (one engine per core);
- with ``--batch-size 8`` as well, each of the two, when ``asrbench bench run`` has that option.

Per arm: clips/s over the decode wall time (the record's ``decode_wall_seconds``: clips decoded
and scored, model loads and Ray start excluded), the same with start-up included (the whole
command's wall time), RTF (summed per-clip latency / audio seconds), peak RSS (the sum over the
processes of the arm: the driver and every worker), the corpus rate of the primary CER view, and
whether every transcript equals that of the local arm with the same batch size (the same decode
settings: batched and sequential decoding may differ, which ``asrbench asr parity`` measures).
Prints a Markdown table with each arm's ratio to the local arm of its batch size and to ``local``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SENTENCES = ["谢谢你。", "我爱你。", "我们去吃饭吧。", "你好。", "今天天气很好。", "我想喝水。", "请坐。", "早上好。",
             "他是我的朋友。", "我们走吧。", "晚安。", "对不起。", "没关系。", "我不知道。", "这是我的书。"]
SPEEDS = [110, 120, 130, 140, 150, 160, 170]


def _make_clips_module():
    spec = importlib.util.spec_from_file_location("make_clips", ROOT / "scripts" / "make_clips.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_corpus(folder: Path, clips: int) -> Path:
    """``clips`` rows (the 3 zh samples, then synthetic ones) with audio under ``folder/audio``;
    returns the manifest path (its sidecar beside it)."""
    synthesize = _make_clips_module().synthesize
    audio = folder / "audio"
    audio.mkdir(parents=True)
    rows = []
    for sample, text in (("zh-01", "谢谢你。"), ("zh-02", "我爱你。"), ("zh-03", "我们去吃饭吧。")):
        shutil.copy(ROOT / "samples" / "zh" / f"{sample}.flac", audio / f"{sample}.flac")
        rows.append({"id": sample, "audio": f"{sample}.flac", "reference": text, "slice": "short",
                     "speaker": "espeak-ng:cmn-latn-pinyin"})
    for n in range(clips - len(rows)):
        text, speed = SENTENCES[n % len(SENTENCES)], SPEEDS[(n // len(SENTENCES)) % len(SPEEDS)]
        name = f"syn-{n:04d}.flac"
        synthesize("cmn-latn-pinyin", speed + n // (len(SENTENCES) * len(SPEEDS)), text, audio / name)
        rows.append({"id": f"syn-{n:04d}", "audio": name, "reference": text, "slice": "short",
                     "speaker": f"espeak-ng:cmn-latn-pinyin@{speed}"})
    manifest = folder / "scale.jsonl"
    manifest.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    from pytest_asrbench.bench.manifest.meta import audio_set_digest

    digest = audio_set_digest((r["audio"], hashlib.sha256((audio / r["audio"]).read_bytes()).hexdigest()) for r in rows)
    sidecar = {"corpus": "bench_scale synthetic zh", "source": "benchmarks/bench_scale.py (eSpeak NG)",
               "revision": "generated", "split": "benchmark", "licence": "CC0-1.0",
               "consent": "synthetic speech (eSpeak NG): no person was recorded",
               "selection": {"rule": "every generated clip", "seed": 0},
               "audio_sha256": digest,
               "share_transcripts": True}
    (folder / "scale.meta.json").write_text(json.dumps(sidecar, ensure_ascii=False), encoding="utf-8")
    return manifest


def has_batch_size() -> bool:
    """Whether this checkout's ``asrbench bench run`` takes ``--batch-size``."""
    done = subprocess.run([sys.executable, "-m", "pytest_asrbench.cli", "bench", "run", "--help"],
                          capture_output=True, text=True, check=True)
    return "--batch-size" in done.stdout


def run_arm(manifest: Path, out: Path, extra: list[str]) -> tuple[dict, float]:
    command = [sys.executable, "-m", "pytest_asrbench.cli", "bench", "run", "--manifest", str(manifest),
               "--audio-root", str(manifest.parent / "audio"), "--model", "embedded", "--beam-size", "5",
               *extra, "--out", str(out)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return json.loads(out.read_text(encoding="utf-8")), wall


def peak_rss_sum(record: dict) -> int:
    workers = record["executor"]["worker_processes"]
    if record["executor"]["name"] == "local":
        return record["performance"]["peak_rss_bytes"]
    return record["performance"]["driver_peak_rss_bytes"] + sum(w["peak_rss_bytes"] or 0 for w in workers)


def _decode_rate(record: dict) -> float:
    """Clips per second of decode wall time (model loads and Ray start-up excluded)."""
    return len(record["utterances"]) / record["performance"]["decode_wall_seconds"]


def _local_arm(name: str) -> str:
    """The local arm with the same decode settings as arm ``name`` ("ray batch 8" -> "local batch 8")."""
    return name.replace("ray", "local", 1)


def print_table(results: dict[str, tuple[dict, float]], clips: int, arms: list[tuple[str, list[str]]]) -> None:
    """Print the Markdown table of ``results`` (arm name -> (record, whole-command wall seconds))."""
    base, _ = results["local"]
    print(f"{clips} clips, {base['performance']['audio_seconds']:.1f} s of audio; "
          f"{', '.join(name + ': ' + ' '.join(extra) for name, extra in arms)}")
    print("Each arm is compared with the local arm of the same batch size (same decode settings).")
    print("| arm | clips/s (decode) | clips/s (whole command) | RTF | peak RSS (MiB, all processes) "
          "| primary CER | transcripts = local arm | vs local arm (decode clips/s) | vs local (decode clips/s) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    base_rate = _decode_rate(base)
    for name, (record, wall) in results.items():
        local, _ = results[_local_arm(name)]
        perf = record["performance"]
        rate = _decode_rate(record)
        same = [u["hypothesis"] for u in record["utterances"]] == [u["hypothesis"] for u in local["utterances"]]
        metrics = record["metrics"]
        print(f"| {name} | {rate:.2f} | {len(record['utterances']) / wall:.2f} | {perf['real_time_factor']:.3f} "
              f"| {peak_rss_sum(record) / 2**20:.0f} | {metrics['overall'][metrics['primary_view']]['rate']:.4f} "
              f"| {same} | {rate / _decode_rate(local):.2f}x | {rate / base_rate:.2f}x |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=200, help="rows in the manifest (at least 3; default 200)")
    parser.add_argument("--workers", type=int, default=2, help="Ray workers (default 2, one thread each)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the corpus and records in this new folder")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-")) if args.keep is None else args.keep
    folder.mkdir(parents=True, exist_ok=args.keep is None)
    try:
        manifest = build_corpus(folder / "corpus", args.clips)
        arms = [("local", ["--threads", str(args.workers)]),
                ("ray", ["--executor", "ray", "--workers", str(args.workers), "--threads", "1"])]
        if has_batch_size():
            arms += [(f"{name} batch 8", [*extra, "--batch-size", "8"]) for name, extra in arms]
        results = {}
        for name, extra in arms:
            results[name] = run_arm(manifest, folder / f"{name.replace(' ', '-')}.json", extra)
            print(f"{name}: done", file=sys.stderr, flush=True)
        print_table(results, args.clips, arms)
    finally:
        if args.keep is None:
            shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
