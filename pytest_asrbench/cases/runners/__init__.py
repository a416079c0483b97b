"""One runner per case kind, looked up by name.

The registry itself (:func:`~pytest_asrbench.cases.registry.register`,
:class:`~pytest_asrbench.cases.registry.RunContext`) lives in :mod:`pytest_asrbench.cases.registry`;
this package imports every kind module so that looking a kind up finds it.
"""

from __future__ import annotations

from pytest_asrbench.cases.registry import RUNNERS, Runner, RunContext, register

# Kind modules, imported explicitly so the import graph sees them.
from pytest_asrbench.cases.runners import asr, score_kind, text_kinds  # noqa: F401
from pytest_asrbench.cases.runners import signature_kind  # noqa: F401

__all__ = ["RUNNERS", "RunContext", "Runner", "get_runner", "register"]


def get_runner(kind: str) -> Runner:
    """The runner of ``kind``; a ``KeyError`` here means schema.json and the registry disagree."""
    return RUNNERS[kind]
