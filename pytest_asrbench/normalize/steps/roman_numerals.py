"""Roman numerals of centuries and regnal numbers, read as they are said.

Style guides write centuries and the numbers of kings and popes in capital Roman numerals
(Lexique des règles typographiques: ``le XIXe siècle``, ``Louis XIV``; RAE, Ortografía 2010,
"números romanos": ``el siglo XIX``, ``Felipe II``; Treccani, "numeri romani": ``il XIX
secolo``, ``Luigi XIV``), and a speaker reads them as an ordinal or a cardinal by the
language's rule: fr ``dix-neuvième siècle`` but ``Louis quatorze`` (``premier`` for 1); es
``siglo diecinueve``, ``Felipe segundo`` up to ten and ``Alfonso trece`` above; it
``diciannovesimo secolo`` and ``Luigi quattordicesimo``. The step writes the numeral as the
number-word steps write what is said, so both sides meet.

A numeral is read only in those contexts, never alone: right before a century word
(``after_words``: fr ``siècle``, it ``secolo``), right after one (``before_words``: es
``siglo``), or right after a regnal name of ``names`` (``Louis``, ``Felipe``, ``Papa``...
as written, capitalised). Only the capitals I, V and X, a well-formed numeral from 1 to 39,
as a whole word (with one of the language's ordinal ``suffixes`` glued to it, fr ``XIXe``,
``Ier``): a lone ``C``, ``M``, ``D`` or ``L`` is never a number, and neither is a lowercase
``mi``, ``di`` or ``vi``, nor ``I`` or ``V`` anywhere else (``Vitamin C``, ``I am``).

The value is written with ``century_format`` or ``regnal_format`` (``{n}``: the number), or
as the word of ``century_words`` / ``regnal_words`` for that value when there is one (fr
``1 = "1er"``; es ``2 = "segundo"``, the ordinal the speaker says, which ``spoken_numbers``
then reads as it reads the spoken one). Input: text with its capitals, before
``written_ordinals`` and ``spoken_numbers``; output: the same text with those numerals
written out.
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.number_words import folded
from pytest_asrbench.normalize.steps.registry import step

# 1-39, only I, V and X, well formed (IV not IIII, IX not VIIII); the lookahead keeps it non-empty.
_NUMERAL = r"(?=[IVX])(X{0,3}(?:IX|IV|V?I{0,3}))"
_VALUES = {"I": 1, "V": 5, "X": 10}
_MAY_HOLD_A_NUMERAL = re.compile(r"(?<![\w'])[IVX]")


def roman_value(numeral: str) -> int:
    """The value of a well-formed numeral of I, V and X (``XIV`` = 14). Raises ``KeyError``
    on another letter."""
    total = 0
    for index, letter in enumerate(numeral):
        value = _VALUES[letter]
        following = _VALUES[numeral[index + 1]] if index + 1 < len(numeral) else 0
        total += -value if value < following else value
    return total


def _alternation(words) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


class RomanNumeralOptions(StepOptions):
    """``[options.roman_numerals]``: the contexts of a Roman numeral and how its value is said."""

    after_words: list[str] = Field(default_factory=list,
                                   description="Century words a numeral stands right before (fr 'siècle', it 'secolo').")
    before_words: list[str] = Field(default_factory=list,
                                    description="Century words a numeral stands right after (es 'siglo').")
    names: list[str] = Field(default_factory=list,
                             description="Regnal names a numeral stands right after, as written ('Louis', 'Felipe').")
    suffixes: list[str] = Field(default_factory=list,
                                description="Ordinal suffixes glued to a numeral, dropped (fr 'e', 'ème', 'er').")
    century_format: str = Field("{n}", description="A century's value as said, '{n}' the number (fr '{n}ème').")
    regnal_format: str = Field("{n}", description="A regnal number as said (it '{n}º').")
    century_words: dict[int, str] = Field(default_factory=dict,
                                          description="Value -> its form as said, before the format (fr 1 = '1er').")
    regnal_words: dict[int, str] = Field(default_factory=dict,
                                         description="Value -> its form as said (es 2 = 'segundo').")


@step("roman_numerals", options=RomanNumeralOptions, idempotent=True,
      before={"written_ordinals": "it writes fr 19e for XIXe, which written_ordinals reads",
              "spoken_numbers": "es regnal numbers are written as the ordinal words the speaker says",
              "lowercase": "a numeral is told by its capitals"},
      after={"char_folds": "the names and words are compared as the folded text spells them"})
def roman_numerals(config, lexicons, options: RomanNumeralOptions):
    """Centuries and regnal numbers in Roman numerals -> their value as said (module docstring)."""
    if not (options.after_words or options.before_words) and not options.names:
        return lambda text: text
    suffix = rf"(?:{_alternation(options.suffixes)})?" if options.suffixes else ""
    numeral = rf"{_NUMERAL}{suffix}(?![\w'])"
    rules: list[tuple[re.Pattern[str], str]] = []
    if options.after_words:
        words = _alternation(folded(options.after_words, config))
        rules.append((re.compile(rf"(?<![\w'-]){numeral}(?= (?i:{words})(?!\w))"), "century"))
    if options.before_words:
        words = _alternation(folded(options.before_words, config))
        rules.append((re.compile(rf"(?<![\w'-])((?i:{words}) ){numeral}"), "century"))
    if options.names:
        rules.append((re.compile(rf"(?<![\w'-])((?:{_alternation(folded(options.names, config))}) ){numeral}"),
                      "regnal"))
    formats = {"century": (options.century_format, options.century_words),
               "regnal": (options.regnal_format, options.regnal_words)}

    def rewrite(kind: str):
        form, words = formats[kind]

        def replace(match: re.Match) -> str:
            prefix = match.group(1) if match.re.groups == 2 else ""
            value = roman_value(match.group(match.re.groups))
            return prefix + words.get(value, form.format(n=value))

        return replace

    compiled = [(pattern, rewrite(kind)) for pattern, kind in rules]

    def run(text: str) -> str:
        for pattern, replace in compiled:
            text = pattern.sub(replace, text)
        return text

    return triggered(_MAY_HOLD_A_NUMERAL, run)
