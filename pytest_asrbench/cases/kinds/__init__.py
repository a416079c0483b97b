"""The case kinds: one module per kind, each holding its schema fragment and its runner.

A kind module ``cases/kinds/<kind>.py`` defines

- ``SCHEMA``: its own fields as a JSON Schema fragment (``properties`` and ``required``;
  ``#/$defs/text_list`` and ``#/$defs/score_values`` of :mod:`pytest_asrbench.cases.schema`
  may be referenced), and
- a runner class with ``kind = "<kind>"`` and ``run(case, context) -> CaseResult``, decorated
  ``@register`` (:mod:`pytest_asrbench.cases.registry`).

:data:`KINDS` lists them in the order the schema's ``kind`` enum (and so the "use one of"
message) shows them. ``cases/schema.json`` is generated from these modules:
``python -m pytest_asrbench.cases.schema --write``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from pytest_asrbench.cases.registry import RUNNERS, Runner

#: Every case kind, in the order the schema lists them; each is ``cases/kinds/<kind>.py``.
KINDS: tuple[str, ...] = ("equal", "distinct", "untouched", "normalize", "score", "signature", "asr", "benchmark")


def kind_module(kind: str) -> ModuleType:
    """The module of ``kind`` (imported on first use; heavy libraries stay lazy inside it).

    Raises:
        KeyError: ``kind`` is not in :data:`KINDS`.
    """
    if kind not in KINDS:
        raise KeyError(f"unknown case kind {kind!r}; known kinds: {', '.join(KINDS)}")
    return importlib.import_module(f"{__name__}.{kind}")


def get_runner(kind: str) -> Runner:
    """The runner of ``kind``.

    Raises:
        KeyError: no kind module registers a runner for ``kind`` (a kind listed in the schema
            but not in :data:`KINDS`: regenerate ``schema.json``).
    """
    if kind not in RUNNERS:
        kind_module(kind)
    return RUNNERS[kind]
