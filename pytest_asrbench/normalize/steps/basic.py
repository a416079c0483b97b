"""Language-independent steps: Unicode form, whitespace, case, punctuation, fillers, folds."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping

import regex

from pytest_asrbench.normalize.steps.registry import step

# Every character Python treats as whitespace, plus the zero-width space (U+200B), is a
# word boundary.
WHITESPACE = re.compile(r"[\s\u200b]+")
# Invisible characters that live inside a word and change its rendering, not the word:
# ZWNJ and ZWJ (Devanagari half forms: क्‍ष is क्ष; emoji sequences), word joiner, BOM,
# soft hyphen, and variation selectors (the U+FE0F of ❤️). Removed, never a boundary:
# as a space they would split one word into two.
INVISIBLE = re.compile("[\u200c\u200d\u2060\ufeff\u00ad\ufe00-\ufe0f\U000e0100-\U000e01ef]+")


@step("nfc")
def nfc(config, lexicons):
    """Unicode NFC, so a precomposed and a decomposed 'é' (or nukta letter) compare equal."""
    return lambda text: unicodedata.normalize("NFC", text)


@step("unicode_whitespace")
def unicode_whitespace(config, lexicons):
    """Any Unicode whitespace (tab, NBSP, ideographic space, ZWSP) becomes one ASCII space;
    in-word invisible characters (ZWJ, ZWNJ, variation selectors, soft hyphen) are removed."""
    return lambda text: WHITESPACE.sub(" ", INVISIBLE.sub("", text))


@step("lowercase")
def lowercase(config, lexicons):
    """Lowercase cased scripts (``str.lower``; uncased scripts are unchanged)."""
    return str.lower


# Letters, digits and combining marks: what may stand on both sides of inner punctuation.
_WORD_CHAR = r"[\p{L}\p{N}\p{M}]"
# Combining marks with no base before them (text start or a space).
_ORPHAN_MARKS = regex.compile(r"(?:^|(?<=\s))\p{M}+")


@step("punctuation")
def punctuation(config, lexicons):
    """Remove punctuation and symbols (Unicode categories P* and S*) by replacing them with a space.

    Characters in ``keep_symbols`` always stay; characters in ``inner_punctuation`` stay
    only between two letters or digits (so ``abc-123`` keeps its hyphen, a trailing
    hyphen goes). Combining marks (category M) of a word are never touched, so a Devanagari
    word is never split at a vowel sign, virama or nukta; a mark with no base left (after a
    removed symbol or a space) is dropped with it, so it never becomes a word of its own.

    Uses the ``regex`` package for its Unicode property classes (``\\p{P}``, ``\\p{S}``):
    one compiled pass instead of a Python loop over characters.
    """
    keep = "".join(regex.escape(char) for char in config.keep_symbols)
    symbols = rf"[[\p{{P}}\p{{S}}]--[{keep}]]" if keep else r"[\p{P}\p{S}]"
    if config.inner_punctuation:
        inner = "".join(regex.escape(char) for char in config.inner_punctuation)
        pattern = regex.compile(rf"(?<={_WORD_CHAR})([{inner}])(?={_WORD_CHAR})|{symbols}", regex.V1)

        def replace(match) -> str:
            return match.group(1) or " "
    else:
        pattern = regex.compile(symbols, regex.V1)
        replace = " "

    def run(text: str) -> str:
        return _ORPHAN_MARKS.sub("", pattern.sub(replace, text))

    return run


@step("collapse_whitespace", idempotent=True)
def collapse_whitespace(config, lexicons):
    """Collapse runs of spaces to one and strip both ends."""
    return lambda text: " ".join(text.split())


@step("remove_spaces")
def remove_spaces(config, lexicons):
    """Drop every space (character-scored languages whose config sets ``remove_spaces``)."""
    if not config.remove_spaces:
        return lambda text: text
    return lambda text: text.replace(" ", "")


@step("fillers")
def fillers(config, lexicons):
    """Remove the config's filler words, as whole words only (so 'um' leaves 'umbrella' alone)."""
    words = frozenset(config.fillers)
    if not words:
        return lambda text: text
    return lambda text: " ".join(word for word in text.split() if word not in words)


def make_fold(folds: Mapping[str, str]) -> Callable[[str], str]:
    """``char_folds`` as a ``str -> str`` function, longest source first (identity when empty).

    Shared by the ``char_folds`` step and by every step or table that must see text folded
    the same way (number words, the phonetic stoplist, hyphen compounds).
    """
    if not folds:
        return lambda text: text
    pattern = re.compile("|".join(re.escape(source) for source in sorted(folds, key=len, reverse=True)))
    return lambda text: pattern.sub(lambda match: folds[match.group(0)], text)


def is_word_char(char: str) -> bool:
    """A letter, digit or combining mark (a Devanagari vowel sign is part of its word)."""
    return char.isalnum() or unicodedata.category(char)[0] == "M"


@step("char_folds")
def char_folds(config, lexicons):
    """Apply ``char_folds`` (longest source first) so two spellings of a character compare equal."""
    return make_fold(config.char_folds)
