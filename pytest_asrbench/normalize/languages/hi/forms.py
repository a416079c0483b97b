"""Hindi written forms of ordinals, decimals and titles: one form for each spoken word.

- ``hindi_ordinals``: an ordinal word and the digit-with-suffix form transcribers write are
  one: पहला = 1ला, दूसरी = 2री, तीसरे = 3रे, चौथा = 4था, छठी = 6ठी, and from five on the
  number word with वाँ / वीं / वें: पाँचवाँ = 5वाँ, दसवीं = 10वीं, बीसवें = 20वें (the
  stems are the number words of ``configs/hi/numbers.tsv``). The digit form is kept (the
  Central Hindi Directorate's standard writes ordinals as a numeral and suffix in figures).
- ``hindi_decimals``: "N दशमलव D D ..." (or पॉइंट / प्वाइंट, the English word) is N.DD...:
  तीन दशमलव पाँच = 3.5, दो दशमलव सात पाँच = 2.75. Runs after ``hindi_numbers``, so the
  words are digits by then; the digits after the word are read one by one, as they are said.
- ``hindi_clock``: "7 बजकर 10 मिनट" (also बजके) is 7:10, the clock form; the minutes 1-59
  and the hour 1-12 after ``hindi_numbers``. "साढ़े सात बजे" = "7:30 बजे" is the
  ``hindi_numbers`` step's (number_fractions.tsv).
- ``hindi_titles``: an abbreviated title before a name is the title word (table
  ``titles``, ``configs/hi/titles.tsv``): डॉ. शर्मा = डॉक्टर शर्मा, प्रो. वर्मा =
  प्रोफेसर वर्मा. Runs before ``punctuation`` (it reads the dot). An abbreviation that is
  also a word prefix in running text (प्रो, कु, स्व) needs its dot; डॉ, which is no word
  of its own, does not.
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.steps.basic import folded_table, make_fold
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

# The ordinals that are words of their own (1-4 and 6), by gender/number ending.
_IRREGULAR = {
    "पहला": "1ला", "पहली": "1ली", "पहले": "1ले",
    "दूसरा": "2रा", "दूसरी": "2री", "दूसरे": "2रे",
    "तीसरा": "3रा", "तीसरी": "3री", "तीसरे": "3रे",
    "चौथा": "4था", "चौथी": "4थी", "चौथे": "4थे",
    "छठा": "6ठा", "छठी": "6ठी", "छठे": "6ठे",
}
_SUFFIXES = ("वां", "वीं", "वें", "वाँ", "वें")
_DECIMAL_WORDS = "दशमलव|पॉइंट|प्वाइंट|पोइंट"
_DECIMAL = re.compile(rf"(?<!\S)(\d+) (?:{_DECIMAL_WORDS})((?: \d)+|(?: \d+))(?!\S)")


@step("hindi_ordinals", language="hi")
def hindi_ordinals(config, lexicons):
    """Ordinal words to digits with their suffix (पहला = 1ला, पाँचवाँ = 5वाँ); see the module docstring."""
    fold = make_fold(config.char_folds)
    numbers = folded_table(require_lexicon(lexicons, "numbers", "hindi_ordinals"), fold, "numbers")
    table = {fold(word): digits for word, digits in _IRREGULAR.items()}
    suffixes = sorted({fold(suffix) for suffix in _SUFFIXES}, key=len, reverse=True)
    for stem, value in numbers.items():
        if not value.isdigit() or int(value) < 5 or " " in stem:
            continue
        for suffix in suffixes:
            table.setdefault(stem + suffix, value + suffix)
    # The digit form as written ("5वाँ") is folded like the text ("5वां"), so it needs no rule.
    keys = frozenset(table)

    def run(text: str) -> str:
        words = text.split(" ")
        if keys.isdisjoint(words):
            return text
        return " ".join(table.get(word, word) for word in words)

    return run


@step("hindi_decimals", language="hi")
def hindi_decimals(config, lexicons):
    """"3 दशमलव 5" = 3.5, "2 दशमलव 7 5" = 2.75 (after ``hindi_numbers``); see the module docstring."""

    def replace(match: re.Match) -> str:
        return f"{match[1]}.{match[2].replace(' ', '')}"

    def run(text: str) -> str:
        if "दशमलव" not in text and "इंट" not in text:
            return text
        return _DECIMAL.sub(replace, text)

    return run


_CLOCK = re.compile(r"(?<!\S)(1[0-2]|[1-9]) (?:बजकर|बजके) ([1-5]?\d) मिनट(?!\S)")


@step("hindi_clock", language="hi")
def hindi_clock(config, lexicons):
    """"7 बजकर 10 मिनट" = 7:10 (after ``hindi_numbers``); see the module docstring."""

    def replace(match: re.Match) -> str:
        return f"{match[1]}:{int(match[2]):02d}"

    def run(text: str) -> str:
        if "बज" not in text:
            return text
        return _CLOCK.sub(replace, text)

    return run


@step("hindi_titles", language="hi")
def hindi_titles(config, lexicons):
    """Abbreviated titles before a word to the title word (डॉ. शर्मा = डॉक्टर शर्मा); see the module docstring.

    The ``titles`` lexicon maps an abbreviation, written with its dot when the dot is
    required (``प्रो.``) or without when it is optional (``डॉ``), to the title word.
    """
    table = require_lexicon(lexicons, "titles", "hindi_titles")
    optional = {key: value for key, value in table.items() if not key.endswith(".")}
    dotted = {key[:-1]: value for key, value in table.items() if key.endswith(".")}
    names = sorted({*optional, *dotted}, key=len, reverse=True)
    # The abbreviation, then its dot (a space may follow) or a space, then a Devanagari word.
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?:(\.) ?| )(?=[\u0900-\u097F])")

    def replace(match: re.Match) -> str:
        abbreviation, dot = match[1], match[2]
        if abbreviation in optional:
            return optional[abbreviation] + " "
        if dot:
            return dotted[abbreviation] + " "
        return match[0]

    def run(text: str) -> str:
        if not any(name in text for name in names):
            return text
        return pattern.sub(replace, text)

    return run
