"""Phrase tables: lexicon keys of one or more words, found at a token position.

Several steps read a lexicon whose keys are words or short phrases ("dollars", "us
dollars", "degrees c"): :class:`PhraseTable` folds the keys once (NFC, casefold, the
config's ``char_folds``) and answers "which key starts at token ``i``?" with the longest
one, so "swiss francs" wins over "francs".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

import pytest_asrbench._shared.caches as caches
from pytest_asrbench.normalize.steps.basic import any_in, folded_table, make_fold, source_test


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


#: Characters a fragment of :func:`fragment_search` may hold: each is matched, under
#: ``re.IGNORECASE``, only by itself and its ASCII capital (``i``, ``k`` and ``s`` are left out:
#: ``re`` also matches them to "ı"/"İ", the Kelvin sign and the long s, which ``str.lower``
#: keeps apart). tests/normalize/test_word_step_gates.py checks this over every code point.
FRAGMENT_CHARACTERS = frozenset("abcdefghjlmnopqrtuvwxyz0123456789'")


def fragments(words: Iterable[str], shortest: int = 2) -> list[str] | None:
    """Few substrings such that each of ``words`` (lowercased) holds one of them, made of
    :data:`FRAGMENT_CHARACTERS` and at least ``shortest`` long; ``None`` when a word has no
    such substring. Chosen greedily: a piece of four characters or more first (short pieces
    such as "or" are in most sentences, and a fragment found by chance only costs the full
    search), then the one found in the most words not yet covered, then the longest."""
    words = sorted({word.lower() for word in words})
    candidates: dict[str, set[str]] = {}
    for word in words:
        found = False
        for start in range(len(word)):
            for end in range(start + shortest, len(word) + 1):
                piece = word[start:end]
                if not FRAGMENT_CHARACTERS.issuperset(piece):
                    break
                candidates.setdefault(piece, set()).add(word)
                found = True
        if not found:
            return None
    chosen: list[str] = []
    uncovered = set(words)
    while uncovered:
        useful = sorted(piece for piece, holders in candidates.items() if not holders.isdisjoint(uncovered))
        best = max(useful, key=lambda piece: (min(len(piece), 4), len(candidates[piece] & uncovered), len(piece)))
        chosen.append(best)
        uncovered -= candidates[best]
    return chosen


def fragment_search(words: Iterable[str]) -> Callable[[str], bool]:
    """A necessary test for any of ``words`` matched anywhere in a text by a pattern with
    ``re.IGNORECASE``: true when the lowercased text holds one of their :func:`fragments`
    (a few substring tests, far cheaper than the pattern's search). Always true when a word
    has no fragment (the caller then searches every text); always false for no words."""
    words = list(words)
    if not words:
        return lambda text: False
    chosen = fragments(words)
    if chosen is None:
        return lambda text: True
    if len(chosen) == 1:
        (only,) = chosen
        return lambda text: only in text.lower()
    return lambda text: any_in(chosen, text.lower())


def casefolded_text(folds: Mapping[str, str]) -> Callable[[str], str]:
    """``fold(text.casefold())`` for the config's ``char_folds`` (``make_fold``), the fold
    skipped when the casefolded text holds none of its sources (nearly always, after the
    ``char_folds`` step ran): one character-class search instead of a substitution pass, and
    for ASCII text a substring test per ASCII source only (no other source can be in it).

    Steps of one config get the same function, which keeps its last text and result: the
    steps that run one after the other on a text none of them changes (the very same object)
    casefold it once (:data:`_LAST_FOLDED`)."""
    key = tuple(sorted(folds.items()))
    function = _FOLDED_TEXT.get(key)
    if function is None:
        function = _FOLDED_TEXT[key] = _casefolded_text(folds)
    return function


#: :func:`casefolded_text`'s function per fold table (a table is a few characters; a process
#: holds a handful of configs), and the cell of each one's last ``(text, result)``.
_FOLDED_TEXT: dict[tuple, Callable[[str], str]] = {}
_LAST_FOLDED: list[list[tuple[str | None, str]]] = []


def _casefolded_text(folds: Mapping[str, str]) -> Callable[[str], str]:
    fold = make_fold(folds)
    if not folds:
        return str.casefold
    holds_source = source_test(folds)
    ascii_sources = tuple(source for source in folds if source.isascii())
    # One ``(text, result)`` tuple, read and replaced whole (safe across threads), in a cell.
    last: list[tuple[str | None, str]] = [(None, "")]
    _LAST_FOLDED.append(last)

    def folded(text: str) -> str:
        seen = last[0]
        if seen[0] is text:
            return seen[1]
        low = text.casefold()
        if low.isascii():
            if not ascii_sources:
                result = low
            elif len(ascii_sources) == 1:
                result = fold(low) if ascii_sources[0] in low else low
            else:
                result = fold(low) if any(source in low for source in ascii_sources) else low
        elif not holds_source(low):
            result = low
        else:
            result = fold(low)
        last[0] = (text, result)
        return result

    return folded


def substring_search(words: Iterable[str]) -> Callable[[str], bool]:
    """A test for any of ``words`` as a substring of a text: a necessary test for any of
    them as a word of the text's split (each word holds itself). Words holding another
    listed word are left out (the shorter one's test covers them)."""
    words = sorted(set(words), key=len)
    kept: list[str] = []
    for word in words:
        if not any(shorter in word for shorter in kept):
            kept.append(word)
    pieces = tuple(kept)
    if "" in pieces:
        return lambda text: True
    return lambda text: any_in(pieces, text)


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
    """Drop the last text :func:`casefolded_words` and :func:`lowered_words` split (and its
    words), and the last text each :func:`casefolded_text` function folded."""
    global _LAST_CASEFOLDED, _LAST_LOWERED
    _LAST_CASEFOLDED = _LAST_LOWERED = (None, [])
    for last in _LAST_FOLDED:
        last[0] = (None, "")


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
