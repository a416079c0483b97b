"""Hyphenated compounds: one form for ``a-b`` and its closed (or open) spelling (the
``hyphen_compounds`` step).

Source: the original requirements' reviewer examples. A TTS voice says "Anmelde-Konto" as one word and the
STT writes "Anmeldekonto" (de); "zorg-verlof" = "zorgverlof", "e-mailadres" = "emailadres"
(nl); Hindi writers use both ई-मेल and ईमेल. Counting the two spellings as two errors is a
normalizer fault, not a recognition error.

Each hyphen of a compound is decided on its own, from the two parts it stands between:

- next to a number, the hyphen stays (the parts are not joined): a digit string, a word of
  the language's ``numbers`` lexicon, or a word made of the ``number_words`` of
  ``[options.hyphen_compounds]`` (``zwei-drei Tage``, ``दो-तीन``, ``COVID-19``; a glued
  number word such as ``dreiundzwanzig`` is several ``number_words`` joined by
  ``number_joiners``). ``3-Zimmer-Wohnung`` keeps its first hyphen and closes the second;
- in a reduplication, where every part is the same word (``बार-बार``, ``bla-bla``,
  ``ha-ha-ha``), it stays (a chain with one repeat among other parts, ``two-two-one``, is no
  reduplication: deciding its hyphens one by one would not be idempotent);
- next to an acronym (two or more capitals, optionally with digits: ``HR-Fragen``), which STT
  often writes open ("HR Fragen"), the hyphen becomes a space, so the open and hyphenated
  forms meet and a second pass (after ``lowercase`` removed the capitals) has nothing left
  to join. This is why the step must run before ``lowercase``;
- otherwise the parts are joined (``form = "closed"``, the default: de, nl, es, it, hi), or
  the hyphen becomes a space (``form = "open"``: French, whose compounds alternate between
  the hyphenated and the open spelling, ``peut-être`` / ``peut être``, and are almost never
  closed); in the open form, compounds whose closed spelling is the usual one are listed in
  ``always_closed`` (fr ``e-mail`` = ``email``, ``week-end`` = ``weekend``).

A hyphen that stays is removed later by ``punctuation`` (unless the config keeps it), so a
kept hyphen means "not joined": ``zwei-drei`` = ``zwei drei``. Number words and
``always_closed`` are compared folded with the shared ``char_folds``, before or after that
step ran (``fünf`` and ``fuenf`` both count).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.basic import is_word_char, make_fold
from pytest_asrbench.normalize.steps.registry import step

# ASCII hyphen-minus, Unicode hyphen and non-breaking hyphen. En and em dashes are
# sentence punctuation, not compound hyphens.
HYPHENS = "-\u2010\u2011"
_HYPHEN_SPLIT = re.compile(f"[{HYPHENS}]")
# A whitespace token holding a hyphen (the only tokens the step may change), matched from the
# token's start: a match starting inside a token would try every later position of it again.
_HYPHENATED = re.compile(f"(?<!\\S)[^{HYPHENS}\\s]*[{HYPHENS}]\\S*")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]+$")


class HyphenCompoundOptions(StepOptions):
    """``[options.hyphen_compounds]``: what an ordinary compound hyphen becomes, and which
    parts are number words (the hyphen then stays)."""

    form: Literal["closed", "open"] = Field(
        "closed", description="'closed': Anmelde-Konto = Anmeldekonto; 'open': peut-être = peut être.")
    always_closed: list[str] = Field(
        default_factory=list, description="With form = 'open': compounds joined anyway ('email' for e-mail).")
    number_words: list[str] = Field(
        default_factory=list, description="Number words and the pieces glued number words are made of ('drei', 'zig').")
    number_joiners: list[str] = Field(
        default_factory=list, description="Pieces that join number words inside one word ('und' in dreiundzwanzig).")


def _split_edges(token: str) -> tuple[str, str, str]:
    """(leading punctuation, core, trailing punctuation) of a whitespace token."""
    start = 0
    end = len(token)
    while start < end and not is_word_char(token[start]):
        start += 1
    while end > start and not is_word_char(token[end - 1]):
        end -= 1
    return token[:start], token[start:end], token[end:]


def number_word_test(words, joiners, fold=lambda text: text):
    """A predicate: is a (lowercase) part a number word, given the words and the joiners?

    A part is one when it is a concatenation of ``words`` with optional ``joiners`` between
    them (``drei`` + ``und`` + ``zwanzig``), compared as written and folded."""
    pieces = sorted({form for word in words for form in (word.lower(), fold(word.lower())) if form},
                    key=len, reverse=True)
    if not pieces:
        return lambda part: False
    glue = sorted({form for word in joiners for form in (word.lower(), fold(word.lower())) if form},
                  key=len, reverse=True)
    piece = "(?:" + "|".join(re.escape(p) for p in pieces) + ")"
    joiner = "(?:" + "|".join(re.escape(j) for j in glue) + ")?" if glue else ""
    pattern = re.compile(rf"{piece}(?:{joiner}{piece})*")
    return lambda part: bool(pattern.fullmatch(part) or pattern.fullmatch(fold(part)))


def hyphen_kind(left: str, right: str, is_number) -> str:
    """What the hyphen between two parts is: ``"keep"`` (a number next to it), ``"space"``
    (an acronym next to it) or ``"join"``. Reduplications are decided on the whole word."""
    for part in (left, right):
        if part.isdigit() or is_number(part.lower()):
            return "keep"
    if _ACRONYM.match(left) or _ACRONYM.match(right):
        return "space"
    return "join"


@step("hyphen_compounds", options=HyphenCompoundOptions,
      before={"lowercase": "acronyms are capitals: HR-Fragen is HR Fragen, Anmelde-Konto is Anmeldekonto"})
def hyphen_compounds(config, lexicons, options: HyphenCompoundOptions):
    """Join (or open) ``a-b`` unless a part is a number or an acronym, or the parts repeat.
    Reads the shared ``char_folds`` and the optional ``numbers`` lexicon."""
    fold = make_fold(config.char_folds)
    listed = frozenset(form for word in lexicons.get("numbers", {}) for form in (word.lower(), fold(word.lower())))
    glued = number_word_test(options.number_words, options.number_joiners, fold)

    def is_number(part: str) -> bool:
        return part in listed or fold(part) in listed or glued(part)

    closed_anyway = frozenset(fold(word.lower()) for word in options.always_closed)
    ordinary = "" if options.form == "closed" else " "

    def join_token(token: str) -> str:
        lead, core, trail = _split_edges(token)
        if not _HYPHEN_SPLIT.search(core):
            return token  # the hyphen was leading or trailing punctuation
        parts = _HYPHEN_SPLIT.split(core)
        if any(not part or not all(is_word_char(c) for c in part) for part in parts):
            return token  # a stray or doubled hyphen, or other punctuation inside: not a compound
        if closed_anyway and fold("".join(parts).lower()) in closed_anyway:
            return lead + "".join(parts) + trail
        hyphens = _HYPHEN_SPLIT.findall(core)
        if len({part.lower() for part in parts}) == 1:
            return token  # a reduplication: bla-bla, ha-ha-ha
        out = [parts[0]]
        # The left part of each hyphen is everything joined since the last hyphen kept or
        # opened, as the next normalization will see it: "two-one-one" joins to "twooneone"
        # at once, never "twoone-one" (which a second pass would join: idempotence).
        left = parts[0]
        for hyphen, right in zip(hyphens, parts[1:]):
            kind = hyphen_kind(left, right, is_number)
            glue = hyphen if kind == "keep" else " " if kind == "space" else ordinary
            out.append(glue)
            out.append(right)
            left = left + right if glue == "" else right
        return lead + "".join(out) + trail

    # A token's form depends on the token alone: each is decided once (compounds repeat:
    # "vingt-trois", "peut-être"), in a bounded cache that lives as long as this step.
    joined = lru_cache(maxsize=65536)(join_token)

    def replace(match: re.Match) -> str:
        return joined(match.group(0))

    # The trigger: a hyphen (most texts hold none, and the sub scans every token); the
    # pipeline searches it inline, without a call of the step.
    return triggered(_HYPHEN_SPLIT, lambda text: _HYPHENATED.sub(replace, text))
