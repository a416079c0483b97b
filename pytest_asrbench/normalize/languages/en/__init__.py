"""English (``en``): the rules of ``configs/en.toml`` that cannot be data.

Same skeleton as every language package: ``numbers.py`` (number words, number formats,
digit-group commas, negative numbers), ``words.py`` (contractions, titles, spelling);
every step is registered with ``language="en"``. Data files stay in ``configs/en/``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "en"

import pytest_asrbench.normalize.languages.en.fractions as fractions  # noqa: E402,F401
import pytest_asrbench.normalize.languages.en.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.languages.en.words as words  # noqa: E402,F401
