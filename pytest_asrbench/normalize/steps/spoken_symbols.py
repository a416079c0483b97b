"""Spoken symbol names in spelled IDs: "A B C dash 1 2 3" = "ABC-123".

Source: the first seed's spoken-symbol rule. A user who reads an ID aloud says the name of
each symbol; the STT writes the symbol. The step is generic and driven only by the config:

- ``[options.spoken_symbols.symbols]`` maps a symbol's spoken name (one or more words, any
  case) to the symbol;
- names listed in ``code_only`` (of ``[options.spoken_symbols]``) are also ordinary words (English "slash",
  Spanish "barra"), so they are replaced only when a neighbour looks like a code.

A replaced name is glued to its two neighbours. When a neighbour is a spelled single letter
or digit, the whole run of spelled letters and digits on that side joins too, so
"A B C dash 1 2 3" gives the same token as the written "ABC-123". A name with no word on
one side, next to another symbol name, or next to a token that ends (or starts) with
punctuation ("$", "%") is left alone: a symbol is only glued between two word characters,
where the ``punctuation`` step keeps it.

"Looks like a code" (next to the spoken name, on either side): made of letters and digits
only, and holds a digit, is a single Latin letter (not lowercase "a" or "i", the article
and the pronoun), or is all capitals ("ABC", "HR", "B12"). Because capitals count, the step must run
before ``lowercase``; because spelled digits count, it runs after the number-word step.
Fillers of the config are skipped when looking for a neighbour ("A B C slash um 1").
Lowercase "a" and "i" (the article and the pronoun) are not taken into a spelled run.
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.steps.basic import is_word_char
from pydantic import Field, field_validator

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.phrases import casefolded_words
from pytest_asrbench.normalize.steps.registry import step

_NOT_IN_RUN = frozenset("ai")


def is_latin_letter(char: str) -> bool:
    return ("a" <= char <= "z") or ("A" <= char <= "Z")


def is_spelled(token: str) -> bool:
    """A single Latin letter (not lowercase a/i) or a single decimal digit."""
    if len(token) != 1:
        return False
    return token.isdecimal() or (is_latin_letter(token) and token not in _NOT_IN_RUN)


def looks_like_code(piece: str) -> bool:
    """Letters and digits only, and: has a digit, is one Latin letter, or is all capitals.

    A token holding other characters ("$5", "7:30", "25%") is not a code: it is money, a
    time or a percentage that other steps wrote.
    """
    if not piece or not piece.isalnum():
        return False
    if any(char.isdecimal() for char in piece):
        return True
    if len(piece) == 1:
        return is_latin_letter(piece) and piece not in _NOT_IN_RUN
    return piece.isupper() and piece.isalpha()


class SpokenSymbolOptions(StepOptions):
    """``[options.spoken_symbols]``: the spoken names of symbols (``symbols``) and the names
    that are also ordinary words (``code_only``: replaced only next to a code)."""

    symbols: dict[str, str] = Field(default_factory=dict, description="Spoken name -> symbol ('dash' = '-').")
    code_only: list[str] = Field(
        default_factory=list, description="Names in `symbols` replaced only next to a code-like token ('slash').")

    @field_validator("code_only")
    @classmethod
    def _code_only_are_symbols(cls, value: list[str], info) -> list[str]:
        symbols = info.data.get("symbols", {})
        missing = [word for word in value if word not in symbols]
        if missing:
            raise ValueError(f"{missing} listed in code_only but not in symbols")
        return value


@step("spoken_symbols", options=SpokenSymbolOptions)
def spoken_symbols(config, lexicons, options: SpokenSymbolOptions):
    """Replace spoken symbol names next to a code by the symbol, joining spelled runs.
    Reads the shared ``fillers`` (skipped inside a spelled run)."""
    if not options.symbols:
        return lambda text: text
    names = {" ".join(name.casefold().split()): symbol for name, symbol in options.symbols.items()}
    code_only = {" ".join(name.casefold().split()) for name in options.code_only}
    name_words = frozenset(word for name in names for word in name.split())
    widths = sorted({len(name.split()) for name in names}, reverse=True)
    fillers = frozenset(word.casefold() for word in config.fillers)
    symbol_chars = "".join(sorted(set("".join(names.values()))))
    split_symbols = re.compile(f"[{re.escape(symbol_chars)}]") if symbol_chars else None
    def edge(token: str, last: bool) -> str:
        """The piece of ``token`` that touches the spoken name (after an earlier glued symbol)."""
        if split_symbols is None:
            return token
        pieces = split_symbols.split(token)
        return pieces[-1] if last else pieces[0]

    def name_at(folded: list[str], index: int) -> tuple[str, int] | None:
        for width in widths:
            candidate = " ".join(folded[index : index + width])
            if candidate in names:
                return candidate, width
        return None

    def run(text: str) -> str:
        if name_words.isdisjoint(casefolded_words(text)):
            return text
        tokens = text.split()
        folded = [token.casefold() for token in tokens]
        out: list[str] = []
        index = 0
        count = len(tokens)
        while index < count:
            found = name_at(folded, index)
            if found is None:
                out.append(tokens[index])
                index += 1
                continue
            name, width = found
            after = index + width
            # Neighbours, skipping fillers on both sides.
            left = len(out) - 1
            while left >= 0 and out[left].casefold() in fillers:
                left -= 1
            right = after
            while right < count and folded[right] in fillers:
                right += 1
            usable = (
                left >= 0
                and right < count
                and out[left].casefold() not in name_words
                and folded[right] not in name_words
                and is_word_char(out[left][-1])
                and is_word_char(tokens[right][0])
            )
            if usable and name in code_only:
                usable = looks_like_code(edge(out[left], last=True)) or looks_like_code(edge(tokens[right], last=False))
            if not usable:
                out.extend(tokens[index:after])
                index = after
                continue
            del out[left + 1 :]  # fillers between the code and the name go with the name
            pieces = [out.pop()]
            if is_spelled(pieces[0]):
                while out and is_spelled(out[-1]):
                    pieces.insert(0, out.pop())
            pieces.append(names[name])
            pieces.append(tokens[right])
            index = right + 1
            if is_spelled(tokens[right]):
                while index < count and is_spelled(tokens[index]):
                    pieces.append(tokens[index])
                    index += 1
            out.append("".join(pieces))
        joined = " ".join(out)
        # The same object when nothing changed: the pipeline then skips a repeated
        # idempotent step (number_formats) after this one.
        return text if joined == text else joined

    return run
