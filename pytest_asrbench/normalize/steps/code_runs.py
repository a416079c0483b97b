"""Spelled runs in a code context: "mon code est F L" = "mon code est FL" (the ``code_context_runs`` step).

Source: the first seed's "Not in this PR" (two-letter spelled runs "F L" vs "FL", spaced
digit runs "1 2 3" vs "123"), done for de, nl, fr, es, it with the seed's care: only in a
code or address context, never in ordinary sentences. ``spelled_code_runs`` already joins a
run of three or more single capitals and digits holding both (``M 4 B``); this step joins
the runs it leaves, and only after a word that announces a code:

- the context: one of ``code_words`` of ``[options.code_context_runs]`` (fr ``code``,
  ``numéro``, ``plaque``; de ``Kennzeichen``, ``PIN``; es ``código``, ``matrícula``; it
  ``codice``, ``targa``; nl ``kenteken``), or a longer word that ends in one of
  ``code_suffixes`` (de ``Kundennummer``, ``Zugangscode``), stands at most ``window`` words
  before the run's first item;
- the run: two or more items side by side, each a single capital Latin letter or a number
  in digits (spoken digits are digits by then: ``spoken_numbers`` runs first), with no
  punctuation inside; it becomes one token: ``Kennzeichen M A`` = ``Kennzeichen MA``,
  ``le code un deux trois`` = ``le code 123``, ``Telefonnummer 089 1234`` =
  ``Telefonnummer 0891234`` (a phone number said in groups meets its written form).

Outside that context nothing changes: ``j'ai compté 1 2 3`` keeps three numbers and ``F L``
two letters (cases ``codes-*-outside-code``). Compared case-folded and with the language's
``char_folds``. Runs after ``spoken_numbers`` and before ``lowercase`` (capitals tell a
spelled letter from a word).
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.registry import step

# The trigger: two items side by side after a whitespace character (the pipeline searches it
# inline, without a call of the step). A run the step joins follows a code word, so its first
# item has whitespace before it; a pair at the very start of a text, which this misses, is
# never joined. Led by the whitespace: ``re`` scans for it in C instead of trying a lookbehind
# at every position.
_PAIR = re.compile(r"\s(?:[A-Z]|\d+)\s+(?:[A-Z]|\d+)(?!\S)")


def _item(token: str) -> bool:
    """A single capital Latin letter or a number in digits."""
    return ("A" <= token <= "Z" and len(token) == 1) or token.isdecimal()


class CodeContextOptions(StepOptions):
    """``[options.code_context_runs]``: the words that open a code context (as the language
    spells them; compared case-folded and folded)."""

    code_words: list[str] = Field(default_factory=list, description="Words that announce a code (code, numéro).")
    code_suffixes: list[str] = Field(default_factory=list,
                                     description="Word endings that announce a code (de 'nummer': Kundennummer).")
    window: int = Field(3, ge=1, le=5, description="How many words before the run the code word may stand.")


@step("code_context_runs", idempotent=True, options=CodeContextOptions)
def code_context_runs(config, lexicons, options: CodeContextOptions):
    """Join a run of capitals and numbers after a code word (module docstring).

    Input: space-separated text after ``spoken_numbers``, before ``lowercase``. Output: the
    same text with each such run one token; with no ``code_words`` nor ``code_suffixes`` the
    step does nothing.
    """
    fold = make_fold(config.char_folds)
    code_words = frozenset(fold(word.casefold()) for word in options.code_words)
    suffixes = tuple(fold(word.casefold()) for word in options.code_suffixes)
    if not code_words and not suffixes:
        return lambda text: text

    shortest = min(map(len, suffixes)) if suffixes else 0

    def is_code_word(word: str) -> bool:
        """``word`` (case-folded and folded) announces a code."""
        return word in code_words or (bool(suffixes) and len(word) > shortest and word.endswith(suffixes))

    def run(text: str) -> str:
        folded = fold(text.casefold()).split()  # one fold for the text, not one per word
        if code_words.isdisjoint(folded) and not (suffixes and any(map(is_code_word, folded))):
            return text
        tokens = text.split()
        if len(folded) != len(tokens):  # a fold that changed the word count: fold word by word
            folded = [fold(token.casefold()) for token in tokens]
        out: list[str] = []
        index, count = 0, len(tokens)
        changed = False
        while index < count:
            end = index
            while end < count and _item(tokens[end]):
                end += 1
            if end - index >= 2 and any(map(is_code_word, folded[max(0, index - options.window):index])):
                out.append("".join(tokens[index:end]))
                index, changed = end, True
            elif end > index:
                out.extend(tokens[index:end])
                index = end
            else:
                out.append(tokens[index])
                index += 1
        return " ".join(out) if changed else text

    return triggered(_PAIR, run)
