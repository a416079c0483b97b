#!/usr/bin/env python3
"""Throughput of the engine's batched decoding (``batch_size``) against its sequential path.

Two arms, side by side in one process with one model (the batched engine reuses the
sequential engine's loaded ``WhisperModel``): ``FasterWhisperEngine`` with ``batch_size`` 1
(``WhisperModel.transcribe``) and with ``--batch-size`` (faster-whisper's
``BatchedInferencePipeline``), the same CPU threads, int8, beam 5, temperature 0. The arms
alternate clip by clip (A B, B A, ...) over ``--rounds`` rounds, so the machine's drift hits
both alike. Two sets of audio:

- ``short``: the committed sample clips of ``--languages`` (each under 30 s, so one chunk: the
  batched pipeline has nothing to put in a batch, and only its fixed options differ);
- ``long``: one recording per language made of that language's sample clips, repeated
  ``--repeat`` times with 0.6 s of silence between them (about 60 s for English), decoded with
  ``vad_filter`` on in both arms (the batched pipeline needs it to cut audio over 30 s).

Reported per set: decode seconds of each arm, the speed ratio sequential / batched (above 1:
batching is faster), the real-time factor (decode seconds / audio seconds) and how many
transcripts differ between the arms. No figure is asserted: read them side by side.

    python benchmarks/batched_decoding.py [--rounds 2] [--threads 2] [--batch-size 8] [--languages en]
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import alternating_round  # noqa: E402
os.environ["HF_HUB_OFFLINE"] = "1"
GAP_SECONDS = 0.6


def _long_recording(clips, repeat: int):
    """The clips' samples back to back, ``repeat`` times, with :data:`GAP_SECONDS` of silence."""
    import numpy as np

    from pytest_asrbench.asr.audio import load_audio

    parts = []
    for _ in range(repeat):
        for path in clips:
            clip = load_audio(path)
            parts += [clip.samples, np.zeros(int(GAP_SECONDS * clip.sample_rate), dtype=np.float32)]
    return load_audio(np.concatenate(parts), 16000)


def _time_arms(arms, items, rounds: int):
    """``{arm: seconds}`` and the count of items whose transcripts differ, arms alternating
    clip by clip (:func:`_timing.alternating_round`)."""
    totals = {name: 0.0 for name in arms}
    differing = 0
    for round_index in range(rounds):
        for index, (clip, language) in enumerate(items):
            done = alternating_round({name: partial(engine.transcribe_clip, clip, language=language)
                                      for name, engine in arms.items()}, round_index + index)
            for name, (seconds, _) in done.items():
                totals[name] += seconds
            differing += len({transcript.text for _, transcript in done.values()}) > 1
    return totals, differing


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=8, help="copies of the clips in a long recording")
    parser.add_argument("--languages", default="en", help="comma-separated sample folders")
    parser.add_argument("--sets", default="short,long", help="short, long or both")
    args = parser.parse_args(argv)

    from pytest_asrbench.asr.audio import load_audio
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    languages = args.languages.split(",")
    paths = {language: sorted((ROOT / "samples" / language).glob("*.*")) for language in languages}
    sets = {
        "short": (dict(vad_filter=False), [(load_audio(p), language) for language in languages for p in paths[language]]),
        "long": (dict(vad_filter=True), [(_long_recording(paths[language], args.repeat), language)
                                         for language in languages]),
    }
    warm_up = load_audio(paths[languages[0]][0])
    print(f"{args.threads} threads, batch_size {args.batch_size}, {args.rounds} rounds, languages {args.languages}")
    model = None
    for name in args.sets.split(","):
        settings, items = sets[name]
        sequential = FasterWhisperEngine(cpu_threads=args.threads, **settings)
        batched = FasterWhisperEngine(cpu_threads=args.threads, batch_size=args.batch_size, **settings)
        model = model or sequential.load()
        sequential._model = batched._model = model  # one model: the arms differ only in the decode path
        for engine in (sequential, batched):  # warm-up on one short clip: first-call allocations are not throughput
            engine.transcribe_clip(warm_up, language=languages[0])
        totals, differing = _time_arms({"sequential": sequential, "batched": batched}, items, args.rounds)
        audio = sum(clip.duration for clip, _ in items) * args.rounds
        print(f"{name}: {len(items)} clip(s), {audio / args.rounds:.1f} s of audio per round"
              f"{' (vad_filter on in both arms)' if settings['vad_filter'] else ''}")
        print(f"  sequential (batch_size 1)      : {totals['sequential']:.2f} s  RTF {totals['sequential'] / audio:.3f}")
        print(f"  batched (batch_size {args.batch_size:<2})        : {totals['batched']:.2f} s  "
              f"RTF {totals['batched'] / audio:.3f}")
        print(f"  speed ratio sequential/batched : {totals['sequential'] / totals['batched']:.2f}x  "
              f"transcripts differing: {differing} of {len(items) * args.rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
