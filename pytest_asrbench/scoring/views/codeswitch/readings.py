"""Every reading of a sound sequence: the one expansion both loanword matchers use.

A matcher reduces a Latin word to a sequence of sound classes (:mod:`.phonetic` for Hindi's
Devanagari, :mod:`.kana_hangul` for katakana and Hangul), with a tuple where the spelling has
several common readings (a soft g: ``("g", "j")``). Each choice of one reading per tuple is
collapsed into a key by the matcher's own rule; this module lists those keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

#: The most readings kept for one word: a long word with many two-way letters would otherwise
#: have 2**n of them; the first ones, in sequence order, are kept.
MAX_READINGS = 64


def key_readings(sequence: Sequence[str | tuple[str, ...]],
                 collapse: Callable[[tuple[str, ...]], str]) -> frozenset[str]:
    """The keys ``collapse`` makes of every choice of one reading per item of ``sequence``
    (a string is its own only reading), at most :data:`MAX_READINGS` of them."""
    choices = [item if isinstance(item, tuple) else (item,) for item in sequence]
    readings: set[str] = set()
    for combination in product(*choices):
        readings.add(collapse(combination))
        if len(readings) >= MAX_READINGS:
            break
    return frozenset(readings)
