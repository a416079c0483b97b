"""Hypothesis cache: an engine's transcript of a clip, stored on disk and reused.

Key: SHA-256 over the audio's SHA-256, the forced language and the engine's
:meth:`~pytest_asrbench.asr.engine.SttEngine.identity` (engine name and version, library
versions, model SHA-256, output-changing decode settings). Change any of them and the entry is
simply not found. Speed-only settings (threads, workers) are not part of the key.

Entries are JSON files ``<root>/<key[:2]>/<key>.json`` carrying a checksum of their content.
A write goes to a temporary file in the same folder and is moved into place with
``os.replace``, so a reader (another pytest-xdist worker) sees either no entry or a whole one;
two workers writing the same key write the same bytes. An entry that does not parse, has
another schema or key, or fails its checksum is counted as corrupt, ignored and overwritten
by the recomputed transcript.

A cache folder that cannot be written (read-only, or a file in its place) never fails a run:
the first failed write gives one :class:`~pytest_asrbench.asr.errors.AsrCacheWarning` and the
run goes on without storing; every transcript is still returned.

Root: ``$ASRBENCH_CACHE_DIR/hypotheses`` or ``$XDG_CACHE_HOME/pytest-asrbench/hypotheses``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_asrbench._shared.atomic import atomic_file
from pytest_asrbench._shared.canonical import canonical_json as _canonical
from pytest_asrbench.asr.embedded_model import cache_root
from pytest_asrbench.asr.engine import SttEngine, Transcript, base_language
from pytest_asrbench.asr.errors import AsrCacheWarning

if TYPE_CHECKING:
    from pytest_asrbench.asr.audio import AudioClip

SCHEMA = "asrbench.hypothesis/1"


def default_cache_dir() -> Path:
    return cache_root() / "hypotheses"


class HypothesisCache:
    """A folder of cached transcripts.

    Args:
        root: the folder (default :func:`default_cache_dir`).
        enabled: ``False`` bypasses the cache (nothing read, nothing written), as
            ``--asrbench-no-cache`` asks.

    Attributes:
        hits, misses, corrupt: counters for the run's summary.
        write_error: why the folder could not be written (``None`` while writes work); set on
            the first failed write, after which nothing more is written.
    """

    def __init__(self, root: Path | None = None, *, enabled: bool = True):
        self.root = Path(root) if root is not None else default_cache_dir()
        self.enabled = enabled
        self.hits = 0
        self.misses = 0
        self.corrupt = 0
        self.write_error: str | None = None
        self._read_warned = False

    @staticmethod
    def key_fields(audio_sha256: str, language: str, identity: dict) -> dict:
        return {"audio_sha256": audio_sha256, "language": language, "engine": identity}

    @staticmethod
    def key(fields: dict) -> str:
        return hashlib.sha256(_canonical(fields)).hexdigest()

    def path_for(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Transcript | None:
        """The cached transcript, or ``None`` (missing, bypassed, or corrupt)."""
        if not self.enabled:
            return None
        path = self.path_for(key)
        try:
            raw = path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            self.misses += 1
            return None
        except OSError as exc:  # unreadable entry or folder: decode instead, say so once
            self.misses += 1
            if not self._read_warned:
                self._read_warned = True
                warnings.warn(
                    f"hypothesis cache {self.root}: cannot read entries ({exc}); clips are "
                    "decoded instead. Set ASRBENCH_CACHE_DIR to a folder you can read and write",
                    AsrCacheWarning,
                    stacklevel=2,
                )
            return None
        try:
            entry = json.loads(raw.decode("utf-8"))
            if not isinstance(entry, dict):
                raise ValueError("not a JSON object")
            if entry.get("schema") != SCHEMA or entry.get("key") != key:
                raise ValueError("schema or key differ")
            if hashlib.sha256(_canonical(entry["transcript"])).hexdigest() != entry["checksum"]:
                raise ValueError("checksum differs")
            transcript = Transcript.from_dict(entry["transcript"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            self.corrupt += 1
            self.misses += 1
            return None
        self.hits += 1
        return transcript

    def put(self, key: str, transcript: Transcript, fields: dict) -> None:
        """Store ``transcript`` atomically (no-op when bypassed, or once a write failed).

        A folder that cannot be written gives one :class:`AsrCacheWarning` per cache, never an
        error: the transcript is the caller's already."""
        if not self.enabled or self.write_error is not None:
            return
        try:
            self._write(key, transcript, fields)
        except OSError as exc:  # read-only, a file where a folder should be, disk full ...
            self.write_error = f"{type(exc).__name__}: {exc}"
            warnings.warn(
                f"hypothesis cache {self.root} is not writable ({self.write_error}); "
                "transcripts of this run are not stored. Set ASRBENCH_CACHE_DIR to a writable "
                "folder to cache them",
                AsrCacheWarning,
                stacklevel=2,
            )

    def _write(self, key: str, transcript: Transcript, fields: dict) -> None:
        data = transcript.to_dict()
        entry = {
            "schema": SCHEMA,
            "key": key,
            "key_fields": fields,
            "transcript": data,
            "checksum": hashlib.sha256(_canonical(data)).hexdigest(),
        }
        with atomic_file(self.path_for(key)) as out:
            out.write(json.dumps(entry, ensure_ascii=False, indent=1, sort_keys=True).encode())


