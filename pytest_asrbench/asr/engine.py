"""The speech-to-text engine protocol and the transcript it returns.

An engine transcribes audio (a path, or a mono float32 array at a given sample rate) in a
forced language. Engines are found by name through the entry-point group ``asrbench.engines``
(the value is a class or factory taking the engine settings as keyword arguments), so a second
engine can be added by another distribution without touching this package::

    [project.entry-points."asrbench.engines"]
    my-engine = "my_package.engine:MyEngine"
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pytest_asrbench._shared.languages import base_tag
from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.asr.errors import EngineNotFoundError

if TYPE_CHECKING:
    from pytest_asrbench.asr.audio import AudioInput

ENTRY_POINT_GROUP = "asrbench.engines"
DEFAULT_ENGINE = "faster-whisper"
#: Engines of this package, usable even before the distribution's entry points are installed.
_BUILTIN_ENGINES = {
    "faster-whisper": "pytest_asrbench.asr.faster_whisper_engine:FasterWhisperEngine",
}

#: Whisper's own fallback threshold: a segment whose gzip compression ratio exceeds 2.4 is
#: repetitive text (openai/whisper ``transcribe(compression_ratio_threshold=2.4)``).
COMPRESSION_RATIO_THRESHOLD = 2.4

#: A segment whose no-speech probability exceeds this is, to the model itself, not speech
#: (openai/whisper ``no_speech_threshold=0.6``).
NO_SPEECH_THRESHOLD = 0.6

#: Flags a transcript may carry.
FLAG_NO_SPEECH = "no_speech"  # empty transcript (silence or nothing recognised)
FLAG_REPETITION = "repetition_loop"  # the same word/character run repeats 3+ times in a row
FLAG_COMPRESSION = "high_compression_ratio"  # a segment's compression ratio > 2.4
FLAG_TEXT_ON_SILENCE = "text_on_silence"  # text on silent audio, or where the model says no speech
FLAG_LANGUAGE_MISMATCH = "language_mismatch"  # detected language != forced (when detected)
FLAG_TRUNCATED = "truncated_audio"  # decoded audio far shorter than the file header declares
HALLUCINATION_FLAGS = frozenset({FLAG_REPETITION, FLAG_COMPRESSION, FLAG_TEXT_ON_SILENCE})
#: Every flag a transcript may carry (``expect: {flags: [...]}`` is checked against these).
KNOWN_FLAGS = frozenset(
    {FLAG_NO_SPEECH, FLAG_LANGUAGE_MISMATCH, FLAG_TRUNCATED, *HALLUCINATION_FLAGS}
)


@dataclass(frozen=True)
class Word:
    """One word of a segment with its times (seconds from the start of the clip), given when
    the engine was asked for word timestamps (faster-whisper: ``word_timestamps=True``)."""

    start: float
    end: float
    word: str
    probability: float | None = None


@dataclass(frozen=True)
class Segment:
    """A decoded stretch of speech. Times are seconds from the start of the clip; ``words``
    is empty unless word timestamps were asked for."""

    start: float
    end: float
    text: str
    avg_logprob: float | None = None
    no_speech_prob: float | None = None
    compression_ratio: float | None = None
    words: tuple[Word, ...] = ()


@dataclass(frozen=True)
class DecodeInfo:
    """What the decoder reports about a whole clip.

    Attributes:
        language: the language decoded in (the forced one).
        language_probability: the model's probability of ``language`` (1.0 when forced and
            not detected).
        detected_language, detected_language_probability: the model's own guess, when the
            engine was asked to detect (``None`` otherwise).
        no_speech_prob: the highest no-speech probability over the segments (``None`` when
            there are no segments).
        compression_ratio: the highest gzip compression ratio over the segments.
        duration: audio length in seconds.
    """

    language: str
    language_probability: float | None
    no_speech_prob: float | None
    compression_ratio: float | None
    duration: float
    detected_language: str | None = None
    detected_language_probability: float | None = None


@dataclass(frozen=True)
class Transcript:
    """An engine's output for one clip.

    ``flags`` lists :data:`FLAG_NO_SPEECH` and hallucination signs (sorted), see
    :func:`transcript_flags`.
    """

    text: str
    segments: tuple[Segment, ...]
    info: DecodeInfo
    flags: tuple[str, ...] = field(default=())

    @property
    def no_speech(self) -> bool:
        return FLAG_NO_SPEECH in self.flags

    @property
    def likely_hallucination(self) -> bool:
        return any(flag in HALLUCINATION_FLAGS for flag in self.flags)

    def to_dict(self) -> dict:
        """JSON-able form (the hypothesis cache stores this)."""
        return {
            "text": self.text,
            "segments": [asdict(s) for s in self.segments],
            "info": asdict(self.info),
            "flags": list(self.flags),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Transcript":
        """Inverse of :meth:`to_dict`; raises ``KeyError``/``TypeError`` on a malformed dict."""
        return cls(
            text=data["text"],
            segments=tuple(Segment(**{**s, "words": tuple(Word(**w) for w in s.get("words", ()))})
                           for s in data["segments"]),
            info=DecodeInfo(**data["info"]),
            flags=tuple(data["flags"]),
        )


@runtime_checkable
class SttEngine(Protocol):
    """A speech-to-text engine.

    Attributes:
        name: the engine's entry-point name (e.g. ``"faster-whisper"``).
    """

    name: str

    def transcribe(
        self, audio: AudioInput, sample_rate: int | None = None, *, language: str
    ) -> Transcript:
        """Transcribe ``audio`` in the forced ``language`` (ISO 639-1, e.g. ``"hi"``).

        ``audio`` is a file path or a mono float32 array (then ``sample_rate`` in Hz is
        required). Raises :class:`~pytest_asrbench.asr.errors.AudioError` for unusable audio.
        """
        ...

    def identity(self) -> dict:
        """Everything that can change the transcript, JSON-able, without loading the model:
        engine name and version, library versions, model hash and decode settings. It keys the
        hypothesis cache and fills the run record."""
        ...


# ----------------------------------------------------------------------------- flags

_WORD_LOOP = re.compile(r"(?<!\w)(\w+(?:\W+\w+){0,5}?)(?:\W+\1(?!\w)){2,}", re.UNICODE)
_CHAR_LOOP = re.compile(r"(\S{2,12}?)\1{2,}")
_SINGLE_CHAR_LOOP = re.compile(r"(\S)\1{5,}")


def has_repetition_loop(text: str) -> bool:
    """True when a word or word group repeats 3+ times in a row ("bhe bhe bhe"), a run of 2-12
    characters repeats 3+ times without spaces ("สาวินสาวินสาวิน"), or one character 6+ times.
    Whisper's classic failure on short or unclear audio (openai/whisper discussions #679)."""
    no_digits = re.sub(r"\d", " ", text)  # "1000000" or "121212" are numbers, not loops
    return bool(
        _WORD_LOOP.search(text)
        or _CHAR_LOOP.search(no_digits)
        or _SINGLE_CHAR_LOOP.search(no_digits)
    )


