"""Hindi (``hi``): the rules of ``configs/hi.toml`` that cannot be data.

Same skeleton as every language package: ``numbers.py`` (digits and number words),
``words.py`` (word-level rewrites: loanwords); every step is registered with
``language="hi"``. Data files stay in ``configs/hi/``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "hi"

import pytest_asrbench.normalize.languages.hi.forms as forms  # noqa: E402,F401
import pytest_asrbench.normalize.languages.hi.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.languages.hi.words as words  # noqa: E402,F401
