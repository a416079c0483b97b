"""The case-kind registry: what a runner is, what it gets from the run, and the runners by kind.

A kind module (``cases/kinds/<kind>.py``) imports :func:`register` from here; nothing here
imports a kind module, so the registry and its members form no import cycle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from pytest_asrbench.cases.model import Case, CaseResult


@dataclass(frozen=True)
class RunContext:
    """What a runner may need from the pytest run: its root folder, its config (options), and
    whether failure messages may hold ANSI colour (the run's terminal has markup; the item's
    failure report strips them everywhere else, JUnit XML and xdist included)."""

    rootpath: Path
    pytest_config: Any = None
    color: bool = False

    def recorded(self, case: Case) -> Any:
        """The case's recorded snapshot as parsed JSON, or ``None`` when none is recorded (or
        outside pytest). A runner whose output extends its recording (the ``asr`` kind keeps
        one transcript per kernel fingerprint) reads it here.

        Raises:
            AsrbenchError: the snapshot file exists but is not valid JSON (names the file).
        """
        if self.pytest_config is None:
            return None
        from pytest_asrbench.errors import AsrbenchError
        from pytest_asrbench.snapshot_layout import snapshot_dir

        config = self.pytest_config
        folder = snapshot_dir(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots", case.file,
                              config.getini("asrbench_case_dirs"))
        path = folder / f"{case.id}.json"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise AsrbenchError(f"{path}: the recorded snapshot is not valid JSON ({exc}); restore it from git "
                                "or delete it and re-record with --snapshot-update") from exc


class Runner(Protocol):
    kind: ClassVar[str]

    def run(self, case: Case, context: RunContext) -> CaseResult: ...


RUNNERS: dict[str, Runner] = {}


def register(cls):
    """Class decorator: register an instance of ``cls`` under ``cls.kind``.

    Raises:
        RuntimeError: a runner of that kind is already registered.
    """
    if cls.kind in RUNNERS:
        raise RuntimeError(f"case kind {cls.kind!r} registered twice")
    RUNNERS[cls.kind] = cls()
    return cls
