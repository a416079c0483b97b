"""Spelled codes: letters and digits said one by one become the code they spell.

Source: issue 15 ("ABC779" vs "A B C seven seven nine" was WER 1.2) and the seed's open
items ("F L" vs "FL", "1 2 3" vs "123"). A run is a sequence of space-separated items, each
a single Latin letter (lowercase "a" and "i" excepted: the article and the pronoun), a
single digit, or a digit word of the language (``[options.spelled_codes] digit_words``,
"seven" = 7). A run of two or more items is joined into one token when it forms a code:

- it mixes letters and digits ("A B C seven seven nine" = "ABC779", "b 12" is not a run:
  "12" is not one item);
- or it is all capital letters ("F L" = "FL", "U S A" = "USA"); lowercase letters alone are
  words, not a code ("f l" stays);
- or it is all digits and at least ``min_digits`` long (3 by default): "one two three" =
  "1 2 3" = "123", a spelled number; two digits stay two numbers ("one two days").

A run longer than ``max_items`` (16: E.164 numbers have at most 15 digits, card numbers
16) is not a code but a repetition (an STT loop "2 2 2 ..."), and stays as words. A digit
word right after one of ``not_after`` (en: "twenty", "hundred", "point" ...) belongs to
that number and never starts a run ("twenty one two three" keeps "twenty one").

A count said with pauses ("one, two, three") is joined too: the step runs after
``punctuation`` (and after the fillers), because a rule that read the commas would not be
idempotent (the normalized text has none, and a second pass would join it). The strict
``xfail`` case ``count-with-commas`` in cases/en/ids.yaml names this. Runs before the
number-word steps; runs next to a spoken symbol are joined by ``spoken_symbols`` too ("A B
dash 1 2").
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.registry import step

_NOT_IN_RUN = frozenset("ai")


class SpelledCodeOptions(StepOptions):
    """``[options.spelled_codes]``: the language's digit words and the run rules."""

    digit_words: dict[str, str] = Field(default_factory=dict, description="Spoken digit -> digit ('seven' = '7').")
    min_digits: int = Field(3, ge=2, description="Shortest digit-only run that is joined.")
    not_after: list[str] = Field(default_factory=list, description="Words after which a digit word is part of a "
                                                                   "number, not a spelled run ('twenty').")
    max_items: int = Field(16, ge=2, description="Longest run that is joined; a longer one is a repetition.")


@step("spelled_codes", idempotent=True, options=SpelledCodeOptions)
def spelled_codes(config, lexicons, options: SpelledCodeOptions):
    """Join runs of spelled letters and digits that form a code (module docstring)."""
    fold = make_fold(config.char_folds)
    digit_words = {fold(word.casefold()): digit for word, digit in options.digit_words.items()}
    not_after = frozenset(fold(word.casefold()) for word in options.not_after)
    # Two items side by side: the only texts the step can change (one C-level search).
    spoken = "".join(f"|{re.escape(word)}" for word in sorted(digit_words, key=len, reverse=True))
    candidate = rf"(?:[0-9A-Za-z]{spoken})"
    pair = re.compile(rf"(?<!\S){candidate}\s+{candidate}(?!\S)", re.IGNORECASE)

    def item(token: str) -> tuple[str, str] | None:
        """(character, 'L' capital letter / 'l' small letter / 'd' digit), or ``None``."""
        if len(token) == 1:
            if "0" <= token <= "9":
                return token, "d"
            if "A" <= token <= "Z":
                return token, "L"
            if "a" <= token <= "z" and token not in _NOT_IN_RUN:
                return token, "l"
            return None
        digit = digit_words.get(fold(token.casefold())) if digit_words else None
        return (digit, "d") if digit is not None else None

    def forms_code(kinds: list[str]) -> bool:
        has_digit = "d" in kinds
        if has_digit and ("L" in kinds or "l" in kinds):
            return True
        if not has_digit:
            return all(kind == "L" for kind in kinds)
        return len(kinds) >= options.min_digits

    def run(text: str) -> str:
        if not pair.search(text):  # after char_folds: the text is folded already
            return text
        tokens = text.split()
        items = [item(token) for token in tokens]
        out: list[str] = []
        index, count = 0, len(tokens)
        changed = False
        while index < count:
            start = index
            if items[start] is None or (start and len(tokens[start]) > 1 and fold(tokens[start - 1].casefold()) in not_after):
                out.append(tokens[index])
                index += 1
                continue
            end = start + 1
            while end < count and items[end] is not None:
                end += 1
            run_items = items[start:end]
            if 2 <= len(run_items) <= options.max_items and forms_code([kind for _, kind in run_items]):
                out.append("".join(char for char, _ in run_items))
                changed = True
            else:
                out.extend(tokens[start:end])
            index = end
        return " ".join(out) if changed else text

    return run
