"""Spelled codes: letters and digits said one by one become the code they spell.

Source: reviewer reports ("ABC779" vs "A B C seven seven nine" was WER 1.2) and the original requirements' open
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
word right before one of ``not_before`` (en: "hundred", "point", "and" ...) belongs to the
number it starts and ends the run before it ("C one hundred" = "C 100", not "C1 100"). (A
rule on the word *before* a run would not be idempotent: "twenty" becomes "20" and a second
pass would join what the first kept apart; "twenty one two three" is "20 123".)

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
from pytest_asrbench.normalize.steps.phrases import trie_pattern
from pytest_asrbench.normalize.steps.registry import step

_NOT_IN_RUN = frozenset("ai")


class SpelledCodeOptions(StepOptions):
    """``[options.spelled_codes]``: the language's digit words and the run rules."""

    digit_words: dict[str, str] = Field(default_factory=dict, description="Spoken digit -> digit ('seven' = '7').")
    min_digits: int = Field(3, ge=2, description="Shortest digit-only run that is joined.")
    not_before: list[str] = Field(default_factory=list, description="Words before which a digit word starts a "
                                                                     "number, not a spelled item ('hundred').")
    max_items: int = Field(16, ge=2, description="Longest run that is joined; a longer one is a repetition.")


@step("spelled_codes", idempotent=True, options=SpelledCodeOptions)
def spelled_codes(config, lexicons, options: SpelledCodeOptions):
    """Join runs of spelled letters and digits that form a code (module docstring)."""
    fold = make_fold(config.char_folds)
    digit_words = {fold(word.casefold()): digit for word, digit in options.digit_words.items()}
    not_before = frozenset(fold(word.casefold()) for word in options.not_before)
    # Two items side by side: the only texts the step can change (one C-level search).
    # The digit words as a trie: the search only asks whether a pair exists, which does not
    # depend on the order of the alternatives.
    spoken = f"|{trie_pattern(sorted(digit_words))}" if digit_words else ""
    candidate = rf"(?:[0-9A-Za-z]{spoken})"
    # (A literal leading space, searched in " " + text: a fast scan; whitespace is spaces
    # here, after unicode_whitespace.)
    pair = re.compile(rf" {candidate} +{candidate}(?!\S)", re.IGNORECASE)
    # The same search without IGNORECASE, over the lowercased text, for ASCII text: there
    # ignoring case is lowercasing (the pattern's letters are lowercase ASCII), and ``re``
    # runs the case-sensitive pattern about twice as fast as a per-word set lookup of the
    # split text. Digit words outside ASCII keep the case-insensitive search.
    lower_candidate = rf"(?:[0-9a-z]{spoken})"
    lower_pair = re.compile(rf" {lower_candidate} +{lower_candidate}(?!\S)")
    ascii_items = all(word.isascii() and word == word.lower() for word in digit_words)

    def may_pair(text: str) -> bool:
        if ascii_items and text.isascii():
            return lower_pair.search(" " + text.lower()) is not None
        return pair.search(" " + text) is not None

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
        if not may_pair(text):  # after char_folds: the text is folded already
            return text
        return join_runs(text)

    def join_runs(text: str) -> str:
        tokens = text.split()
        items = [item(token) for token in tokens]
        for index in range(len(tokens) - 1):
            if items[index] and len(tokens[index]) > 1 and fold(tokens[index + 1].casefold()) in not_before:
                items[index] = None  # "one hundred": the digit word starts a number
        out: list[str] = []
        index, count = 0, len(tokens)
        changed = False
        while index < count:
            start = index
            if items[start] is None:
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

    # The plain gate, for tests: the case-insensitive search on every text.
    run.plain = lambda text: join_runs(text) if pair.search(" " + text) is not None else text
    return run
