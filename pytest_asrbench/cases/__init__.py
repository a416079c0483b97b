"""YAML case files: loading with line numbers, schema validation, and one runner per kind.

The names below are loaded on first use (PEP 562), so that importing a light module of this
package (:mod:`pytest_asrbench.cases.asr_session`, which the plugin loads in every pytest run)
does not load the case loader and its JSON Schema validator.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Case": "pytest_asrbench.cases.model",
    "CaseResult": "pytest_asrbench.cases.model",
    "CaseFile": "pytest_asrbench.cases.loader",
    "load_case_file": "pytest_asrbench.cases.loader",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
