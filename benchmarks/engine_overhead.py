#!/usr/bin/env python3
"""Overhead of FasterWhisperEngine over bare faster_whisper.WhisperModel.transcribe.

Both arms transcribe the committed sample clips with identical settings (CPU, int8, beam 5,
temperature 0, no conditioning, no VAD, same threads), in the same process, each with its own
model loaded once before timing. The arms alternate clip by clip (A B, B A, ...) over
``--rounds`` rounds so drift of the machine hits both alike. Reported: total decode seconds of
each arm, their ratio (target <= 1.05), and the real-time factor (decode seconds / audio
seconds).

Then the engine path runs again through a warm hypothesis cache in a fresh session: the
target is no model load at all (reported: whether the model was loaded, and the seconds).

    python benchmarks/engine_overhead.py [--rounds 3] [--threads 2] [--languages en,de,...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["HF_HUB_OFFLINE"] = "1"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--languages", default="en,de,fr,ja,zh,ko", help="comma-separated sample folders")
    args = parser.parse_args(argv)

    from faster_whisper import WhisperModel

    from pytest_asrbench.asr.audio import load_audio
    from pytest_asrbench.asr.cache import HypothesisCache, transcribe_with_cache
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    clips = []
    for language in args.languages.split(","):
        for path in sorted((ROOT / "samples" / language).glob("*.*")):
            clips.append((path, language))
    audio_seconds = sum(load_audio(p).duration for p, _ in clips)

    engine = FasterWhisperEngine(cpu_threads=args.threads)
    engine.load()
    s = engine.settings
    bare = WhisperModel(
        str(engine.model_files.path), device=s.device, compute_type=s.compute_type,
        cpu_threads=s.cpu_threads, num_workers=s.num_workers, local_files_only=True,
    )
    options = dict(beam_size=s.beam_size, temperature=s.temperature, vad_filter=s.vad_filter,
                   condition_on_previous_text=s.condition_on_previous_text)

    def run_bare(path, language):
        segments, _ = bare.transcribe(str(path), language=language, **options)
        return "".join(seg.text for seg in segments).strip()

    def run_engine(path, language):
        return engine.transcribe(path, language=language).text

    # warm-up: one clip each (first-call allocations are not per-clip overhead)
    run_bare(*clips[0])
    run_engine(*clips[0])
    totals = {"bare": 0.0, "engine": 0.0}
    mismatches = 0
    for round_index in range(args.rounds):
        for index, (path, language) in enumerate(clips):
            order = (("bare", run_bare), ("engine", run_engine))
            if (round_index + index) % 2:
                order = order[::-1]
            texts = {}
            for name, fn in order:
                started = time.perf_counter()
                texts[name] = fn(path, language)
                totals[name] += time.perf_counter() - started
            mismatches += texts["bare"] != texts["engine"]
    audio_total = audio_seconds * args.rounds
    ratio = totals["engine"] / totals["bare"]
    print(f"clips: {len(clips)} ({args.languages}), {audio_seconds:.1f} s of audio, {args.rounds} rounds, "
          f"{args.threads} threads, model load (engine) {engine.load_seconds:.2f} s")
    print(f"bare WhisperModel.transcribe : {totals['bare']:.2f} s  RTF {totals['bare'] / audio_total:.3f}")
    print(f"FasterWhisperEngine          : {totals['engine']:.2f} s  RTF {totals['engine'] / audio_total:.3f}")
    print(f"ratio engine/bare            : {ratio:.3f}  (target <= 1.05)  transcripts differing: {mismatches}")

    with tempfile.TemporaryDirectory() as tmp:
        cache = HypothesisCache(Path(tmp))
        for path, language in clips:  # fill the cache with the loaded engine
            transcribe_with_cache(engine, path, language, cache)
        fresh = FasterWhisperEngine(cpu_threads=args.threads)  # a new run: nothing loaded
        cache = HypothesisCache(Path(tmp))
        started = time.perf_counter()
        for path, language in clips:
            transcribe_with_cache(fresh, path, language, cache)
        warm = time.perf_counter() - started
        print(f"warm cache: {cache.hits}/{len(clips)} hits in {warm:.3f} s; model loaded: {fresh.loaded} "
              f"(target: False)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