def transcript_flags(
    text: str,
    segments: tuple[Segment, ...],
    info: DecodeInfo,
    *,
    audio_is_silent: bool,
    forced_language: str | None = None,
    audio_truncated: bool = False,
) -> tuple[str, ...]:
    """The flags of a transcript (sorted): ``no_speech`` for an empty transcript, and the
    hallucination signs ``repetition_loop``, ``high_compression_ratio`` (> 2.4, Whisper's own
    threshold), ``text_on_silence`` (silent audio, or a segment with text whose no-speech
    probability is > 0.6); ``language_mismatch`` when detection disagrees;
    ``truncated_audio`` when the file holds far less audio than its header declares."""
    flags = set()
    if audio_truncated:
        flags.add(FLAG_TRUNCATED)
    if not text.strip():
        flags.add(FLAG_NO_SPEECH)
    else:
        if has_repetition_loop(text):
            flags.add(FLAG_REPETITION)
        ratios = [s.compression_ratio for s in segments if s.compression_ratio is not None]
        if ratios and max(ratios) > COMPRESSION_RATIO_THRESHOLD:
            flags.add(FLAG_COMPRESSION)
        no_speech = [s.no_speech_prob for s in segments if s.text.strip() and s.no_speech_prob is not None]
        if audio_is_silent or (no_speech and max(no_speech) > NO_SPEECH_THRESHOLD):
            flags.add(FLAG_TEXT_ON_SILENCE)
    if (
        forced_language
        and info.detected_language
        and info.detected_language.split("-")[0] != forced_language.split("-")[0]
    ):
        flags.add(FLAG_LANGUAGE_MISMATCH)
    return tuple(sorted(flags))


