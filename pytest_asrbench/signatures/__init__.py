"""Metric signatures: a hash of everything that can change a (metric, language) score.

- :func:`compute` -- the :class:`Signature` of a metric in a language (module ASTs of the
  import graph, the language config and its files, library versions), read from files only;
- :func:`judge` / :class:`SessionGate` -- the version gate of ``kind: signature`` cases
  (the cases themselves are read and re-recorded by :mod:`pytest_asrbench.cases.signature_files`;
  the pytest session's gate is :mod:`pytest_asrbench.cases.version_gate_session`);
- :data:`RECORD_COMMAND` -- the one command that re-records signatures and snapshots.

Pure: this package imports neither pytest nor the cases layer. See ``docs/signatures.md``.
"""

from pytest_asrbench.signatures.compute import Signature, compute, metric_versions
from pytest_asrbench.signatures.version_gate import (
    RECORD_COMMAND,
    Recorded,
    SessionGate,
    Verdict,
    judge,
    record_command,
    unbumped_message,
)

__all__ = [
    "RECORD_COMMAND",
    "Recorded",
    "SessionGate",
    "Signature",
    "Verdict",
    "compute",
    "judge",
    "metric_versions",
    "record_command",
    "unbumped_message",
]
