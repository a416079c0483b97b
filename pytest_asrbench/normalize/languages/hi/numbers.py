"""Hindi number steps: Devanagari digits and number words.

Source of every rule: the original requirements' "Hindi" section (reviewer examples). The tables these
steps read live in ``configs/hi.toml`` and ``configs/hi/*.tsv``; the steps run after
``char_folds``, so each table is folded at build time with the same folds (हज़ार and
हजार, करोड़ and करोड are one word). Spoken symbols (डैश, अंडरस्कोर, स्लैश) use the generic
``spoken_symbols`` step, placed after ``hindi_numbers`` in ``configs/hi.toml``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping

from decimal import Decimal, InvalidOperation

from pydantic import Field

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.basic import folded_table, make_fold
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

# --- helpers shared by the steps -------------------------------------------------------

_DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
# 1,00,000 (Indian grouping) and 100,000: a comma between digits followed by 2 or 3 digits.
_DIGIT_GROUP_COMMA = re.compile(r"(?<=\d),(?=\d{2,3}(?!\d))")


# --- digits ------------------------------------------------------------------------------


@step("hindi_digits", language="hi", before={"punctuation": "25,000 is one number: punctuation would split it"})
def hindi_digits(config, lexicons):
    """Devanagari digits become ASCII digits (७ = 7), and digit-group commas go (1,00,000 = 100000).

    Must run before ``punctuation``, which would otherwise split 25,000 into two words.
    """

    def run(text: str) -> str:
        return _DIGIT_GROUP_COMMA.sub("", text.translate(_DEVANAGARI_DIGITS))

    return run


# --- number words ------------------------------------------------------------------------

# Multipliers of the Indian system. सौ (100) takes a coefficient of 1-99 ("बारह सौ" = 1200);
# the larger ones take anything below themselves and must come in falling order.
HUNDRED = 100
LARGE_MULTIPLIERS = {1_000, 100_000, 10_000_000}


class NumberWords:
    """The number vocabulary of a language (word -> value) and a parser of word runs.

    ``parse(tokens, start)`` reads the longest well-formed number starting at ``start``:
    ``[n करोड़] [n लाख] [n हज़ार] [n सौ] [n]`` with each coefficient below its multiplier.
    Two small numbers in a row are two numbers ("एक दो तीन" is spelled digits 1 2 3).
    """

    def __init__(self, values: Mapping[str, int]):
        self.values = dict(values)

    def value(self, token: str) -> int | None:
        if token.isascii() and token.isdigit():
            return int(token)
        return self.values.get(token)

    def is_number(self, token: str) -> bool:
        return self.value(token) is not None

    def parse(self, tokens: list[str], start: int) -> tuple[int, int] | None:
        """``(value, tokens consumed)`` of the number at ``start``, or ``None``."""
        total = 0
        chunk = 0
        has_chunk = has_small = has_hundred = False
        last_large = None
        index = start
        while index < len(tokens):
            value = self.value(tokens[index])
            if value is None:
                break
            if value == HUNDRED and not tokens[index].isdigit():
                if has_hundred or (has_small and chunk >= 100):
                    break
                chunk = (chunk if has_small else 1) * HUNDRED
                has_chunk = has_hundred = True
                has_small = False
            elif value in LARGE_MULTIPLIERS and not tokens[index].isdigit():
                if last_large is not None and value >= last_large:
                    break
                if has_chunk and chunk >= value:
                    break
                total += (chunk if has_chunk else 1) * value
                chunk = 0
                has_chunk = has_small = has_hundred = False
                last_large = value
            else:
                if has_small or (has_hundred and value >= 100):
                    break
                chunk += value
                has_chunk = has_small = True
            index += 1
        if index == start:
            return None
        return total + chunk, index - start


def build_number_words(config, lexicons, step_name: str) -> NumberWords:
    """The config's ``numbers`` lexicon (word -> integer), folded like the text.

    Raises:
        ConfigError: a value that is not a non-negative integer, or folded keys that clash.
    """
    table = require_lexicon(lexicons, "numbers", step_name)
    fold = make_fold(config.char_folds)
    values = {}
    for word, value in folded_table(table, fold, f"{config.language} numbers lexicon").items():
        if not value.isdigit():
            raise ConfigError(f"{config.language} numbers lexicon: {word!r} maps to {value!r}; expected digits")
        values[word] = int(value)
    return NumberWords(values)


class Fraction:
    """One fractional multiplier of the ``number_fractions`` lexicon.

    ``absolute`` words are a number of their own (डेढ़ = 1.5, ढाई = 2.5); the others add to
    the number that follows them (साढ़े = +0.5, सवा = +0.25, पौने = -0.25).
    """

    def __init__(self, word: str, value: str, what: str):
        try:
            self.amount = Decimal(value)
        except InvalidOperation:
            raise ConfigError(f"{what}: {word!r} maps to {value!r}; expected a number such as 1.5 or +0.25") from None
        self.absolute = value[:1] not in "+-"


def build_fractions(config, lexicons, step_name: str) -> dict[str, Fraction]:
    """The ``number_fractions`` lexicon (word -> 1.5 / +0.5 / -0.25), folded like the text.

    Raises:
        ConfigError: a value that is not a number, or folded keys that clash.
    """
    what = f"{config.language} number_fractions lexicon"
    table = folded_table(require_lexicon(lexicons, "number_fractions", step_name), make_fold(config.char_folds), what)
    return {word: Fraction(word, value, what) for word, value in table.items()}


def _plain(value: Decimal) -> str:
    """150000, 3.5: no exponent, no trailing zeros."""
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


class HindiNumberOptions(StepOptions):
    """``[options.hindi_numbers]``: the words after which a number is a clock time."""

    time_words: list[str] = Field(default_factory=list, description="Words that make the number before them a "
                                                                    "time of day ('बजे': साढ़े तीन बजे = 3:30 बजे).")


@step("hindi_numbers", language="hi", options=HindiNumberOptions,
      before={"spelled_codes": "spelled codes then see digits (A B C सात सात नौ = ABC779)"},
      after={"fillers_any_case": "a filler inside a number (पाँच um सौ) must be gone"})
def hindi_numbers(config, lexicons, options: HindiNumberOptions):
    """Number words become digits: "दो सौ पचास" = 250, "पच्चीस हज़ार" = 25000, "25 हज़ार" = 25000.

    A run of digits alone is left as written (no change of "007"); spelled digits are the
    ``spelled_codes`` step's ("एक दो तीन" = "123", "एक, दो, तीन" = "1 2 3"); in a hyphenated
    pair of number words each part converts ("दो-तीन" = "2-3").

    Fractional multipliers (lexicon ``number_fractions``; source: the original requirements'
    open item "Hindi fractional times"): डेढ़ = 1.5 and ढाई = 2.5 stand alone; साढ़े (+½),
    सवा (+¼) and पौने (-¼) modify the number after them (साढ़े तीन = 3.5, पौने चार = 3.75),
    or 1 when a multiplier follows directly (सवा लाख = 125000, पौने सौ = 75). Then:

    - before a multiplier the fraction scales it: ढाई सौ = 250, डेढ़ लाख = 150000, साढ़े तीन
      हज़ार = 3500, सवा दो सौ = 225;
    - before a word of ``time_words`` (बजे) it is a clock time: साढ़े तीन बजे = "3:30 बजे",
      सवा तीन = 3:15, पौने चार = 3:45, डेढ़ = 1:30, ढाई = 2:30 (a written "3:30 बजे" keeps its
      colon: ``:`` is inner punctuation in hi);
    - elsewhere it is a decimal: साढ़े तीन घंटे = "3.5 घंटे", डेढ़ = 1.5.
    """
    numbers = build_number_words(config, lexicons, "hindi_numbers")
    fractions = build_fractions(config, lexicons, "hindi_numbers")
    fold = make_fold(config.char_folds)
    time_words = frozenset(fold(word) for word in options.time_words)
    multipliers = LARGE_MULTIPLIERS | {HUNDRED}

    def multiplier(token: str) -> int | None:
        value = numbers.value(token)
        return value if value in multipliers and not token.isdigit() else None

    def fraction_at(tokens: list[str], index: int) -> tuple[str, int] | None:
        """The converted fraction phrase at ``index`` and the tokens it used."""
        fraction = fractions.get(tokens[index])
        if fraction is None:
            return None
        after = index + 1
        if fraction.absolute:
            value = fraction.amount
        elif after < len(tokens) and multiplier(tokens[after]):
            value = 1 + fraction.amount
        elif after < len(tokens) and (base := numbers.value(tokens[after])) is not None and 0 < base < HUNDRED:
            value = base + fraction.amount
            after += 1
        else:
            return None
        if after < len(tokens) and (scale := multiplier(tokens[after])):
            return _plain(value * scale), after + 1 - index
        if after < len(tokens) and tokens[after] in time_words:
            hour = int(value)
            return f"{hour}:{int((value - hour) * 60):02d}", after - index
        return _plain(value), after - index

    def convert_hyphenated(token: str) -> str:
        parts = token.split("-")
        if len(parts) > 1 and all(numbers.is_number(part) for part in parts):
            # A part already written in digits stays as written: 555-0123 is not 555-123.
            return "-".join(part if part.isascii() and part.isdigit() else str(numbers.value(part))
                            for part in parts)
        return token

    def run(text: str) -> str:
        tokens = [convert_hyphenated(token) for token in text.split()]
        out = []
        index = 0
        while index < len(tokens):
            if fractions and (found := fraction_at(tokens, index)):
                out.append(found[0])
                index += found[1]
                continue
            parsed = numbers.parse(tokens, index)
            if parsed is None:
                out.append(tokens[index])
                index += 1
                continue
            value, used = parsed
            span = tokens[index : index + used]
            out.append(span[0] if used == 1 and span[0].isdigit() else str(value))
            index += used
        return " ".join(out)

    return run
