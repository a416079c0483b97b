"""One runner per case kind, registered by name.

A runner turns a :class:`~pytest_asrbench.cases.model.Case` into a
:class:`~pytest_asrbench.cases.model.CaseResult`: the output to snapshot and the list of
expectations that failed. A new kind is a new small module here, imported below, plus its
fields in ``schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from pytest_asrbench.cases.model import Case, CaseResult


@dataclass(frozen=True)
class RunContext:
    """What a runner may need from the pytest run: its root folder and its config (options)."""

    rootpath: Path
    pytest_config: Any = None


class Runner(Protocol):
    kind: ClassVar[str]

    def run(self, case: Case, context: RunContext) -> CaseResult: ...


RUNNERS: dict[str, Runner] = {}


def register(cls):
    """Class decorator: register an instance of ``cls`` under ``cls.kind``."""
    if cls.kind in RUNNERS:
        raise RuntimeError(f"case kind {cls.kind!r} registered twice")
    RUNNERS[cls.kind] = cls()
    return cls


def get_runner(kind: str) -> Runner:
    """The runner of ``kind``; a ``KeyError`` here means schema.json and the registry disagree."""
    return RUNNERS[kind]


# Kind modules, imported explicitly so the import graph (metric signatures) sees them.
from pytest_asrbench.cases.runners import asr, score_kind, text_kinds  # noqa: E402,F401
from pytest_asrbench.cases.runners import signature_kind  # noqa: E402,F401
