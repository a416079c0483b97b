"""English fractions: "two thirds" = "2/3", "one and three quarters" = "1 3/4", "½" = "1/2".

Runs after ``number_words`` and the first ``number_formats`` (which have turned "two
thirds" into "2 thirds", "one fifth" into "1 5th" and "two and a half" into "2.5"). One
written form per spoken fraction, the slash form of style guides (The Chicago Manual of
Style 9.15-9.16, fractions spelled out or written 2/3; AP: "2 1/2"):

- numerator and denominator: "2 thirds" -> "2/3", "1 5th" / "one fifth" -> "1/5",
  "1 half" -> "1/2"; a plural denominator needs a numerator of 2 or more, a singular one
  the numerator 1;
- "a third of", "a fifth of" (the article as numerator, only before "of": "a third
  option" is another option) -> "1/3 of";
- whole and fraction: "2 and 3/4" -> "2 3/4"; "2 1/2" -> "2.5", the form ``number_words``
  gives "two and a half";
- vulgar fraction characters: "⅔" -> "2/3", "1½" -> "1.5".

Left alone on purpose (ambiguous; each has a case in ``cases/en/fractions.yaml``):
"second(s)" (a unit of time), "quarter(s)" other than before "of" ("two quarters" are coins
or terms, "a quarter past" is a time), "half" without a numerator ("half the team",
"a half"), and "a" before a denominator without "of".
"""

from __future__ import annotations

import re
import unicodedata

from pytest_asrbench.normalize.steps.phrases import trie_pattern
from pytest_asrbench.normalize.steps.registry import step

#: Denominator words (singular, plural) for 2..20, 32, 64, 100 ("second" is left out: time).
DENOMINATORS: dict[int, tuple[str, str]] = {
    2: ("half", "halves"), 3: ("third", "thirds"), 4: ("fourth", "fourths"), 5: ("fifth", "fifths"),
    6: ("sixth", "sixths"), 7: ("seventh", "sevenths"), 8: ("eighth", "eighths"), 9: ("ninth", "ninths"),
    10: ("tenth", "tenths"), 11: ("eleventh", "elevenths"), 12: ("twelfth", "twelfths"),
    16: ("sixteenth", "sixteenths"), 20: ("twentieth", "twentieths"), 32: ("thirty-second", "thirty-seconds"),
    64: ("sixty-fourth", "sixty-fourths"), 100: ("hundredth", "hundredths"),
}
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def _digit_ordinal(number: int) -> str:
    suffix = "th" if 11 <= number % 100 <= 13 else _SUFFIX.get(number % 10, "th")
    return f"{number}{suffix}"


_SINGULAR: dict[str, int] = {}
_PLURAL: dict[str, int] = {}
for _value, (_one, _many) in DENOMINATORS.items():
    _SINGULAR[_one] = _value
    _PLURAL[_many] = _value
    if _value > 2:
        _SINGULAR[_digit_ordinal(_value)] = _value
        _PLURAL[_digit_ordinal(_value) + "s"] = _value
_QUARTER = {"quarter": 4, "quarters": 4}

_WORDS = "|".join(sorted([*_SINGULAR, *_PLURAL, *_QUARTER], key=len, reverse=True))
_NUMERATOR = re.compile(rf"(?<![\w./:])(\d+) ({_WORDS})(?![\w'])( of(?![\w']))?", re.IGNORECASE)
_ARTICLE = re.compile(rf"(?<![\w'])a ({_WORDS}) of(?![\w'])", re.IGNORECASE)
_WHOLE_AND = re.compile(r"(?<![\w./:])(\d+) and (\d+/\d+)(?![\w/])")
_WHOLE_HALF = re.compile(r"(?<![\w./:])(\d+) 1/2(?![\w/])")
_VULGAR = re.compile(r"(\d?)([\u00bc-\u00be\u2150-\u215e])")
# The step can change a text only if it holds a digit, a vulgar fraction or " of".
_MAY_CHANGE = re.compile(r"[\d\u00bc-\u00be\u2150-\u215e]| of(?![\w'])")
# ASCII text has no vulgar fraction: it can change only with a "/" (the whole-and rules) or a
# denominator word after a space (the numerator and article rules both have one). Searched in
# the lowercased text (for ASCII, ignoring case is lowercasing): a literal space first, which
# ``re`` scans for in C, is several times faster than the case-insensitive trie.
_DENOMINATOR_TRIE = trie_pattern(sorted({word.lower() for word in _WORDS.split("|")}))
_SPACED_DENOMINATOR = re.compile(f" (?:{_DENOMINATOR_TRIE})")
# A text that has one (most often a date: "March 3rd") changes only with a number right
# before the denominator (the numerator rule) or "a <denominator> of" (the article rule).
_NUMBER_DENOMINATOR = re.compile(rf"\d (?:{_DENOMINATOR_TRIE})")
_ARTICLE_DENOMINATOR = re.compile(f"a (?:{_DENOMINATOR_TRIE}) of")


def _vulgar(match: re.Match) -> str:
    fraction = unicodedata.normalize("NFKC", match[2]).replace("\u2044", "/")
    return f"{match[1]} {fraction}" if match[1] else fraction


def _numerator(match: re.Match) -> str:
    count, word, of = int(match[1]), match[2].lower(), match[3]
    if word in _QUARTER:
        if not of or (count == 1) != (word == "quarter"):
            return match[0]
        return f"{count}/4{of}"
    if word in _SINGULAR:
        if count != 1:
            return match[0]
        return f"1/{_SINGULAR[word]}{of or ''}"
    if count < 2:
        return match[0]
    return f"{count}/{_PLURAL[word]}{of or ''}"


def _article(match: re.Match) -> str:
    word = match[1].lower()
    value = _SINGULAR.get(word) or (_QUARTER[word] if word == "quarter" else None)
    if value is None or value == 2:  # "a half of" is not how English says it
        return match[0]
    return f"1/{value} of"


@step("english_fractions", idempotent=True, language="en")
def fractions(config, lexicons):
    """Spoken and written fractions to one slash form (see the module docstring for the rules)."""

    def run(text: str) -> str:
        if text.isascii() and "/" not in text:
            lower = text.lower()
            if _SPACED_DENOMINATOR.search(lower) is None or (
                    _NUMBER_DENOMINATOR.search(lower) is None
                    and (" of" not in lower or _ARTICLE_DENOMINATOR.search(lower) is None)):
                return text
        return rules(text)

    def rules(text: str) -> str:
        """Every rule, with no gate but the one on digits, vulgar fractions and " of"."""
        if not _MAY_CHANGE.search(text):
            return text
        out = _VULGAR.sub(_vulgar, text)
        out = _NUMERATOR.sub(_numerator, out)
        out = _ARTICLE.sub(_article, out)
        if "/" in out:
            out = _WHOLE_AND.sub(lambda match: f"{match[1]} {match[2]}", out)
            out = _WHOLE_HALF.sub(lambda match: f"{match[1]}.5", out)
        return text if out == text else out

    run.plain = rules  # for tests: the rules without the ASCII gates
    return run
