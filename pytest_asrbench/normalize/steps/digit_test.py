"""Whether a text holds a digit: the first, cheap gate of the steps that rewrite numbers."""

from __future__ import annotations

import re

_DIGIT = re.compile(r"\d")
_ASCII_DIGITS = b"0123456789"


def has_digit(text: str) -> bool:
    """True when ``text`` holds a character that ``re``'s ``\\d`` matches (a Unicode decimal digit).

    ASCII text (where ``\\d`` is ``0-9``) is answered by deleting its digits from its bytes and
    comparing lengths, two C passes several times faster than a regex search for ``\\d`` (which
    has no literal to scan for and tries every position); other text by that search.
    """
    if text.isascii():
        raw = text.encode()
        return len(raw.translate(None, _ASCII_DIGITS)) != len(raw)
    return _DIGIT.search(text) is not None
