"""Metric signatures: a hash of everything that can change a (metric, language) score.

- :func:`compute` -- the :class:`Signature` of a metric in a language (module ASTs of the
  import graph, the language config and its files, library versions), read from files only;
- :func:`judge` / :class:`SessionGate` -- the version gate of ``kind: signature`` cases;
- :func:`update_refusal` -- why ``--snapshot-update`` must not re-record a case;
- :data:`RECORD_COMMAND` -- the one command that re-records signatures and snapshots.

See ``docs/signatures.md``.
"""

from pytest_asrbench.signatures.compute import Signature, compute, metric_versions
from pytest_asrbench.signatures.gate import (
    RECORD_COMMAND,
    Recorded,
    SessionGate,
    Verdict,
    judge,
    record_command,
    rewrite_case,
    session_gate,
    unbumped_message,
    update_refusal,
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
    "rewrite_case",
    "session_gate",
    "unbumped_message",
    "update_refusal",
]