# ----------------------------------------------------------------------------- language


def library_versions(names) -> dict[str, str | None]:
    """``{distribution: installed version}`` for ``names`` (``None`` when not installed).

    Used by engines (their identity, part of the hypothesis-cache key) and by run records.
    """
    return {name: installed_version(name) for name in names}


def base_language(tag: str) -> str:
    """The ISO 639 base code an engine is asked for: ``hi_IN`` -> ``hi``, ``fr-CA`` -> ``fr``,
    ``EN`` -> ``en``.

    The one mapping from a case/CLI language tag to an engine's language, used by the
    hypothesis cache key, the engines and ``asrbench transcribe``: the tag is split at
    ``-``/``_`` and lowercased, the same base that the normalizers' regional fallback reaches.

    Raises:
        UnknownLanguageError: (a ``ValueError``) an empty or non-string tag.
    """
    # The one tag rule (pytest_asrbench._shared.languages), which the normalizers' fallback
    # (fr-CA -> fr, hi_IN -> hi) also ends at; a language without a normalizer config is
    # passed on the same way (the engine may know it).
    return base_tag(tag)


# ----------------------------------------------------------------------------- discovery


def _entry_points() -> dict[str, Any]:
    found = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)
    return found


def engine_names() -> list[str]:
    """Names of every engine available: built in and registered by entry point."""
    return sorted(set(_BUILTIN_ENGINES) | set(_entry_points()))


def engine_class(name: str = DEFAULT_ENGINE):
    """The class (or factory) registered under ``name``.

    Raises:
        EngineNotFoundError: no such engine; lists the known names.
    """
    eps = _entry_points()
    if name in eps:
        return eps[name].load()
    if name in _BUILTIN_ENGINES:
        module, _, attr = _BUILTIN_ENGINES[name].partition(":")
        return getattr(importlib.import_module(module), attr)
    raise EngineNotFoundError(
        f"no STT engine named {name!r}; known: {', '.join(engine_names())}. A new engine "
        f"registers itself under the entry-point group {ENTRY_POINT_GROUP!r}"
    )


def create_engine(name: str = DEFAULT_ENGINE, **settings: Any) -> SttEngine:
    """Create the engine ``name`` with ``settings`` (keyword arguments of its class)."""
    return engine_class(name)(**settings)


def engine_setting_key(settings: dict[str, Any] | None = None) -> str:
    """One engine setting as a key: JSON (sorted keys) of the engine name and its settings as
    the engine resolves them, defaults applied and aliases resolved, so settings that decode
    alike are one key (for faster-whisper ``{}``, ``{model: base}`` and ``{model: embedded,
    beam_size: 5}`` are one). ``name`` selects the engine (default faster-whisper).

    An engine class resolves its settings with an optional class method
    ``resolved_settings(settings) -> dict``; an engine without one is keyed by its settings as
    written.

    Raises:
        EngineNotFoundError: no engine of that name.
        EngineSettingsError (or the engine's own error): a setting the engine refuses.
    """
    settings = dict(settings or {})
    name = settings.pop("name", DEFAULT_ENGINE)
    resolve = getattr(engine_class(name), "resolved_settings", None)
    if resolve is not None:
        settings = resolve(settings)
    return json.dumps({"name": name, **settings}, sort_keys=True, default=str)
