"""Fractions: one form, ``3 4``, for a fraction said or written (the ``fractions`` step).

A fraction is said as a numerator and a denominator word: de ``drei Viertel``, nl ``drie
kwart`` / ``drie vierde``, fr ``trois quarts`` / ``un demi`` / ``trois cinquièmes``, es
``tres cuartos`` / ``dos tercios``, it ``due terzi`` / ``un quinto``. The denominator is either

- a word of ``[options.fractions] denominators`` (de ``viertel`` = 4, fr ``demi`` = 2,
  ``tiers`` = 3, nl ``kwart`` = 4, es ``tercios`` = 3): the words that name a part and
  are no ordinal; or
- an ordinal, as ``spoken_numbers`` (text2num) writes it after the numerator: fr
  ``cinquièmes`` -> ``5èmes``, es ``cuartos`` -> ``4ᵒˢ``, it ``terzi`` -> ``3º``, nl
  ``vierde`` -> ``4e``. The suffixes are ``ordinal_marks``; such a denominator is 3 or
  more (fr ``2ème`` after a number is a rank, and the half has its own word).

The numerator is a number in digits of 1-3 digits, or one of ``one_words`` (the articles
that say "one": fr ``un``, es ``un``, de ``ein``: ``ein Viertel`` = ``1/4``), with no digit
before it (``06 12 3ème`` is no fraction). The result is ``<numerator> <denominator>``, the
form the written ``3/4`` takes in these languages, where ``punctuation`` makes every slash
a word boundary (``X/12`` = ``X 12``): ``drei Viertel`` = ``3/4`` = ``3 4``. Runs after
``spoken_numbers`` and ``lowercase`` (digits, lowercase words) and after
``clock_fractions`` (``halb drei``, ``y cuarto`` are clock times first).

Left alone on purpose (each a case): de ``halb``/``halbe`` (an adjective: ``ein halbes
Jahr``; ``halb drei`` is a time), es ``medio``/``media`` and it ``mezzo`` ("a means", "an
average": ``un medio de transporte``), left out of the tables; mixed numbers (``zweieinhalb``, ``deux et demi``), which
stay as said; es ``cuartos`` is also "rooms" (``tres cuartos`` is read as ``3/4``, the
common reading in a transcript of measures and times). Sources: Duden "Bruchzahlen",
Grevisse "les fractionnaires", RAE "partitivos", Treccani "frazionari", Taaladvies
"breuken".
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.number_words import folded, folded_keys
from pytest_asrbench.normalize.steps.registry import step


class FractionOptions(StepOptions):
    """``[options.fractions]``: the denominator words, the ordinal suffixes and the words for one."""

    denominators: dict[str, int] = Field(default_factory=dict,
                                         description="Denominator word (lowercase) -> its value (viertel = 4).")
    ordinal_marks: list[str] = Field(default_factory=list,
                                     description="Suffixes text2num writes after an ordinal denominator ('ème', 'º').")
    one_words: list[str] = Field(default_factory=list, description="Words that are the numerator 1 (un, ein).")

    @field_validator("denominators")
    @classmethod
    def _at_least_two(cls, value: dict[str, int]) -> dict[str, int]:
        for word, denominator in value.items():
            if denominator < 2:
                raise ValueError(f"denominator {word!r} = {denominator}: a fraction's denominator is 2 or more")
        return value


def _alternation(words) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


@step("fractions", options=FractionOptions, idempotent=True)
def fractions(config, lexicons, options: FractionOptions):
    """``<numerator> <denominator word>`` -> ``<numerator> <denominator>`` (module docstring).

    Input: lowercase text after ``spoken_numbers``. Output: the same text with each spoken
    fraction written ``3 4``; a table left empty makes the step do nothing.
    """
    words = folded_keys(options.denominators, config)
    marks = folded(options.ordinal_marks, config)
    ones = folded(options.one_words, config)
    if not words and not marks:
        return lambda text: text
    numerator = r"\d{1,3}" + (f"|{_alternation(ones)}" if ones else "")
    denominator = []
    if words:
        denominator.append(f"(?P<word>{_alternation(words)})")
    if marks:
        denominator.append(rf"(?P<ordinal>[1-9]\d{{0,3}})(?:{_alternation(marks)})")
    # Led by a lookahead for the numerator's first characters, so ``re`` skips to them in C
    # instead of testing the lookbehinds at every position.
    starts = "".join(sorted({re.escape(word[0]) for word in ones if word}))
    pattern = re.compile(rf"(?=[\d{starts}])(?<![\d,.:/])(?<!\d )(?<!\S)(?P<n>{numerator}) "
                         rf"(?:{'|'.join(denominator)})(?!\S)")
    one_set = frozenset(ones)
    # The trigger, found wherever the pattern matches (a superset), led by the space before
    # the denominator, which ``re`` scans for in C: a denominator word, or an ordinal after a
    # space that ends a numerator (a digit or the last letter of a word for one).
    ends = "".join(sorted({re.escape(word[-1]) for word in ones if word}))
    probes = [f"(?:{_alternation(words)})(?!\\S)"] if words else []
    if marks:
        probes.append(rf"(?<=[\d{ends}] )[1-9]\d{{0,3}}(?:{_alternation(marks)})(?!\S)")
    gate = re.compile(f" (?:{'|'.join(probes)})")

    def replace(match: re.Match) -> str:
        count = "1" if match["n"] in one_set else match["n"]
        if match.groupdict().get("word") is not None:
            return f"{count} {words[match['word']]}"
        if int(match["ordinal"]) < 3:
            return match[0]
        return f"{count} {match['ordinal']}"

    return triggered(gate, lambda text: pattern.sub(replace, text))
