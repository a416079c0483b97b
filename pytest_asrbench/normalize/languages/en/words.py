"""English word rules: contractions, titles and spelling.

All are data first (``configs/en/contractions.tsv``, ``titles.tsv``, ``spelling.tsv``); the
code holds only what a table cannot say.

Contractions (reviewer example: "I'm not sure" vs "I am not sure" counted two errors).
Straight and curly apostrophes are the same after the ``char_folds`` step. Words listed in
the ``contractions`` lexicon are replaced whole ("won't" -> "will not", "it's" -> "it is",
"let's" -> "let us"); any other word ending in one of these suffixes is expanded by rule:

    n't -> not      're -> are      've -> have      'll -> will      'd -> would

"'d" is read as "would" (it may be "had": both sides get the same reading). A word's "'s"
is left alone unless the lexicon lists the word: "John's" is a possessive.

Titles (``titles`` lexicon: "dr" -> "doctor", "mr" -> "mister", "mrs" -> "missus" ...).
An abbreviation, with or without its dot, is expanded only when the next word looks like a
name: it starts with a letter and is not one of the function or address words below. So
"Dr. Smith", "dr smith" and "Doctor Smith" meet, while "Elm Dr. is closed" keeps "dr"
(there it means "drive", which is left as written: the spoken form is unknown). The test
ignores case so that a lowercase reference and a cased transcript are read alike.
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.languages.en.numbers import trie_pattern
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_SUFFIXES = {"n't": " not", "'re": " are", "'ve": " have", "'ll": " will", "'d": " would"}

# Words after which a title abbreviation is not a title (mostly "Dr." as "Drive"). "will"
# and "may" are missing on purpose: they are first names too ("Dr. Will Smith").
_NOT_A_NAME = frozenset(
    """
    a an the this that these those and or but nor so yet if then than as of at by for from in
    into on onto to with without is are was were be been am do does did has have had would
    shall should can could might must i you he she it we they me him her us them my your
    his its our their there here where when who whom what which why how not no yes
    apt apartment suite ste unit floor fl north south east west n s e w ne nw se sw
    """.split()
)


@step("contractions", language="en")
def contractions(config, lexicons):
    """Expand contractions: listed words first, then the n't/'re/'ve/'ll/'d suffix rules."""
    table = {key.casefold(): value for key, value in require_lexicon(lexicons, "contractions", "contractions").items()}
    listed = trie_pattern(sorted(table))
    # A listed word from its start, or a suffix right after a letter ("do|n't").
    pattern = re.compile(
        rf"(?<![\w'])(?P<listed>{listed})(?![\w'])|(?<=[^\W\d_])(?P<suffix>n't|'re|'ve|'ll|'d)(?!\w)",
        re.IGNORECASE,
    )

    # Cheap test first: most texts have no apostrophe and none of the few listed words
    # without one ("cannot", "gonna").
    plain = [key for key in table if "'" not in key]
    plain_search = (
        re.compile(r"(?<!\w)(?:" + "|".join(re.escape(key) for key in plain) + r")(?!\w)", re.IGNORECASE).search
        if plain
        else (lambda text: None)
    )

    def replace(match: re.Match) -> str:
        word = match.group("listed")
        if word is not None:
            return table[word.casefold()]
        return _SUFFIXES[match.group("suffix").lower()]

    def run(text: str) -> str:
        if "'" not in text and not plain_search(text):
            return text
        return pattern.sub(replace, text)

    return run


@step("titles", language="en")
def titles(config, lexicons):
    """Expand a title abbreviation (``titles`` lexicon) when a name-like word follows."""
    table = {key.casefold().rstrip("."): value for key, value in require_lexicon(lexicons, "titles", "titles").items()}
    names = "|".join(re.escape(key) for key in sorted(table, key=len, reverse=True))
    # The title, its optional dot, then the next word's leading letters (after any
    # punctuation that the punctuation step would remove anyway).
    pattern = re.compile(rf"(?<![\w'.])({names})\.?(?=\s[\W_]*?([^\W\d_]+))", re.IGNORECASE)
    keys = frozenset(table)

    def replace(match: re.Match) -> str:
        if match.group(2).casefold() in _NOT_A_NAME:
            return match.group(0)
        return table[match.group(1).casefold()]

    def run(text: str) -> str:
        if keys.isdisjoint(text.lower().split()):
            return text
        return pattern.sub(replace, text)

    return run


# --- spelling ----------------------------------------------------------------------
# Whole-word replacement from a lexicon: ``spelling`` (e.g. British -> American spelling).
#
# The ``spelling`` lexicon maps one word to its standard spelling (``colour`` -> ``color``).
# Only whole space-separated words are replaced, and a word followed by the possessive
# "'s" ("neighbour's" -> "neighbor's"); "colourway" is left alone. Runs after
# ``lowercase`` and ``punctuation``: keys are written in lowercase.
# A value may hold several words ("alright" -> "all right").


@step("spelling", language="en")
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
