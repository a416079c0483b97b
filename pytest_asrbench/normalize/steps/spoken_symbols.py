"""Spoken symbol names in spelled IDs: "A B C dash 1 2 3" = "ABC-123".

Source: the original requirements' spoken-symbol rule. A user who reads an ID aloud says the name of
each symbol; the STT writes the symbol. The step is generic and driven only by the config:

- ``[options.spoken_symbols.symbols]`` maps a symbol's spoken name (one or more words, any
  case) to the symbol;
- names listed in ``code_only`` (of ``[options.spoken_symbols]``) are also ordinary words (English "slash",
  Spanish "barra"), so they are replaced only next to a code: a neighbour that looks like a
  code and holds a letter ("HR slash payroll" = "HR/payroll"), or two neighbours that look
  like codes ("A Strich 5" = "A-5", "12 slash 5"). A bare number on one side only is a count,
  not a code ("1 barra de pan", a loaf of bread, stays).

A replaced name is glued to its two neighbours. When a neighbour is a spelled single letter
or digit, the whole run of spelled letters and digits on that side joins too, so
"A B C dash 1 2 3" gives the same token as the written "ABC-123". A name with no word on
one side, next to another symbol name, or next to a token that ends (or starts) with
punctuation ("$", "%") is left alone: a symbol is only glued between two word characters,
where the ``punctuation`` step keeps it.

"Looks like a code" (next to the spoken name): made of letters and digits
only, and holds a digit, is a single Latin letter (not lowercase "a" or "i", the article
and the pronoun), or is all capitals ("ABC", "HR", "B12"). Because capitals count, the step must run
before ``lowercase``; because spelled digits count, it runs after the number-word step.
Fillers of the config are skipped when looking for a neighbour ("A B C slash um 1").
Lowercase "a" and "i" (the article and the pronoun) are not taken into a spelled run.
Names, fillers and words are compared case-folded and folded with the shared ``char_folds``,
so a name is written in its usual spelling ("Schrägstrich", "trait d'union") and still
matches whether or not the ``char_folds`` step ran before ("Schraegstrich", "trait d’union").

A second generic step here, ``spelled_code_runs``, joins a spoken code with no symbol in
it: a run of three or more single capital Latin letters and single digits that holds at
least one of each ("M 4 B" = "M4B", the French seed example). A run of letters only
("F L") or digits only ("1 2 3": a list, a phone number read in groups) is left alone, as
the original requirements leave them, and so are lowercase letters (French "y a", Spanish "y", Italian "a").
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from pytest_asrbench.normalize.steps.basic import is_word_char, make_fold

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.phrases import casefolded_text, casefolded_words, substring_search
from pytest_asrbench.normalize.steps.registry import step

_NOT_IN_RUN = frozenset("ai")


def _code_neighbours(left: str, right: str) -> bool:
    """Whether a ``code_only`` name between ``left`` and ``right`` names a symbol (module
    docstring): a code with a letter on one side, or codes on both sides."""
    left_code, right_code = looks_like_code(left), looks_like_code(right)
    return (left_code and right_code) or (left_code and not left.isdecimal()) or (right_code and not right.isdecimal())


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


@step("spoken_symbols", options=SpokenSymbolOptions,
      after={"punctuation": "it reads words without their punctuation: no later step makes a new neighbour"})
def spoken_symbols(config, lexicons, options: SpokenSymbolOptions):
    """Replace spoken symbol names next to a code by the symbol, joining spelled runs.
    Reads the shared ``fillers`` (skipped inside a spelled run).

    Raises:
        ConfigError: ``code_only`` names are given and the config's step list lowercases
            before this step: a ``code_only`` name is replaced only next to a code, and capitals
            (``KT dash 45``) are what tell a code from a word. A language without ``code_only``
            names (Japanese: its symbol names stand as chunks of their own) may list it later.
    """
    if not options.symbols:
        return lambda text: text
    steps = list(config.steps)
    if options.code_only and "lowercase" in steps and steps.index("lowercase") < steps.index("spoken_symbols"):
        from pytest_asrbench.errors import ConfigError

        raise ConfigError(
            f"{config.language}: step 'spoken_symbols' (position {steps.index('spoken_symbols') + 1}) must run before "
            f"'lowercase' (position {steps.index('lowercase') + 1}) when [options.spoken_symbols] names code_only "
            "words: capitals tell a spelled code (A B C dash 1 2 3) from words; move 'spoken_symbols' above 'lowercase'")
    fold = make_fold(config.char_folds)

    def key(text: str) -> str:
        return " ".join(fold(text.casefold()).split())

    names = {key(name): symbol for name, symbol in options.symbols.items()}
    code_only = {key(name) for name in options.code_only}
    name_words = frozenset(word for name in names for word in name.split())
    first_words = frozenset(name.split()[0] for name in names)
    widths = sorted({len(name.split()) for name in names}, reverse=True)
    fillers = frozenset(key(word) for word in config.fillers)
    symbol_chars = "".join(sorted(set("".join(names.values()))))
    split_symbols = re.compile(f"[{re.escape(symbol_chars)}]") if symbol_chars else None
    def edge(token: str, last: bool) -> str:
        """The piece of ``token`` that touches the spoken name (after an earlier glued symbol)."""
        if split_symbols is None:
            return token
        pieces = split_symbols.split(token)
        return pieces[-1] if last else pieces[0]

    def name_at(folded: list[str], index: int) -> tuple[str, int] | None:
        if folded[index] not in first_words:
            return None
        for width in widths:
            candidate = " ".join(folded[index : index + width])
            if candidate in names:
                return candidate, width
        return None

    # ASCII text when no fold source is ASCII: the fold changes nothing and casefolding is
    # lowercasing, so the shared split of the text (the same object the step before
    # returned) answers the test without splitting again.
    ascii_unfolded = not any(source.isascii() for source in config.char_folds)

    # The full rule below reads (and re-spaces) a text holding any word of a name: each such
    # word is a substring of the casefolded, folded text (no fold source holds a space, so
    # folding the text whole or word by word gives the same words). A few substring tests
    # before any split.
    folded_text = casefolded_text(config.char_folds)
    exact = not any(any(char.isspace() for char in source) for source in config.char_folds)
    any_name = substring_search(name_words)

    def run(text: str) -> str:
        if exact and not any_name(folded_text(text)):
            return text
        return full(text)

    token_keys = folded_token_keys(config.char_folds)

    def full(text: str) -> str:
        whole = None
        if ascii_unfolded and text.isascii():
            words = casefolded_words(text)
        else:
            words = whole = fold(text.casefold()).split()
        if name_words.isdisjoint(words):
            return text  # the cheap test: most texts name no symbol
        tokens = text.split()
        folded = token_keys(text, tokens, whole)
        out: list[str] = []
        index = 0
        count = len(tokens)
        # Only a first word of a name can start one: the tokens between two of them are
        # copied as a slice, not walked one by one.
        for start in [position for position, word in enumerate(folded) if word in first_words]:
            if start < index:
                continue  # taken into a name or a code before
            found = name_at(folded, start)
            if found is None:
                continue
            out.extend(tokens[index:start])
            index = start
            name, width = found
            after = index + width
            # Neighbours, skipping fillers on both sides.
            left = len(out) - 1
            while left >= 0 and key(out[left]) in fillers:
                left -= 1
            right = after
            while right < count and folded[right] in fillers:
                right += 1
            usable = (
                left >= 0
                and right < count
                and key(out[left]) not in name_words
                and folded[right] not in name_words
                and is_word_char(out[left][-1])
                and is_word_char(tokens[right][0])
            )
            if usable and name in code_only:
                usable = _code_neighbours(edge(out[left], last=True), edge(tokens[right], last=False))
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
        out.extend(tokens[index:])
        joined = " ".join(out)
        # The same object when nothing changed: the pipeline then skips a repeated
        # idempotent step (number_formats) after this one.
        return text if joined == text else joined

    run.ungated = full
    return run


def folded_token_keys(folds: dict[str, str]):
    """``keys(text, tokens, whole)``: ``[" ".join(fold(token.casefold()).split()) for token in
    tokens]`` (``tokens``: ``text.split()``; ``whole``: ``fold(text.casefold()).split()`` if
    already made, else ``None``) for the fold ``make_fold(folds)``, from one fold of the whole
    text where that gives the same list.

    It does when no fold source or value holds whitespace and no source or value is empty:
    a source matched inside a token then stays inside it and folds to a non-empty piece
    without whitespace, so the whole text's split is the tokens' folds, one for one. A source
    whose value holds a space (en "°" = " degrees ") breaks that only where the text holds
    it; a source holding whitespace, or an empty one, always (each token folded alone then).
    """
    fold = make_fold(folds)
    spaced = tuple(source for source, value in folds.items() if not value or any(char.isspace() for char in value))
    aligned = all(source and not any(char.isspace() for char in source) for source in folds)

    def keys(text: str, tokens: list[str], whole: list[str] | None) -> list[str]:
        if aligned:
            low = text.casefold()
            if not (spaced and any(source in low for source in spaced)):
                return fold(low).split() if whole is None else whole
        return [" ".join(fold(token.casefold()).split()) for token in tokens]

    return keys


_EDGES = re.compile(r"^([^\w]*)(.*?)([^\w]*)$")
# Where a run of three spelled characters may start: the cheap test before the token walk.
# Searched in the text after one space, led by a whitespace character (the same texts match
# as with ``(?<!\S)`` on the text itself): ``re`` scans for whitespace in C instead of trying
# a lookbehind at every position.
_THREE = re.compile(r"\s[^\w\s]*[A-Z0-9]\s+[A-Z0-9]\s+[A-Z0-9][^\w\s]*(?!\S)")
# What every match of _THREE holds (its three characters and the whitespace between them),
# searched first in the text itself: led by the class, which fewer positions meet than
# whitespace, and no concatenation (a third less CPU on the European corpora, where nearly
# no text holds it).
_THREE_CORE = re.compile(r"[A-Z0-9]\s+[A-Z0-9]\s+[A-Z0-9]")
# The middle character of every match of _THREE_CORE with a whitespace character on each side:
# in a printable text the only whitespace is the ASCII space (tests/test_word_step_gates.py
# checks every code point), so it is this literal-led pattern, found by a fast scan for a space
# (the texts that hold it, a quarter of the European corpora, are then searched for the core).
_SPACED_CODE_CHARACTER = re.compile(r" [A-Z0-9] ")


def _code_char(core: str) -> bool:
    """A single capital Latin letter or a single decimal digit."""
    return len(core) == 1 and ("A" <= core <= "Z" or core.isdecimal())


def _join_run(run: list[tuple[str, str, str]]) -> list[str]:
    """The tokens of a run of spelled code characters: joined when it is a code."""
    cores = [core for _, core, _ in run]
    if len(cores) >= 3 and any(c.isalpha() for c in cores) and any(c.isdecimal() for c in cores):
        return [run[0][0] + "".join(cores) + run[-1][2]]
    return [lead + core + trail for lead, core, trail in run]


@step("spelled_code_runs", idempotent=True,
      before={"lowercase": "capitals tell a spelled letter from a word (M 4 B)"})
def spelled_code_runs(config, lexicons):
    """Join a spelled code of 3+ single capitals and digits, holding both ("M 4 B" -> "M4B").

    Punctuation may open the first token and close the last ("(M 4 B)."), never stand
    inside the run ("M, 4, B" is a list). Runs before ``lowercase`` (capitals tell a spelled
    letter from a word)."""

    def run_step(text: str) -> str:
        if not _THREE.search(" " + text):
            return text
        out: list[str] = []
        run: list[tuple[str, str, str]] = []
        for token in text.split():
            lead, core, trail = _EDGES.match(token).groups()
            if not _code_char(core):
                out.extend(_join_run(run))
                run = []
                out.append(token)
                continue
            if lead and run:
                out.extend(_join_run(run))
                run = []
            run.append((lead, core, trail))
            if trail:
                out.extend(_join_run(run))
                run = []
        out.extend(_join_run(run))
        return " ".join(out)

    def gated(text: str) -> str:
        # The cheap tests first (every match of _THREE holds _THREE_CORE, and in a printable
        # text _SPACED_CODE_CHARACTER); ``run_step`` is the rule.
        if text.isprintable() and _SPACED_CODE_CHARACTER.search(text) is None:
            return text
        if _THREE_CORE.search(text) is None:
            return text
        return run_step(text)

    gated.ungated = run_step
    return gated
