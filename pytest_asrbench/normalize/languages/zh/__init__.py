"""Chinese (``zh``): the rules of ``configs/zh.toml`` that cannot be data.

Two normalizers read them. The frozen evaluation cleaning zh-eval-v1: ``eval_v1.py`` (Unicode
NFC, the explicit full-width to half-width table, Latin case folding, whitespace and
punctuation removal) and ``script.py``'s OpenCC steps for the script view; it keeps numerals
as written (``2026`` and ``二零二六`` stay different). The reviewer normalizer (the config's
default steps): ``width.py`` (the same width table), ``script.py``'s ``zh_script`` (Traditional
and Simplified folded), ``numbers.py`` with the numeral grammar of ``numerals.py``
(``三千四百`` = ``3400``, ``百分之十五`` = ``15%``). OpenCC is imported inside functions only.
Every step is registered with ``language="zh"``; the rules are in ``docs/mandarin.md``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "zh"

import pytest_asrbench.normalize.languages.zh.eval_v1 as eval_v1  # noqa: E402,F401
import pytest_asrbench.normalize.languages.zh.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.languages.zh.numerals as numerals  # noqa: E402,F401
import pytest_asrbench.normalize.languages.zh.script as script  # noqa: E402,F401
import pytest_asrbench.normalize.languages.zh.width as width  # noqa: E402,F401
