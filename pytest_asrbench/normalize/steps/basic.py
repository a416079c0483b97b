"""Language-independent steps: Unicode form, whitespace, case, punctuation, fillers, folds."""

from __future__ import annotations

import re
import unicodedata

from pytest_asrbench.normalize.steps import step

# Every character Python treats as whitespace, plus the zero-width and formatting
# characters that ASR output and copy-pasted references carry (ZWSP, ZWNJ, ZWJ, word
# joiner, BOM). ZWNJ/ZWJ are only separators between words here: inside a Devanagari
# or Persian word they change rendering, not the word, so both sides lose them alike.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_WHITESPACE = re.compile(rf"[\s{_INVISIBLE}]+")


@step("nfc")
def nfc(config, lexicons):
    """Unicode NFC, so a precomposed and a decomposed 'é' (or nukta letter) compare equal."""
    return lambda text: unicodedata.normalize("NFC", text)


@step("unicode_whitespace")
def unicode_whitespace(config, lexicons):
    """Any Unicode whitespace or zero-width character becomes one ASCII space."""
    return lambda text: _WHITESPACE.sub(" ", text)


@step("lowercase")
def lowercase(config, lexicons):
    """Lowercase cased scripts (``str.lower``; uncased scripts are unchanged)."""
    return str.lower


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


def _is_word_char(char: str) -> bool:
    """A letter, digit or combining mark (a Devanagari vowel sign is part of its word)."""
    return char.isalnum() or unicodedata.category(char)[0] == "M"


@step("punctuation")
def punctuation(config, lexicons):
    """Remove punctuation and symbols (Unicode categories P* and S*) by replacing them with a space.

    Characters in ``keep_symbols`` always stay; characters in ``inner_punctuation`` stay
    only between two letters or digits (so ``abc-123`` keeps its hyphen, a trailing
    hyphen goes). Combining marks (category M) are never touched, so a Devanagari word
    is never split at a vowel sign, virama or nukta.
    """
    keep = set(config.keep_symbols)
    inner = set(config.inner_punctuation)

    def run(text: str) -> str:
        out = []
        last = len(text) - 1
        for index, char in enumerate(text):
            if char in keep or not _is_punctuation(char):
                out.append(char)
            elif (
                char in inner
                and 0 < index < last
                and _is_word_char(text[index - 1])
                and _is_word_char(text[index + 1])
            ):
                out.append(char)
            else:
                out.append(" ")
        return "".join(out)

    return run


@step("collapse_whitespace")
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


@step("char_folds")
def char_folds(config, lexicons):
    """Apply ``char_folds`` (longest source first) so two spellings of a character compare equal."""
    if not config.char_folds:
        return lambda text: text
    sources = sorted(config.char_folds, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(source) for source in sources))
    folds = config.char_folds
    return lambda text: pattern.sub(lambda match: folds[match.group(0)], text)
