"""Language packages: the steps of one language each, where a rule cannot be data.

One package per tag (``en/``, ``hi/``), each with the same skeleton (``numbers.py``,
``words.py``, and ``LANGUAGE`` in its ``__init__``; a step whose output comes from a
library names it, ``@step(..., libraries=("pythainlp",))``). Their steps register
in the one step registry (:mod:`pytest_asrbench.normalize.steps.registry`) with
``language=<tag>``; a config of another language cannot list them
(:mod:`pytest_asrbench.normalize.checks`). Imported explicitly (not discovered) so that the
import graph, which the metric signatures hash, sees every one of them.
"""

from pytest_asrbench.normalize.languages import en, hi, ja, ko, th, zh  # noqa: F401
