"""Number machinery shared by every language: decimal and group separators.

Each config says how its language writes numbers (``decimal_separator``, ``group_separator``;
de: ``","`` and ``"."``, en: ``"."`` and ``","``). From them:

- :func:`group_pattern` finds a group separator inside a digit run: a separator between a
  digit and exactly three digits (``1.000.000`` in de, ``25,000`` in en); the generic
  ``digit_groups`` step (before ``punctuation``) drops it, so ``1.000`` = ``1000``;
- :func:`number_marks` finds what the ``punctuation`` step must keep inside a number: the
  decimal separator between two digits (``0,2`` in de, ``5.3`` in hi, ``3.14`` in th) and a
  minus sign that starts a number (``-3.14``, U+2212 written as ``-``).

Source: the reviewer reports of issue 8 ("``5.3`` is ``5 3`` in hi, ``-3.14`` is ``314`` in
th, ``0,2 Millionen`` is ``0 2 millionen`` in de"); the separators follow CLDR's number
symbols for each locale (``decimal`` and ``group``).
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.steps.registry import step

#: Minus signs that start a number: ASCII hyphen-minus and U+2212 MINUS SIGN.
MINUS_SIGNS = "-\u2212"


def group_pattern(group: str) -> re.Pattern[str] | None:
    """The group separator ``group`` between a digit and exactly three digits (``None``
    when the language has no group separator)."""
    if not group:
        return None
    return re.compile(rf"(?<=\d){re.escape(group)}(?=\d{{3}}(?!\d))")


def number_marks(decimal: str) -> str:
    """A regex (one alternative, two groups) for the marks kept inside numbers: group 1 is
    the decimal separator between two digits, group 2 a minus sign at the start of a word
    followed by a digit. Used by the ``punctuation`` step before its own rules."""
    return (rf"(?<=\d)({re.escape(decimal)})(?=\d)"
            rf"|(?:^|(?<=\s))([{re.escape(MINUS_SIGNS)}])(?=\d)")


@step("digit_groups", idempotent=True)
def digit_groups(config, lexicons):
    """Drop the language's group separators inside digit runs (``1.000.000`` = ``1000000``
    in de); run before ``punctuation``. Reads the shared ``group_separator``."""
    pattern = group_pattern(config.group_separator)
    if pattern is None:
        return lambda text: text
    return lambda text: pattern.sub("", text) if config.group_separator in text else text
