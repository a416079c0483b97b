"""German (``de``): the rules of ``configs/de.toml`` that cannot be data.

Same skeleton as every language package: ``numbers.py`` (which written ``3.`` is an
ordinal); every step is registered with ``language="de"``. Data files stay in ``configs/de/``
and the ``[options.<step>]`` tables of ``configs/de.toml``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "de"
#: Distributions whose output feeds this language's steps (their versions go into the metric
#: signatures): text2num parses the number words (the generic ``spoken_numbers`` step).
LIBRARIES: tuple[str, ...] = ("text2num",)

from pytest_asrbench.normalize.languages.de import numbers  # noqa: E402,F401
