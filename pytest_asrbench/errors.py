"""Exceptions raised by pytest-asrbench; each message says what to do."""


class AsrbenchError(Exception):
    """Base class of every error this package raises on purpose."""


class InputError(AsrbenchError, ValueError):
    """A public function got values it cannot score (lists of different lengths, empty lists)."""


class InputTypeError(AsrbenchError, TypeError):
    """A public function got values of the wrong type (a list where a string was expected)."""


class UnknownMetricError(AsrbenchError, ValueError):
    """A metric name is not in the registry."""


class ViewError(AsrbenchError, ValueError):
    """A metric view is unknown, registered twice under one name, or breaks the view contract."""


class UnknownLanguageError(AsrbenchError, ValueError):
    """A language tag has no config (nor a base language with one)."""


class ConfigError(AsrbenchError, ValueError):
    """A language config or one of its lexicons is malformed."""


class CaseFileError(AsrbenchError):
    """A YAML case file is malformed; carries the file and line of the fault."""

    def __init__(self, path, line: int | None, message: str):
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")


class ConverterUnavailableError(AsrbenchError, ImportError):
    """A library a normalizer step converts text with (OpenCC for Chinese script) is not
    installed or did not load. A view that needs it reports ``None``, never a copied number."""
