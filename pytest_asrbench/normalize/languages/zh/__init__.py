"""Chinese (``zh``): the rules of ``configs/zh.toml`` that cannot be data.

The skeleton of every language package, with the modules Chinese needs: ``eval_v1.py``, the
steps of the frozen evaluation cleaning zh-eval-v1 (Unicode NFC, the explicit full-width to
half-width table, Latin case folding, whitespace and punctuation removal), and ``script.py``,
Simplified/Traditional conversion through OpenCC (the one place ``opencc`` is imported, inside
functions only). There is no ``numbers.py``: the protocol keeps numerals as written (``2026``
and ``二零二六`` stay different). Every step is registered with ``language="zh"``; the rules
and the four CER views are in ``docs/mandarin.md``.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "zh"

from pytest_asrbench.normalize.languages.zh import eval_v1, script  # noqa: E402,F401
