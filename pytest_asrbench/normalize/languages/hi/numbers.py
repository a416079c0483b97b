"""Hindi number steps: Devanagari digits and number words.

Source of every rule: the seed's "Hindi" section (reviewer examples). The tables these
steps read live in ``configs/hi.toml`` and ``configs/hi/*.tsv``; the steps run after
``char_folds``, so each table is folded at build time with the same folds (हज़ार and
हजार, करोड़ and करोड are one word). Spoken symbols (डैश, अंडरस्कोर, स्लैश) use the generic
``spoken_symbols`` step, placed after ``hindi_numbers`` in ``configs/hi.toml``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.steps.basic import folded_table, make_fold
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

# --- helpers shared by the steps -------------------------------------------------------

_DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
# 1,00,000 (Indian grouping) and 100,000: a comma between digits followed by 2 or 3 digits.
_DIGIT_GROUP_COMMA = re.compile(r"(?<=\d),(?=\d{2,3}(?!\d))")


# --- digits ------------------------------------------------------------------------------


@step("hindi_digits", language="hi")
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


@step("hindi_numbers", language="hi")
def hindi_numbers(config, lexicons):
    """Number words become digits: "दो सौ पचास" = 250, "पच्चीस हज़ार" = 25000, "25 हज़ार" = 25000.

    A run of digits alone is left as written (no change of "007"); spelled digits stay
    separate words ("एक दो तीन" = "1 2 3"); in a hyphenated pair of number words each
    part converts ("दो-तीन" = "2-3").
    """
    numbers = build_number_words(config, lexicons, "hindi_numbers")

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
