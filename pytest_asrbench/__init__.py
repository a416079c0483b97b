"""pytest-asrbench: speech-recognition evaluation as pytest cases.

Public API:

- :func:`normalize_text` -- the normalized form of a text used for scoring.
- :func:`explain` -- every named step of a language's normalizer with its output.
- :func:`score` -- WER/CER of one reference/hypothesis pair or a corpus of them.

The API is loaded on first use (PEP 562 module ``__getattr__``): pytest imports this package
for every run through the plugin's entry point, and a run without ``--asrbench`` should not
pay for the normalizers and the scorer (benchmarks/plugin_cost.py measures it).
``from pytest_asrbench import normalize_text, score, explain`` works as before.

A name is looked up in its module on every access, never stored in this package's globals: a
run that drops the package's modules from ``sys.modules`` (pytester's in-process runs restore
it when they end) would otherwise leave this package handing out the dropped copy, whose
classes are not the live ones (``EditCounts + EditCounts`` refused).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

#: Public name -> the module that defines it (imported when the name is first asked for).
_EXPORTS = {
    "normalize_text": "pytest_asrbench.normalize",
    "explain": "pytest_asrbench.normalize",
    "score": "pytest_asrbench.scoring",
    "Score": "pytest_asrbench.scoring",
}

__all__ = ["Score", "__version__", "explain", "normalize_text", "score"]

if TYPE_CHECKING:  # static readers (type checkers, IDEs) see the names as plain imports
    from pytest_asrbench.normalize import explain, normalize_text
    from pytest_asrbench.scoring import Score, score


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_asrbench' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
