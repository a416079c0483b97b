"""Which script a word is written in: Latin, Devanagari, neutral (digits, symbols), or other.

The code-switch rules hang on it: a reference word in Latin script is English; a
hypothesis word in Devanagari is not (seven vs सात is a translation, not a rendering).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Literal

Script = Literal["latin", "devanagari", "neutral", "mixed", "other"]


def char_script(char: str) -> str | None:
    """'latin', 'devanagari', 'other' for a letter or combining mark, ``None`` for the rest."""
    if "\u0900" <= char <= "\u097f" or "\ua8e0" <= char <= "\ua8ff":
        return "devanagari" if not char.isdigit() else None
    category = unicodedata.category(char)
    if category[0] not in "LM":
        return None
    if "LATIN" in unicodedata.name(char, ""):
        return "latin"
    if category[0] == "M" and "\u0300" <= char <= "\u036f":
        return "latin"  # a combining accent on a Latin letter
    return "other"


@lru_cache(maxsize=1 << 16)
def word_script(word: str) -> Script:
    """The script of a whole word.

    ``neutral``: no letters at all (7, 25000, abc- is not neutral). ``mixed``: letters of
    two scripts in one word (नेटवर्कnetwork, a transcription fault). ``other``: letters of
    a third script only, such as Urdu output for Hindi audio.
    """
    scripts = {script for script in map(char_script, word) if script}
    if not scripts:
        return "neutral"
    if len(scripts) > 1:
        return "mixed"
    return scripts.pop()  # type: ignore[return-value]
