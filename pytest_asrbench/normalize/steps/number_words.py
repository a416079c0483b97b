"""Spoken numbers to digits for the languages text2num parses: one generic step, ``spoken_numbers``.

The parsing itself is ``text_to_num.alpha2digit`` (text2num, pinned in pyproject.toml): a
maintained parser with a Rust core that gets each language's number grammar right, the hard
parts included: German and Dutch compounds glued with the unit before the ten
(``zweihundertdreiundvierzig`` = 243, ``eenentwintig`` = 21), French vigesimal forms and
"et un" (``quatre-vingt-dix-sept`` = 97, ``soixante et onze`` = 71), Spanish and Italian
compounds with their accents (``veintitrés`` = 23, ``ventitré`` = 23), ordinals in each
language's written form (de ``3.``, nl ``3e``, fr ``1er`` / ``3ème``, es and it ``1º`` / ``1ª``)
and decimals with the spoken decimal comma (``zwei Komma fünf`` = ``2,5``). It is called
with ``threshold=0``: every number word is converted, small ones included, so ``zwei Kaffee``
and ``2 Kaffee`` meet.

Where this step overrides text2num, and why (each override is data of the language's
``[options.spoken_numbers]`` table, not code):

- ``ambiguous``: number words that are also ordinary words (de ``ein``/``eine``, nl ``een``,
  fr ``un``/``une``, es ``un``/``una``/``uno``, it ``un``/``una``/``uno``; de ``achten``, the
  verb "to pay attention" that text2num reads as the ordinal "eighth"). With threshold 0
  text2num turns ``ein Kaffee`` into ``1 Kaffee``; here such a word becomes a number only in a
  numeric context: next to a number (``ein oder zwei``, ``vingt et un``, ``un millón``), before
  a word or two-word phrase of ``numeric_after`` (a currency, es ``de enero``, ``Uhr``, ``Prozent``, ``Komma``, a month), or after a
  word of ``numeric_before`` (de ``am``, ``zum``: ``am achten März``). Source: issue 13 ("ein
  Kaffee", "een huis", "une femme", "una barra de pan" stay words).
- ``keep``: words text2num misreads and that are never numbers here (it ``centesimi``, which
  text2num reads as the ordinal "hundredth": ``cinquanta centesimi`` gave ``50 100º``).
- scales after digits: text2num multiplies ``zwei Millionen`` (2000000) but leaves
  ``2 Millionen`` as ``2 1000000`` and ``eine Million`` as ``eine 1000000`` (it: ``2 milioni``
  untouched). A number in digits (or an ``ambiguous`` word, read as 1) followed by a million,
  billion or trillion (in digits, or a word of ``scales``) is multiplied out: ``0,2
  Millionen`` = ``200000`` = ``200.000``.
- ``replacements``: whole-word phrases rewritten before parsing: forms text2num does not know
  (de ``zwo`` = ``zwei``, the spoken 2 of phone numbers and times; es ``veintiún`` =
  ``veintiuno``; es ``primer`` = ``primero``, for which text2num writes ``1.ᵉʳ``) and the
  percent phrases it parses as "per hundred" (fr ``pour cent``, es ``por ciento``, it
  ``per cento`` gave ``25 pour 100``), which become ``%``.

Runs after ``punctuation`` and ``collapse_whitespace`` on lowercase, space-separated text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from pydantic import Field
from text_to_num import alpha2digit

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.registry import step

#: The languages ``alpha2digit`` accepts (text2num 3.1.0).
TEXT2NUM_LANGUAGES = ("ca", "da", "de", "en", "es", "fr", "it", "nl", "pt")


class SpokenNumberOptions(StepOptions):
    """``[options.spoken_numbers]``: the language text2num parses and the overrides listed in
    the module docstring (lowercase words; phrases of several words allowed in ``replacements``)."""

    language: str = Field("", description="text2num language code; empty: the config's language.")
    replacements: dict[str, str] = Field(default_factory=dict,
                                         description="Whole-word phrases rewritten before parsing.")
    ambiguous: list[str] = Field(default_factory=list,
                                 description="Number words that are also ordinary words: numbers only in a numeric context.")
    numeric_after: list[str] = Field(default_factory=list,
                                     description="Words (or two-word phrases) after an ambiguous word that make it a number.")
    numeric_before: list[str] = Field(default_factory=list,
                                      description="Words before an ambiguous word that make it a number.")
    joiners: list[str] = Field(default_factory=list,
                               description="Words between two numbers (oder, bis, et): a number across one counts as a neighbour.")
    keep: list[str] = Field(default_factory=list, description="Words never parsed as numbers.")
    scales: dict[str, int] = Field(default_factory=dict,
                                   description="Scale words text2num leaves after digits (it milioni = 1000000).")


def phrase_pattern(phrases: list[str]) -> re.Pattern[str] | None:
    """Whole-word alternation of ``phrases`` (longest first) on space-separated text; ``None``
    when there are none."""
    if not phrases:
        return None
    body = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<!\S)(?:{body})(?!\S)")


#: The scales written in digits that are multiplied into the number before them.
_SCALE_VALUES = ("1000000", "1000000000", "1000000000000")


def _scale_rule(options: SpokenNumberOptions, decimal: str) -> Callable[[str], str]:
    """The "number then scale" multiplication of the module docstring, as a ``str -> str``."""
    scales = {**{value: int(value) for value in _SCALE_VALUES}, **options.scales}
    ones = "|".join(re.escape(word) for word in options.ambiguous)
    number = rf"\d+(?:{re.escape(decimal)}\d+)?" + (f"|{ones}" if ones else "")
    names = "|".join(re.escape(word) for word in sorted(scales, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\S)({number}) ({names})(?!\S)")

    def multiply(match: re.Match) -> str:
        head = match.group(1)
        value = (Decimal(head.replace(decimal, ".")) if head[0].isdigit() else Decimal(1)) * scales[match.group(2)]
        text = format(value.normalize(), "f")
        return text.replace(".", decimal)

    return lambda text: pattern.sub(multiply, text)


class _NumberWords:
    """Which single tokens are numbers for one language (digits, or words text2num converts);
    answers are cached per token, so a corpus pays for each distinct word once."""

    def __init__(self, language: str, extra: frozenset[str] = frozenset()) -> None:
        self.language = language
        self.cache: dict[str, bool] = dict.fromkeys(extra, True)

    def __call__(self, token: str) -> bool:
        known = self.cache.get(token)
        if known is None:
            known = any(char.isdigit() for char in token) or alpha2digit(token, self.language, threshold=0) != token
            self.cache[token] = known
        return known


@dataclass(frozen=True)
class _Context:
    """The option lists that decide a numeric context, as sets."""

    ambiguous: frozenset[str]
    numeric_after: frozenset[str]
    numeric_before: frozenset[str]
    joiners: frozenset[str]

    @classmethod
    def of(cls, options: SpokenNumberOptions) -> _Context:
        return cls(frozenset(options.ambiguous), frozenset(options.numeric_after),
                   frozenset(options.numeric_before), frozenset(options.joiners))


def _numeric_context(tokens: list[str], index: int, is_number: Callable[[str], bool], options: _Context) -> bool:
    """Whether the ambiguous word at ``index`` is a number: see the module docstring."""
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    before = tokens[index - 1] if index > 0 else ""
    if after in options.numeric_after or before in options.numeric_before:
        return True
    if " ".join(tokens[index + 1:index + 3]) in options.numeric_after:  # es "uno de enero"
        return True
    if (after and after not in options.ambiguous and is_number(after)) or (
            before and before not in options.ambiguous and is_number(before)):
        return True
    if after in options.joiners and index + 2 < len(tokens) and is_number(tokens[index + 2]):
        return True
    return before in options.joiners and index >= 2 and is_number(tokens[index - 2])


@step("spoken_numbers", options=SpokenNumberOptions)
def spoken_numbers(config, lexicons, options: SpokenNumberOptions):
    """Number words to digits with text2num, outside the ambiguous words' ordinary uses.

    Input: lowercase text without punctuation. Output: the same text with each number
    written in digits as text2num writes it (``243``, ``2,5``, ``3.`` / ``3e`` / ``1er`` /
    ``1º``). Rule sources and overrides: the module docstring.

    Raises:
        ConfigError: the language is not one text2num parses.
    """
    language = options.language or config.language
    if language not in TEXT2NUM_LANGUAGES:
        raise ConfigError(f"[options.spoken_numbers] language {language!r}: text2num parses only "
                          f"{', '.join(TEXT2NUM_LANGUAGES)}; set `language` to one of them or drop the step")
    replace = phrase_pattern(list(options.replacements))
    context = _Context.of(options)
    ambiguous = context.ambiguous
    keep = frozenset(options.keep)
    is_number = _NumberWords(language, frozenset(options.scales))
    scale = _scale_rule(options, config.decimal_separator)

    def parse(tokens: list[str]) -> str:
        text = " ".join(tokens)
        return scale(alpha2digit(text, language, threshold=0)) if any(map(is_number, tokens)) else text

    def run(text: str) -> str:
        if replace is not None:
            text = replace.sub(lambda m: options.replacements[m.group(0)], text)
        tokens = text.split()
        if not any(map(is_number, tokens)):
            return text
        pieces: list[str] = []
        segment: list[str] = []
        for index, token in enumerate(tokens):
            held = token in keep or (token in ambiguous and not _numeric_context(tokens, index, is_number, context))
            if held:
                if segment:
                    pieces.append(parse(segment))
                    segment = []
                pieces.append(token)
            else:
                segment.append(token)
        if segment:
            pieces.append(parse(segment))
        return " ".join(pieces)

    return run
