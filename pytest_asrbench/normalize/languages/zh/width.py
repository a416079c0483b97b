"""Full-width forms in the reviewer normalizer: ``￥５`` = ``¥5``, ``ＡＰＰ`` = ``APP``.

Step ``zh_width``: zh-eval-v1's explicit width table (:data:`~.eval_v1.WIDTH_FOLDS`: full-width
ASCII U+FF01..U+FF5E, the ideographic space U+3000 and the full-width signs U+FFE0..U+FFE6),
read from the frozen module and never changed here; CJK punctuation (``。、``) is not a
width form and stays for the ``punctuation`` step. Runs before ``lowercase`` and the numbers,
so ``５公里`` is read like ``5公里``.
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.languages.zh.eval_v1 import fold_width
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.registry import step

#: Every code point of the width table (U+3000, U+FF01..U+FF5E, U+FFE0..U+FFE6).
_WIDE_CODES = (0x3000, *range(0xFF01, 0xFF5F), *range(0xFFE0, 0xFFE7))
_WIDE = re.compile("[\u3000\uff01-\uff5e\uffe0-\uffe6]")


@step("zh_width", language="zh", idempotent=True)
def zh_width(config, lexicons):
    """Full-width to half-width by zh-eval-v1's width table (:func:`~.eval_v1.fold_width`)."""
    folds = {chr(code): fold_width(chr(code)) for code in _WIDE_CODES}  # what _WIDE finds, folded once
    wide_in = _WIDE.findall

    def run(text: str) -> str:  # its own function: the trigger is not set on the frozen module's
        # ``str.translate`` (the frozen ``fold_width``) looks every character of the text up in
        # the table; a text holds a few wide characters at most (，：５), each replaced in one
        # C pass. The same output: every code point is folded on its own, and no folded form is
        # in the table.
        for char in set(wide_in(text)):
            text = text.replace(char, folds[char])
        return text

    # A text with no code point of the table stays as it is.
    return triggered(_WIDE, run)
