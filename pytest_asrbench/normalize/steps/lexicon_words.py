"""Whole-word replacement from a lexicon: ``spelling`` (e.g. British -> American spelling).

The ``spelling`` lexicon maps one word to its standard spelling (``colour`` -> ``color``).
Only whole space-separated words are replaced, and a word followed by the possessive
"'s" ("neighbour's" -> "neighbor's"); "colourway" is left alone. Runs after ``lowercase`` and ``punctuation``: keys are written in lowercase.
A value may hold several words ("alright" -> "all right").
"""

from __future__ import annotations

from pytest_asrbench.normalize.steps.registry import require_lexicon, step


@step("spelling")
def spelling(config, lexicons):
    """Replace each word found in the ``spelling`` lexicon by its value."""
    table = dict(require_lexicon(lexicons, "spelling", "spelling"))
    get = table.get
    keys = frozenset(table)

    def possessive(word: str) -> str:
        if word.endswith("'s") and word[:-2] in keys:
            return table[word[:-2]] + "'s"
        return word

    def run(text: str) -> str:
        words = text.split(" ")
        if "'s" in text:
            words = [possessive(word) for word in words]
        if keys.isdisjoint(words):
            return " ".join(words)
        return " ".join([get(word, word) for word in words])

    return run
