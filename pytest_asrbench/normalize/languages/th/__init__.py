"""Thai (``th``): the rules of ``configs/th.toml`` that cannot be data.

Same skeleton as every language package: ``numbers.py`` (Thai digits, number words, percentages),
``words.py`` (marks and vowels put right, mai yamok), plus ``bench.py``, the steps of the
frozen benchmark cleaning profile ``bench_v1`` (th-bench-v1), and ``library.py``, the one
place pythainlp is reached (imported inside functions only). Every step is registered with
``language="th"``. Data files stay in ``configs/th/``; the rules are in ``docs/thai.md``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "th"

import pytest_asrbench.normalize.languages.th.bench as bench  # noqa: E402,F401
import pytest_asrbench.normalize.languages.th.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.languages.th.words as words  # noqa: E402,F401
