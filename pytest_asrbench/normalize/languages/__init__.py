"""Language packages: the steps of one language each, where a rule cannot be data.

One package per tag (``en/``, ``hi/``), each with the same skeleton (``numbers.py``,
``words.py``, and ``LANGUAGE`` in its ``__init__``; a step whose output comes from a
library names it, ``@step(..., libraries=("pythainlp",))``). Their steps register
in the one step registry (:mod:`pytest_asrbench.normalize.steps.registry`) with
``language=<tag>``; a config of another language cannot list them
(:mod:`pytest_asrbench.normalize.checks`). Imported explicitly (not discovered) so that the
import graph, which the metric signatures hash, sees every one of them.
"""

import pytest_asrbench.normalize.languages.en as en  # noqa: F401
import pytest_asrbench.normalize.languages.hi as hi  # noqa: F401
import pytest_asrbench.normalize.languages.ja as ja  # noqa: F401
import pytest_asrbench.normalize.languages.ko as ko  # noqa: F401
import pytest_asrbench.normalize.languages.th as th  # noqa: F401
import pytest_asrbench.normalize.languages.zh as zh  # noqa: F401
