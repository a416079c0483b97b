#!/usr/bin/env python3
"""Overhead of ``asrbench bench run`` over a bare engine loop on the same clips.

Both arms use one ``FasterWhisperEngine`` (embedded model, CPU int8, same threads and beam),
loaded once before timing, in the same process, on the zh pilot manifest's clips
(samples/zh-pilot: three short sentences, 3 s of noise, a 16 s long-form clip):

- *bench run*: :func:`run_bench` with that engine (gate: reading the manifest and sidecar,
  hashing every audio file, the pre-registration; per row: transcription, the four CER views,
  critical tokens, long-form intervals; then the record), then the record validated against
  the shipped schema and serialized, as the command does;
- *bare loop*: ``engine.transcribe(path, language="zh")`` over the same files.

The arms alternate round by round (A B, B A, ...) over ``--rounds`` rounds so machine drift
hits both alike; reported: each arm's total seconds and the ratio (target <= 1.05), and the
bench run's own work (its wall time minus the engine calls inside it), which machine noise
does not blur.

    python benchmarks/bench_run_overhead.py [--rounds 4] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import side_by_side  # noqa: E402
os.environ["HF_HUB_OFFLINE"] = "1"
PILOT = ROOT / "samples" / "zh-pilot"
AUDIO = ROOT / "samples" / "zh"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)

    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine
    from pytest_asrbench.bench.manifest.gate import open_manifest
    from pytest_asrbench.bench.run.runner import RunSettings, run_bench
    from pytest_asrbench.bench.run.schema import check_record

    settings = RunSettings(manifest=PILOT / "manifest.jsonl", audio_root=AUDIO, model_license="MIT",
                           license_source="https://github.com/openai/whisper#license", threads=args.threads,
                           preregistration=PILOT / "preregistration.json")
    engine = FasterWhisperEngine(cpu_threads=args.threads, beam_size=settings.beam_size)
    engine.load()
    paths = [item.audio_path for item in open_manifest(settings.manifest, settings.audio_root).included]

    def bench_arm() -> dict:
        record = run_bench(settings, engine=engine)
        check_record(record)
        json.dumps(record, ensure_ascii=False, indent=2)
        return record

    def bare_arm() -> None:
        for path in paths:
            engine.transcribe(path, language="zh")

    arms = {"bench run": bench_arm, "bare loop": bare_arm}
    side_by_side(arms, 1)  # warm both paths once (imports, OpenCC load, page cache), untimed
    totals, rounds = side_by_side(arms, args.rounds)
    # per bench run: its wall time minus the engine calls in it (gate, scoring, record)
    extra = [wall - sum(u["latency_seconds"] for u in record["utterances"])
             for wall, record in (done["bench run"] for done in rounds)]
    ratio = totals["bench run"] / totals["bare loop"]
    print(f"{len(paths)} clips x {args.rounds} rounds, {args.threads} threads, beam {settings.beam_size}")
    print(f"bench run: {totals['bench run']:.3f} s   bare loop: {totals['bare loop']:.3f} s   "
          f"ratio {ratio:.3f}x (target <= 1.05x)")
    print(f"bench run's own work (wall minus its engine calls): {sum(extra) / len(extra):.3f} s per run, "
          f"{sum(extra) / totals['bench run']:.1%} of its wall time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
