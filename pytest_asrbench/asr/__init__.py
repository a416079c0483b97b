"""Speech-to-text for pytest-asrbench: engine protocol, faster-whisper engine, embedded model.

Nothing here imports faster-whisper at import time: the heavy imports happen when an engine
is created, so the text-only parts of the plugin work without the ``asr`` extra.

- :class:`SttEngine`, :class:`Transcript`, :class:`Segment`, :class:`DecodeInfo`
  (:mod:`pytest_asrbench.asr.engine`)
- :func:`create_engine` -- an engine by its entry-point name (group ``asrbench.engines``)
- :func:`ensure_embedded_model` -- assemble and verify the embedded Whisper ``base``
- :func:`load_audio` -- decode, downmix and resample to 16 kHz mono float32
"""

from pytest_asrbench.asr.audio import AudioClip, load_audio
from pytest_asrbench.asr.embedded_model import EMBEDDED_MODEL_SHA256, ensure_embedded_model
from pytest_asrbench.asr.engine import (
    DecodeInfo,
    Segment,
    SttEngine,
    Transcript,
    create_engine,
    engine_names,
)
from pytest_asrbench.asr.errors import (
    AsrError,
    AudioError,
    EngineNotFoundError,
    ModelIntegrityError,
    ModelNotFoundError,
    ModelPartMissingError,
)

__all__ = [
    "EMBEDDED_MODEL_SHA256",
    "AsrError",
    "AudioClip",
    "AudioError",
    "DecodeInfo",
    "EngineNotFoundError",
    "ModelIntegrityError",
    "ModelNotFoundError",
    "ModelPartMissingError",
    "Segment",
    "SttEngine",
    "Transcript",
    "create_engine",
    "engine_names",
    "ensure_embedded_model",
    "load_audio",
]
