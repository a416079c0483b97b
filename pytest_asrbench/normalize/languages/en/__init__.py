"""English (``en``): the rules of ``configs/en.toml`` that cannot be data.

Same skeleton as every language package: ``numbers.py`` (number words, number formats,
digit-group commas, negative numbers), ``words.py`` (contractions, titles, spelling);
every step is registered with ``language="en"``. Data files stay in ``configs/en/``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "en"

from pytest_asrbench.normalize.languages.en import fractions, numbers, words  # noqa: E402,F401