@dataclass(frozen=True)
class ClipRun:
    """One transcription as a run saw it.

    ``latency_seconds`` is the wall time of decode + transcription (``None`` when the
    transcript came from the cache); ``duration`` is the audio length in seconds.
    """

    source: str
    audio_sha256: str
    language: str
    transcript: Transcript
    cached: bool
    latency_seconds: float | None
    duration: float


def transcribe_with_cache(
    engine: SttEngine,
    audio: str | os.PathLike | AudioClip,
    language: str,
    cache: HypothesisCache | None = None,
) -> ClipRun:
    """Transcribe a file (or decoded clip) through ``cache``: a hit neither decodes the audio
    nor loads the model; a miss decodes the audio first, so bad audio raises
    :class:`~pytest_asrbench.asr.errors.AudioError` (naming the file) before the model loads
    (only on a miss: a cached clip's file was already decoded once with that same hash).
    ``latency_seconds`` is audio decoding plus transcription, never the model load.

    ``language`` may be any tag (``hi_IN``); the cache key and the engine get its base code
    (:func:`~pytest_asrbench.asr.engine.base_language`)."""
    from pytest_asrbench.asr.audio import AudioClip, file_sha256, load_audio

    language = base_language(language)
    if isinstance(audio, AudioClip):
        clip, source, digest = audio, audio.source, audio.sha256
    else:
        clip, source = None, str(audio)
        path = Path(audio)
        if not path.is_file():
            clip = load_audio(path)  # raises AudioError naming the file
        digest = file_sha256(path)
    fields = HypothesisCache.key_fields(digest, language, engine.identity()) if cache else None
    key = HypothesisCache.key(fields) if cache else None
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            return ClipRun(source, digest, language, hit, True, None, hit.info.duration)
    decoding = 0.0
    if clip is None:
        started = time.perf_counter()
        clip = load_audio(audio)  # AudioError for a corrupt file, before the model loads
        decoding = time.perf_counter() - started
    load = getattr(engine, "load", None)
    if load is not None:
        load()  # a cold load is measured by the engine, not counted as this clip's latency
    started = time.perf_counter()
    transcribe_clip = getattr(engine, "transcribe_clip", None)
    if transcribe_clip is not None:
        transcript = transcribe_clip(clip, language=language)
    else:
        transcript = engine.transcribe(clip.samples, clip.sample_rate, language=language)
    latency = decoding + time.perf_counter() - started
    if cache is not None:
        cache.put(key, transcript, fields)
    return ClipRun(source, digest, language, transcript, False, latency, clip.duration)
