"""Evaluation manifests: JSONL rows, their ``.meta.json`` sidecar, the licence/consent gate,
audio paths kept inside the audio root, and the pre-registration check.

- :mod:`.rows`: reading ``{"id", "audio", "reference", "slice", "speaker"[, "duration"]}`` lines;
- :mod:`.meta`: the sidecar (corpus, source, revision, licence, consent, selection rule and
  seed, audio SHA-256);
- :mod:`.audio_paths`: an audio path resolved inside the audio root, or a reason code;
- :mod:`.gate`: the gate: a corpus without provenance is refused, rows without it are
  excluded and counted per reason code;
- :mod:`.prereg`: the pre-registered counts per slice and minimum speakers, checked before a run.
"""
