"""Errors raised by the ASR layer; each message says what to install or where to put files."""

from __future__ import annotations

from pytest_asrbench.errors import AsrbenchError


class AsrError(AsrbenchError):
    """Base class of every error raised on purpose by :mod:`pytest_asrbench.asr`."""


#: What to do when a library of the ``asr`` extra is missing (one message everywhere).
ASR_EXTRA_MESSAGE = "the ASR engine needs the asr extra: pip install 'pytest-asrbench[asr]'"
#: Import names of the ``asr`` extra that the default engine needs.
ASR_EXTRA_MODULES = ("numpy", "faster_whisper")


class AsrDependencyError(AsrError, ImportError):
    """faster-whisper (or another library of the ``asr`` extra) is not installed."""


def require_asr_extra(modules: tuple[str, ...] = ASR_EXTRA_MODULES) -> None:
    """Import ``modules`` (cached after the first call) or raise :class:`AsrDependencyError`
    with :data:`ASR_EXTRA_MESSAGE` and the missing module.

    The text parts of pytest-asrbench work without the ``asr`` extra: nothing in
    :mod:`pytest_asrbench.asr` imports these libraries at module level, and every entry
    point of the engine (an ``asr`` case, ``asrbench transcribe``) calls this first.
    """
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise AsrDependencyError(f"{ASR_EXTRA_MESSAGE} ({exc})") from exc


class ModelError(AsrError):
    """Base class of model-resolution errors."""


class ModelPartMissingError(ModelError, FileNotFoundError):
    """A part of the embedded model (a wheel or one of its files) is not installed."""


class ModelIntegrityError(ModelError):
    """The assembled ``model.bin`` does not have the pinned SHA-256."""


class ModelNotFoundError(ModelError, FileNotFoundError):
    """A model named by path or name is not on disk, and no download is allowed."""


class AudioError(AsrError, ValueError):
    """An audio file or array cannot be used: missing, empty, not decodable audio (corrupt, cut
    off, or no audio at all) or a zero-length clip (:mod:`pytest_asrbench.asr.audio`).

    The message always names the file (or says the input was an array).
    """


class EngineNotFoundError(AsrError, LookupError):
    """No STT engine is registered under the requested name."""


class EngineSettingsError(AsrError, ValueError):
    """An engine setting is unknown or has a value the engine cannot use (compute type,
    ``transcribe_options`` name, a negative beam size ...); the message lists what is valid."""


class KernelEnvironmentError(EngineSettingsError):
    """A variable that picks CPU kernels (``CT2_FORCE_CPU_ISA``, ``CT2_USE_MKL``,
    ``MKL_ENABLE_INSTRUCTIONS``, ``MKL_CBWR``, ``ONEDNN_MAX_CPU_ISA``) has a value the libraries
    do not take, or names an instruction set this CPU lacks; the message lists the valid ones."""


class AsrLanguageError(AsrError, ValueError):
    """The engine has no language for the tag (Whisper knows about 100 ISO 639-1 codes)."""


class CacheNotWritableError(AsrError):
    """The cache folder cannot be written and something needs writing there (assembling the
    embedded model). The message names the folder and says to set ``ASRBENCH_CACHE_DIR``."""


class RunRecordError(AsrError, OSError):
    """The run record (``--asrbench-run-record PATH``) cannot be written to its path."""


class AsrCaseError(AsrError, ValueError):
    """An ``asr`` case asks for something that cannot be checked (an unknown ``expect`` key
    or flag); raised before any snapshot comparison."""


class AsrCacheWarning(UserWarning):
    """The hypothesis cache could not be read or written; the run goes on without it."""
