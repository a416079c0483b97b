"""The typed shapes of cases and of what running one produces."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Case:
    """One validated entry of a YAML case file.

    ``fields`` holds the kind-specific keys (``texts``, ``reference``, ``expect`` ...) exactly
    as written; ``lines`` maps each key of the entry to its 1-based line in ``file``.
    """

    id: str
    kind: str
    language: str
    metric: str
    fields: dict[str, Any]
    file: Path
    line: int
    lines: dict[str, int] = field(default_factory=dict)
    note: str | None = None
    source: str | None = None
    xfail: str | None = None

    def where(self, key: str | None = None) -> str:
        """``path:line`` of the case, or of one of its keys."""
        return f"{self.file}:{self.lines.get(key, self.line) if key else self.line}"


@dataclass
class CaseResult:
    """What running a case produced.

    ``output`` is JSON-able and recorded in the snapshot whole; ``failures`` lists each
    expectation that did not hold, as a sentence a reviewer can act on (empty: passed);
    ``snapshot_hint`` replaces the generic advice shown when the output differs from the
    snapshot (an ``asr`` case says whether the engine or the score moved); ``rewritten``
    names the case files the runner rewrote in place (a ``signature`` case re-recorded under
    ``--snapshot-update``), so the run lists them with the snapshot files it wrote;
    ``pending_rewrite`` (a :class:`~pytest_asrbench.signatures.patch_deferrals.PendingRewrite`) is
    a signature case's re-recording held back to the end of the run (a patch-only bump): its
    snapshot is then compared but not written until that decision. ``figures`` and
    ``recorded_figures`` (kinds that score: :mod:`pytest_asrbench.cases.figures`) are this
    run's headline figures and those of the recorded snapshot (``None``: none recorded), for
    the run summary and reports; they are not part of the snapshot.
    """

    output: dict[str, Any]
    failures: list[str] = field(default_factory=list)
    snapshot_hint: str | None = None
    rewritten: list[str] = field(default_factory=list)
    pending_rewrite: Any = None
    figures: dict[str, Any] | None = None
    recorded_figures: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return not self.failures
