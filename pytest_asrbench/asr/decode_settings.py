"""The decode settings of the faster-whisper engine: what each one may hold, their defaults,
and the record of the ones that can change a transcript (:class:`DecodeSettings`).

Every value is checked when the settings are read (:meth:`DecodeSettings.from_mapping`),
before any model loads: a type or range, a device this host lacks, a compute type it cannot
run (asked of CTranslate2, no model loaded), a ``transcribe_options`` name
``WhisperModel.transcribe`` does not take, or a setting the batched pipeline would ignore.

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

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench._shared.cpus import default_threads
from pytest_asrbench.asr.errors import EngineSettingsError, require_asr_extra
from pytest_asrbench.asr.pinned_models import DEFAULT_MODEL, find_pinned

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
