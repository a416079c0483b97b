"""Korean (``ko``): the rules of ``configs/ko.toml`` that cannot be data.

Same skeleton as every language package: ``numbers.py`` (the ``korean_numbers`` step:
where a numeral is a number), ``amounts.py`` (decimals, fractions, percentages, clock
times, units around it), ``words.py`` (how a word ends: particle chains), plus
``numerals.py`` (the value of a Sino-Korean, native or spoken-digit numeral word, no context). Fillers are the generic ``fillers`` step over the
config's list. Every step is registered with ``language="ko"``; data files (counters,
particles, ordinary words that look like numbers, irregular months) stay in ``configs/ko/``.
Rules, decisions and which CER ``rate`` is: docs/korean.md.

A rule engine over those tables, not a morphological analyser (kiwipiepy, not measured
here): the rules need only where a word starts, the counter after a numeral and whether the
rest of the word is particles, which the tables decide exactly; every ordinary word that
reads as a number is one reviewable line of ``not_numbers.tsv``, and no model version enters
the Korean scores (docs/korean.md, "Why no morphological analyser").
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "ko"

import pytest_asrbench.normalize.languages.ko.amounts as amounts  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ko.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ko.numerals as numerals  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ko.words as words  # noqa: E402,F401
