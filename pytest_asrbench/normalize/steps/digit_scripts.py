"""Decimal digits of every script: which script a number is written in, and writing digits in it.

The number steps read any decimal digit (Unicode ``Nd``, which ``re``'s ``\\d`` matches: ASCII,
Thai ``๑๒``, Devanagari ``१२``, fullwidth ``１２``, ...). A rule that writes digits of its own into
a number (a zero padding, a product, an hour without its leading zero) writes them in the script
of the digits it read, and a number whose digits mix scripts is left as written. The digits of
one script are the ten consecutive code points from its zero (the Unicode Standard, section 4.6
"Numeric Value": ``Nd`` characters are encoded in contiguous ranges of 0 to 9), so a digit's
script is its code point minus its value.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

#: ASCII digits -> the digits of the script whose zero is the key (filled on first use).
_SCRIPT_DIGITS: dict[str, dict[int, int]] = {}


@cache
def script_zeros() -> tuple[str, ...]:
    """The zero of every decimal digit script (Unicode ``Nd``), ASCII first. Every ``Nd``
    character lies in planes 0 and 1 (``tests/test_number_digit_scripts.py`` checks the whole
    code space against this list), so only those are scanned, once per process (~10 ms)."""
    return tuple(chr(code) for code in range(0x20000) if unicodedata.decimal(chr(code), None) == 0)


@cache
def digit_class(values: str) -> str:
    """A regex character class of the decimal digits of every script whose value is one of
    ``values`` (``"01"``: ``0``, ``1``, ``๐``, ``๑``, ...): a range such as an hour's first digit
    read by value in any script, as ``\\d`` reads any digit."""
    return "[" + "".join(re.escape(chr(ord(zero) + int(value))) for zero in script_zeros() for value in values) + "]"


def zero_of(text: str) -> str | None:
    """The zero of the one script the decimal digits (``Nd``) of ``text`` are written in
    (``"0"`` for ASCII digits or none), or ``None`` when they mix scripts."""
    if text.isascii():
        return "0"
    zeros = {chr(ord(char) - value) for char in text if (value := unicodedata.decimal(char, None)) is not None}
    if len(zeros) > 1:
        return None
    return zeros.pop() if zeros else "0"


def in_script(text: str, zero: str) -> str:
    """``text`` with its ASCII digits written in the script whose zero is ``zero`` (itself for ``"0"``)."""
    if zero == "0":
        return text
    table = _SCRIPT_DIGITS.get(zero)
    if table is None:
        table = _SCRIPT_DIGITS[zero] = {ord("0") + value: ord(zero) + value for value in range(10)}
    return text.translate(table)
