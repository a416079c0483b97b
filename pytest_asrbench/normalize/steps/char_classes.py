"""Plain ``re`` character classes derived from ``regex`` property classes.

A step whose rule is a Unicode property (``\\p{P}``, ``\\p{M}``, ``\\s``) states it with the
``regex`` package, whose property tables are the rule. ``re`` cannot spell a property, but it
tests a class of Basic Multilingual Plane characters by table lookup, and a pattern that
starts with such a class is scanned in C from one candidate position to the next, several
times faster than ``regex`` searches the same property. :func:`bmp_class` lists, once, the
characters of the plane (U+0000..U+FFFF) that a ``regex`` class matches, as an ``re`` class
source: equal to the ``regex`` class on every text without a character beyond the plane, by
construction (:func:`beyond_bmp` tells those texts apart; a step sends them to its ``regex``
form).
"""

from __future__ import annotations

from functools import lru_cache

import regex

# Every code point of the plane, in order (U+D800..U+DFFF included: a lone surrogate can be in a str).
_PLANE = "".join(map(chr, range(0x10000)))


@lru_cache(maxsize=None)
def bmp_members(source: str, flags: int = 0) -> str:
    """The characters of U+0000..U+FFFF, in code point order, that the ``regex`` character
    class ``source`` (one character, e.g. ``r"[\\p{P}\\p{S}]"``) compiled with ``flags``
    matches. One scan of the plane's 65,536 code points per class (a few milliseconds), cached.

    Raises:
        ValueError: ``source`` matches more than one character at a time (not a class).
    """
    pattern = regex.compile(source, flags)
    found = pattern.findall(_PLANE)
    if any(len(match) != 1 for match in found):
        raise ValueError(f"{source!r} is not a character class: it matches runs of characters")
    return "".join(found)


def bmp_class(source: str, flags: int = 0, *, negate: bool = False) -> str:
    """An ``re`` character class (``[...]``, ranges merged) matching exactly the characters of
    U+0000..U+FFFF that the ``regex`` class ``source`` matches (``negate``: the other
    characters of the plane and every character beyond it, ``[^...]``)."""
    members = bmp_members(source, flags)
    parts = []
    index = 0
    while index < len(members):
        end = index
        while end + 1 < len(members) and ord(members[end + 1]) == ord(members[end]) + 1:
            end += 1
        first, last = members[index], members[end]
        parts.append(_escape(first) if first == last else f"{_escape(first)}-{_escape(last)}")
        index = end + 1
    if not parts:
        return "[^\\x00-\\U0010ffff]" if not negate else "[\\x00-\\U0010ffff]"
    return ("[^" if negate else "[") + "".join(parts) + "]"


def _escape(char: str) -> str:
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def beyond_bmp(text: str) -> bool:
    """True when ``text`` holds a character beyond U+FFFF (where :func:`bmp_class` says nothing)."""
    return not text.isascii() and max(text) > "\uffff"
