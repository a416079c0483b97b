"""Generic word-shape steps: open hyphenated words, undotted abbreviations, any-case fillers.

- ``split_hyphens``: "well-known" = "well known" (the open form, which STT writes as often
  as the hyphenated one). A hyphen between two digits stays (``1995-04-18``, ``555-1234``,
  ``10-20``): there it is part of a date, a phone number or a range. Everywhere else it
  becomes a space, also next to a single digit side, so "5-year-old" = "5 year old" and
  "ABC-123" = "ABC 123". Languages that close compounds instead (German) use
  ``hyphen_compounds``.
- ``dotted_abbreviations``: "U.S.A." = "USA", "p.m." = "pm", "e.g." = "eg". A run of two or
  more single letters each followed by a dot loses its dots (the last dot may be missing).
- ``fillers_any_case``: the config's ``fillers`` as whole words, whatever their case ("Um",
  "UM") and with punctuation next to them ("euh," "(äh)"), so that the step can run before case-sensitive steps and before the number
  steps (a filler between two number words must not block "seven um thirty" = "7:30").
  A filler is matched as written and folded with the shared ``char_folds`` ("äh" and
  "aeh"), so the step may run before or after ``char_folds``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.phrases import substring_search
from pytest_asrbench.normalize.steps.registry import step

# A hyphen with a letter (any script) or a combining mark on at least one side; a hyphen
# between two digits never matches.
# (The hyphen first, its neighbours looked at after it: a pattern that starts with a literal is
# scanned in C from one hyphen to the next instead of tried at every position.)
_SPLIT_HYPHEN = re.compile(r"-(?:(?<=[^\W\d_]-)(?=\w)|(?<=\w-)(?=[^\W\d_]))")
_DOTTED = re.compile(r"(?<![\w.])(?:[^\W\d_]\.){1,}[^\W\d_]\.?(?![\w])")
# Every match of _DOTTED holds a letter, a dot and a letter: the cheap test first (scanned from dot to dot).
_LETTER_DOT_LETTER = re.compile(r"\.(?<=[^\W\d_]\.)[^\W\d_]")


#: The word characters (``\w``) that the case fold of a character that is none starts or ends
#: with: U+0345 COMBINING GREEK YPOGEGRAMMENI folds to U+03B9 GREEK SMALL LETTER IOTA, the only
#: one (tests/test_word_step_gates.py checks every code point). Source: Unicode CaseFolding.txt.
FOLDS_TO_WORD_CHARACTER = "\u03b9"


@step("split_hyphens", idempotent=True,
      after={"hyphen_compounds": "it splits the hyphens hyphen_compounds leaves (next to a number, reduplications)"})
def split_hyphens(config, lexicons):
    """A hyphen inside a word becomes a space, except between two digits."""

    def run(text: str) -> str:
        if "-" not in text:
            return text
        return _SPLIT_HYPHEN.sub(" ", text)

    return run


@step("dotted_abbreviations", before={"punctuation": "it reads the dots of p.m. and U.S.A."})
def dotted_abbreviations(config, lexicons):
    """Drop the dots of a dotted single-letter abbreviation: "U.S.A." -> "USA", "p.m." -> "pm"."""

    def run(text: str) -> str:
        if "." not in text or _LETTER_DOT_LETTER.search(text) is None:
            return text
        return _DOTTED.sub(lambda match: match.group(0).replace(".", ""), text)

    return run


@step("fillers_any_case")
def fillers_any_case(config, lexicons):
    """Remove the config's fillers as whole words, ignoring case ("Um", "um" and "UM"); a
    hyphenated chain of fillers is one word, written closed ("hm-hm" = "hmhm")."""
    present, remove = filler_rules(config)
    if present is None:
        return remove
    # Every match of ``present`` holds a filler as a substring of the case-folded text: a few
    # substring tests first, which most texts fail (a filler is rarely a piece of a word, "hm"
    # in German or "ehm" in Italian; English "er" and "um" are, and cost only these tests).
    any_filler = substring_search(filler_forms(config))

    def run(text: str) -> str:
        low = text.casefold()
        return text if not any_filler(low) or present(low) is None else remove(text)

    run.ungated = lambda text: text if present(text.casefold()) is None else remove(text)
    return run


def filler_forms(config) -> set[str]:
    """The config's fillers as matched: each casefolded, and also folded with ``char_folds``."""
    fold = make_fold(config.char_folds)
    return {form for word in config.fillers for form in (word.casefold(), fold(word.casefold()))}


def filler_rules(config) -> tuple[Callable[[str], re.Match | None] | None, Callable[[str], str]]:
    """``(present, remove)`` of ``fillers_any_case``: ``remove`` applies the rules to any text;
    ``present`` searches the case-folded text for what every text ``remove`` changes holds (a
    filler with no word character before it), ``None`` when the config has no fillers."""
    words = sorted(filler_forms(config), key=len, reverse=True)
    if not words:
        return None, lambda text: text
    # A whole word: no letter or digit touching it, nor an apostrophe or hyphen that joins it
    # to one ("um," "(euh)" and a cut-off "uh-" are fillers; "umbrella", "hm-hm" and "l'euh"
    # are not). A dangling hyphen must not save it: punctuation removes that hyphen later, and
    # a second normalization would then remove the filler (idempotence).
    body = "|".join(re.escape(word) for word in words)
    pattern = re.compile(rf"(?<!\w)(?<!\w['’-])(?:{body})(?!\w)(?!['’-]\w)", re.IGNORECASE)
    # A hyphenated chain of fillers is a word ("hm-hm", yes; nl "uh-uh", no), written closed
    # ("hmhm"): left hyphenated, split_hyphens would make it "hm hm", two fillers that a
    # second normalization removes (idempotence).
    chain = re.compile(rf"(?<!\w)(?<!\w['’-])(?:{body})(?:-(?:{body}))+(?!\w)(?!['’-]\w)", re.IGNORECASE)
    # The cheap test first, on the case-folded text: a filler with no word character before it,
    # ``(?<!\w)(?:body)`` spelled with each word's lookbehind after the word, so that the
    # pattern starts with letters and is scanned in C from one first letter of a filler to the
    # next; and none after it (what ends the word in both rules above: "heure" holds no "heu").
    # A character that is no word character stays none when case-folded, but for U+0345,
    # which folds to the letter U+03B9 (:data:`FOLDS_TO_WORD_CHARACTER`): that letter may
    # stand on either side.
    word_char = rf"[^\W{FOLDS_TO_WORD_CHARACTER}]"
    present = re.compile("|".join(rf"{re.escape(word)}(?<!{word_char}{re.escape(word)})(?!{word_char})"
                                  for word in words)).search

    def remove(text: str) -> str:
        if "-" in text:
            text = chain.sub(lambda match: match.group(0).replace("-", ""), text)
        text, count = pattern.subn(" ", text)
        # Re-collapse only when a filler went, so the next steps see single spaces.
        return " ".join(text.split()) if count else text

    return present, remove
