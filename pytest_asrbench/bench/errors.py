"""Errors raised by the benchmark stage; each message names the set and says what to do."""

from __future__ import annotations

from pytest_asrbench.errors import AsrbenchError


class BenchError(AsrbenchError):
    """Base class of every error raised on purpose by :mod:`pytest_asrbench.bench`."""

    def for_set(self, name: str) -> BenchError:
        """The same error, of the same class, with ``name: `` in front of its message (the
        set that was being built), unless the message already starts with it."""
        message = str(self)
        if message.startswith(f"{name}: "):
            return self
        return type(self)(f"{name}: {message}")


#: What to install when a library of the ``bench`` extra is missing.
BENCH_EXTRA_MESSAGE = "building references needs the bench extra: pip install 'pytest-asrbench[bench]'"


class BenchDependencyError(BenchError, ImportError):
    """huggingface_hub, pyarrow or pythainlp (the ``bench`` extra) is not installed, or a
    library whose output is frozen into a cleaning has another version than the pinned one."""


class UnknownSetError(BenchError, ValueError):
    """A set name is not one of the benchmark's sets; the message lists them."""


class UnknownCleaningError(BenchError, LookupError):
    """A benchmark cleaning version name is not known; the message lists the known ones."""


class HubError(BenchError):
    """Base class of the problems of reaching a dataset on the Hugging Face Hub."""


class HubUnreachableError(HubError, ConnectionError):
    """The network is off: ``HF_HUB_OFFLINE=1`` is set, or the hub could not be reached."""


class GatedDatasetError(HubError, PermissionError):
    """A gated dataset (GigaSpeech2) was asked for without a Hugging Face token, or with a
    token whose account has not accepted the dataset's access terms."""


class RevisionMissingError(HubError, LookupError):
    """The pinned commit of a dataset is not on the hub (its history was rewritten)."""


class DatasetMissingError(HubError, LookupError):
    """A dataset, or a file of it, is not at the pinned revision."""


class SourceFormatError(BenchError, ValueError):
    """A transcript file or parquet row does not have the layout the set's rules read
    (a field count, an id shape, a missing column); the message names the file and row."""


class ReferenceCountError(BenchError, ValueError):
    """A built set has another number of clips than the benchmark's expected count."""


class DuplicateIdError(BenchError, ValueError):
    """Two clips of a built set have the same id."""


class JsonlFormatError(BenchError, ValueError):
    """A references or hypotheses JSONL file has a line that is not a JSON object with the
    required string fields, or repeats an id; the message names ``file:line``."""


class HypothesesError(BenchError, ValueError):
    """The hypotheses do not fit the references: a hypothesis file is missing or empty, or
    hypothesis ids have no reference (listed by id)."""


class BenchFileNotFoundError(BenchError, FileNotFoundError):
    """An input file or folder does not exist, or is of the other kind (a folder given for a
    manifest file, a file for a references folder)."""


class OutputPathError(BenchError, ValueError):
    """An output path (``--json``, ``--markdown``, ``--out``) cannot be written: found before
    any work starts (a folder given for a file, a missing parent folder, a read-only place),
    or when the final write fails; the message names the option, the path and what to do."""


class ManifestFormatError(BenchError, ValueError):
    """A manifest JSONL line or its ``.meta.json`` sidecar does not have the required layout
    (a missing or mistyped field, a repeated id); the message names ``file:line`` or the field."""


class ManifestGateError(BenchError, PermissionError):
    """The licence/consent gate refuses the whole corpus (its sidecar lacks licence or consent
    provenance, or no row is left); ``reason`` is the reason code."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason

    def for_set(self, name: str) -> BenchError:
        return self if str(self).startswith(f"{name}: ") else type(self)(f"{name}: {self}", self.reason)


class ManifestHashError(BenchError, ValueError):
    """A manifest's SHA-256 differs from the one a pre-registration or comparison expects."""


class PreregistrationError(BenchError, ValueError):
    """A pre-registration file is malformed (names the field and what it must be)."""


class RecordError(BenchError, ValueError):
    """A bench run record is unreadable, of another schema, or fails the shipped JSON Schema."""


class ComparisonError(BenchError, ValueError):
    """Two bench run records cannot be compared: they differ in the manifest hash or the
    decode policy (the message names the field and both values)."""


class SetLanguageError(BenchError, ValueError):
    """The language a benchmark is scored in cannot be told: a set's sidecar names none and
    no language was given, two sets (or a set and the given language) disagree, a sidecar's
    ``language`` is not a string, or the metric does not fit the language."""
