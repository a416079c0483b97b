"""English word rules: contractions, titles and spelling.

All are data first (``configs/en/contractions.tsv``, ``titles.tsv``, ``spelling.tsv``); the
code holds only what a table cannot say.

Contractions (reviewer example: "I'm not sure" vs "I am not sure" counted two errors).
Straight and curly apostrophes are the same after the ``char_folds`` step. Words listed in
the ``contractions`` lexicon are replaced whole ("won't" -> "will not", "it's" -> "it is",
"let's" -> "let us"); any other word ending in one of these suffixes is expanded by rule:

    n't -> not      're -> are      've -> have      'll -> will      'd -> would

"'d" is read as "would", and as "had" before a word of ``[options.contractions] had_before``
("I'd been" = "I had been", "you'd better"). A word's "'s" is left alone unless the
lexicon lists the word ("John's" is a possessive); before a word of ``has_before`` it is
"has", listed or not ("she's been" = "she has been", "John's got" = "John has got", while
"he's going" = "he is going"). Source: reviewer reports ("she's been" was "she is been").

Titles (``titles`` lexicon: "dr" -> "doctor", "mr" -> "mister", "mrs" -> "missus" ...).
An abbreviation, with or without its dot, is expanded only when the next word looks like a
name: it starts with a letter and is not one of the function or address words below. So
"Dr. Smith", "dr smith" and "Doctor Smith" meet, while "Elm Dr. is closed" keeps "dr"
(there it means "drive", which is left as written: the spoken form is unknown). The test
ignores case so that a lowercase reference and a cased transcript are read alike, with one
exception: an abbreviation written in capitals is an acronym or a code, not a title ("an
MR scan", "the DR Congo"; the original requirements' open item "two-letter title abbreviations that still
fire on codes"). Text written all in capitals ("MR. SMITH") therefore keeps "mr".
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.phrases import fragment_search, lowered_words, trie_pattern
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

# A run of word characters and apostrophes (every match of the contraction pattern lies in
# one), and the next word as the pattern reads it ahead.
_RUN = re.compile(r"[\w']*")
# What may close a token after a contraction, none of it a word character or an apostrophe.
_CLOSING = ".,;:!?\")]"
_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")

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


class ContractionOptions(StepOptions):
    """``[options.contractions]``: the next words that make "'s" read "has" and "'d" read "had"."""

    has_before: list[str] = Field(default_factory=list, description="'s is 'has' before these ('been', 'got').")
    had_before: list[str] = Field(default_factory=list, description="'d is 'had' before these ('been', 'better').")


@step("contractions", language="en", options=ContractionOptions)
def contractions(config, lexicons, options: ContractionOptions):
    """Expand contractions: listed words first, then the n't/'re/'ve/'ll/'d suffix rules, and
    "'s"/"'d" by the next word (module docstring)."""
    table = {key.casefold(): value for key, value in require_lexicon(lexicons, "contractions", "contractions").items()}
    has_before = frozenset(word.casefold() for word in options.has_before)
    had_before = frozenset(word.casefold() for word in options.had_before)
    listed = trie_pattern(sorted(table))
    # A listed word from its start, or a suffix right after a letter ("do|n't"); then the
    # next word, looked at but not consumed.
    pattern = re.compile(
        rf"(?:(?<![\w'])(?P<listed>{listed})(?![\w'])|(?<=[^\W\d_])(?P<suffix>n't|'re|'ve|'ll|'d|'s)(?!\w))"
        rf"(?=\s+(?P<next>[^\W\d_]+))?",
        re.IGNORECASE,
    )

    # The listed words without an apostrophe ("cannot", "gonna"): a text holding none of
    # their fragments (one substring test each, on the lowercased text) has none of them.
    plain = [key for key in table if "'" not in key]
    plain_search = fragment_search(plain)

    def replace(match: re.Match) -> str:
        word = match.group("listed")
        following = (match.group("next") or "").casefold()
        if word is not None:
            value = table.get(word.casefold())
            if value is None:
                # ``re`` matched a key through its wider case matching ("İmma": "İ" matches
                # "i" there, but casefolds to "i" and a combining dot): not a listed
                # spelling, so the word stays as written (it raised KeyError before).
                return match.group("listed")
            if following in has_before and word.endswith("'s") and value.endswith(" is"):
                return value[:-3] + " has"
            return value
        suffix = match.group("suffix").casefold()  # "'ſ" (long s) matches "'s" in ``re`` too
        if suffix == "'s":
            return " has" if following in has_before else match.group("suffix")
        if suffix == "'d" and following in had_before:
            return " had"
        return _SUFFIXES[suffix]

    def everywhere(text: str) -> str:
        """The rule over the whole text: the definition the apostrophe walk below keeps."""
        return pattern.sub(replace, text)

    def following_word(text: str, end: int) -> str:
        """The next word the pattern reads ahead of a match ending at ``end``, casefolded."""
        match = _NEXT_WORD.match(text, end)
        return "" if match is None else match.group(1).casefold()

    def one_apostrophe(word: str, text: str, end: int) -> tuple[int, str] | None:
        """The pattern's one match in ``word``, an ASCII run with one apostrophe ending at
        ``end`` of ``text``: ``(where it starts in word, its replacement)``, ``None`` when
        nothing changes. A listed word is the whole run; a suffix holds the apostrophe and
        ends the run (it must be followed by no word character), after a letter."""
        key = word.lower()  # ASCII: the casefold
        value = table.get(key)
        if value is not None:
            if word.endswith("'s") and value.endswith(" is") and following_word(text, end) in has_before:
                return 0, value[:-3] + " has"
            return 0, value
        apostrophe = key.index("'")
        tail = key[apostrophe:]
        if tail == "'t":
            if apostrophe >= 2 and key[apostrophe - 1] == "n" and word[apostrophe - 2].isalpha():
                return apostrophe - 1, _SUFFIXES["n't"]
            return None
        if apostrophe == 0 or not word[apostrophe - 1].isalpha():
            return None
        if tail == "'s":
            return (apostrophe, " has") if following_word(text, end) in has_before else None
        if tail == "'d" and following_word(text, end) in had_before:
            return apostrophe, " had"
        replacement = _SUFFIXES.get(tail)
        return None if replacement is None else (apostrophe, replacement)

    def near_apostrophes(text: str) -> str:
        """:func:`everywhere` for a text whose every match holds an apostrophe: each match
        lies inside one run of word characters and apostrophes, so only the runs around an
        apostrophe are read. An ASCII run with one apostrophe (nearly all: "I'm", "don't")
        is decided by :func:`one_apostrophe`; any other run is searched with the pattern,
        up to the end of the next word (which the pattern reads ahead). Either way a few
        operations per apostrophe instead of trying the whole alternation at every position
        of the text."""
        size = len(text)
        reverse = None
        out: list[str] = []
        last = 0
        position = text.find("'")
        while position != -1:
            # The space-separated token first: most are the run itself, or the run and a
            # closing comma or full stop ("I'm", "don't,").
            start = text.rfind(" ", 0, position) + 1
            end = text.find(" ", position)
            word = text[start : size if end == -1 else end].rstrip(_CLOSING)
            end = start + len(word)
            if not (word.isascii() and word.count("'") == 1 and word.replace("'", "").isalnum()):
                if reverse is None:
                    reverse = text[::-1]
                start = size - _RUN.match(reverse, size - position).end()
                end = _RUN.match(text, position).end()
                word = text[start:end]
            if word.isascii() and word.count("'") == 1:
                found = one_apostrophe(word, text, end)
                if found is not None:
                    out.append(text[last : start + found[0]])
                    out.append(found[1])
                    last = end
            else:
                following = _NEXT_WORD.match(text, end)
                limit = end if following is None else following.end()
                match = pattern.search(text, start, limit)
                while match is not None and match.start() < end:
                    out.append(text[last : match.start()])
                    out.append(replace(match))
                    last = match.end()
                    match = pattern.search(text, last, limit)
            position = text.find("'", end)
        if not out:
            return text
        out.append(text[last:])
        return "".join(out)

    def run(text: str) -> str:
        if plain_search(text):
            return everywhere(text)  # rare: a listed word with no apostrophe may be here
        if "'" not in text:
            return text
        return near_apostrophes(text)

    run.ungated = everywhere
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
        written = match.group(1)
        if match.group(2).casefold() in _NOT_A_NAME:
            return match.group(0)
        if len(written) > 1 and written.isupper():
            return match.group(0)  # "MR scan", "DR Congo", "LT cable": an acronym, not a title
        return table[written.casefold()]

    def run(text: str) -> str:
        if keys.isdisjoint(lowered_words(text)):
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
        elif keys.isdisjoint(words):
            return text  # nothing to replace: the text itself, not a copy joined again
        if keys.isdisjoint(words):
            return " ".join(words)
        return " ".join([get(word, word) for word in words])

    return run
