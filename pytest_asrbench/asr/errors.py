"""Errors raised by the ASR layer; each message says what to install or where to put files."""

from __future__ import annotations

from pytest_asrbench.errors import AsrbenchError


class AsrError(AsrbenchError):
    """Base class of every error raised on purpose by :mod:`pytest_asrbench.asr`."""


class AsrDependencyError(AsrError, ImportError):
    """faster-whisper (or another engine's library) is not installed."""


class ModelError(AsrError):
    """Base class of model-resolution errors."""


class ModelPartMissingError(ModelError, FileNotFoundError):
    """A part of the embedded model (a wheel or one of its files) is not installed."""


class ModelIntegrityError(ModelError):
    """The assembled ``model.bin`` does not have the pinned SHA-256."""


class ModelNotFoundError(ModelError, FileNotFoundError):
    """A model named by path or name is not on disk, and no download is allowed."""


class AudioError(AsrError, ValueError):
    """An audio file or array cannot be used: missing, empty, corrupt or zero-length.

    The message always names the file (or says the input was an array).
    """


class EngineNotFoundError(AsrError, LookupError):
    """No STT engine is registered under the requested name."""
