"""Phrase tables: lexicon keys of one or more words, found at a token position.

Several steps read a lexicon whose keys are words or short phrases ("dollars", "us
dollars", "degrees c"): :class:`PhraseTable` folds the keys once (NFC, casefold, the
config's ``char_folds``) and answers "which key starts at token ``i``?" with the longest
one, so "swiss francs" wins over "francs".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pytest_asrbench.normalize.steps.basic import folded_table


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
        #: Every word that can start a phrase (a cheap "can anything match?" test).
        self.first_words = frozenset(phrase[0] for phrase in self.values)

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
