"""Phrase tables: lexicon keys of one or more words, found at a token position.

Several steps read a lexicon whose keys are words or short phrases ("dollars", "us
dollars", "degrees c"): :class:`PhraseTable` folds the keys once (NFC, casefold, the
config's ``char_folds``) and answers "which key starts at token ``i``?" with the longest
one, so "swiss francs" wins over "francs".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from pytest_asrbench._shared import caches
from pytest_asrbench.normalize.steps.basic import folded_table


def trie_pattern(words: list[str]) -> str:
    """A regex alternation of ``words`` shaped as a trie ("f(?:ive|our)"), which ``re`` tries
    in one pass per position instead of one branch per word."""
    trie: dict = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:
            return f"(?:{body})?"
        return body

    return emit(trie)


# The last text asked about and its words: consecutive steps that leave the text unchanged
# return the very same object, so the next one's test reuses the split. One tuple, read and
# replaced whole (safe across threads); it holds the text, so ``is`` never meets a new
# object at a freed address.
_LAST_CASEFOLDED: tuple[str | None, list[str]] = (None, [])
_LAST_LOWERED: tuple[str | None, list[str]] = (None, [])


def casefolded_words(text: str) -> list[str]:
    """``text.casefold().split()``, computed once for consecutive calls with the same object
    (the cheap "can this step apply?" test of several steps in a row). Do not modify the list."""
    global _LAST_CASEFOLDED
    last_text, words = _LAST_CASEFOLDED
    if last_text is not text:
        words = lowered_words(text) if text.isascii() else text.casefold().split()
        _LAST_CASEFOLDED = (text, words)
    return words


def lowered_words(text: str) -> list[str]:
    """``text.lower().split()``, cached like :func:`casefolded_words` (for ASCII text the
    two are equal). Do not modify the list."""
    global _LAST_LOWERED
    last_text, words = _LAST_LOWERED
    if last_text is not text:
        words = text.lower().split()
        _LAST_LOWERED = (text, words)
    return words


def _forget_last_words() -> None:
    """Drop the last text :func:`casefolded_words` and :func:`lowered_words` split (and its words)."""
    global _LAST_CASEFOLDED, _LAST_LOWERED
    _LAST_CASEFOLDED = _LAST_LOWERED = (None, [])


caches.register(_forget_last_words, "normalize.steps.phrases.last_words")


def words_search(words: Iterable[str]) -> Callable[[str], bool]:
    """A case-insensitive test for any of ``words`` as a whole space-separated word: the cheap
    "can this step change the text?" test of a table-driven step. The pattern starts with a
    literal space (searched in ``" " + text``), which ``re`` finds by a fast scan instead of
    trying a lookbehind at every position: about four times faster. ASCII text meets ASCII
    words first as a set lookup of its lowercased words (:func:`casefolded_words`): when
    none is one of ``words`` the search cannot match (for ASCII, ignoring case is
    lowercasing), and most texts stop there."""
    words = sorted(set(words))
    pattern = re.compile(rf" (?:{trie_pattern(words)})(?!\S)", re.IGNORECASE)
    lowered = frozenset(word.lower() for word in words)
    ascii_words = all(word.isascii() for word in words)

    def search(text: str) -> bool:
        if ascii_words and text.isascii() and lowered.isdisjoint(casefolded_words(text)):
            return False
        return pattern.search(" " + text) is not None

    return search


def folded_tokens(text: str, tokens: list[str], fold: Callable[[str], str]) -> list[str]:
    """``tokens`` (``text.split()``) casefolded and folded, one fold pass over the whole text
    when the fold keeps the token count (it always does unless a fold makes a space)."""
    folded = fold(text.casefold()).split()
    if len(folded) == len(tokens):
        return folded
    return [fold(token.casefold()) for token in tokens]


class PhraseTable:
    """``{phrase: value}`` matched on casefolded tokens, longest phrase first.

    Args:
        table: a lexicon (``key -> value``); a key may hold several space-separated words.
        fold: the config's character fold (``make_fold(config.char_folds)``), applied to the
            keys so they meet text that went through ``char_folds``.
        what: a name for error messages ("en currencies lexicon").

    Raises:
        ConfigError: two keys fold to one phrase with different values.
    """

    def __init__(self, table: Mapping[str, str], fold: Callable[[str], str], what: str):
        folded = folded_table(table, fold, what)
        self.values: dict[tuple[str, ...], str] = {tuple(key.split()): value for key, value in folded.items()}
        #: The key as written in the lexicon, by folded phrase (a step may read its shape).
        self.written: dict[tuple[str, ...], str] = {}
        for key in table:
            self.written.setdefault(tuple(fold(key.casefold()).split()), key)
        self.widths = sorted({len(phrase) for phrase in self.values}, reverse=True)
        #: Every word that can start a phrase, and a search for them in a text.
        self.first_words = frozenset(phrase[0] for phrase in self.values)
        self.first_word_search = words_search(self.first_words) if self.first_words else (lambda text: False)

    def __bool__(self) -> bool:
        return bool(self.values)

    def match(self, folded: list[str], index: int) -> tuple[tuple[str, ...], int] | None:
        """The longest phrase starting at ``folded[index]`` and its width in tokens, or ``None``.

        ``folded`` is the text's tokens, casefolded.
        """
        if index >= len(folded) or folded[index] not in self.first_words:
            return None
        for width in self.widths:
            phrase = tuple(folded[index : index + width])
            if len(phrase) == width and phrase in self.values:
                return phrase, width
        return None
