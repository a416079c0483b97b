"""Abbreviated titles before a name: "Hr. Müller" = "Herr Müller" (the ``abbreviated_titles`` step).

Source: the original requirements. An abbreviated title and its spoken form are one word, but rules
that expanded bare letters rewrote codes and ordinary words: French "M 4 B" became
"monsieur 4 b", the pronoun "me" became "maître", Spanish "me da igual" became "me doña
igual", and the two-letter titles nl mr/hr/ds, de hr/fr and fr st fired on codes ("MR 4",
"HR-Fragen", "ST 5"; the original requirements' "Not in this PR"). So an abbreviation expands only when

- it is written exactly as listed in ``[options.abbreviated_titles.abbreviations]``, with its
  period where the language writes one ("M.", "Hr.", "dhr.", "Sig.ra"; French "Mme" and
  "Dr" take none by French typography), or with its first letter capitalised (a sentence
  that starts "Dhr. Jansen"); "HR", "hr" without a period, "MR" or "ST" never match; and
- the next word is a capitalised name ("M. Dupont", "D. José"), or up to three of the
  language's ``name_particles`` and then one ("dhr. van den Berg", "M. de Gaulle"), or
  another listed title before a name ("mr. dr. Visser", "Prof. Dr. Weber"), or the
  abbreviation is glued to a capitalised name by a hyphen ("St-Laurent" = "saint-Laurent":
  Quebec place names).

The spoken form replaces the abbreviation as written in the table ("monsieur"; the
``lowercase`` step lowercases the rest). The step needs case and the period, so it runs
before ``lowercase`` and ``punctuation``.

Two more tables of the same step, for the abbreviations that are no titles, expanded
without firing on codes (sources: Duden "Abkürzungen", the Académie's and the RAE's lists
of abbreviations, Taaladvies "afkortingen", Treccani "abbreviazioni"):

- ``before_numbers``: expanded only right before a number in digits (de ``Nr. 5`` =
  ``Nummer 5``, fr ``n° 5`` = ``numéro 5``, es ``núm. 5`` / ``n.º 5`` = ``número 5``);
  ``Nr.`` before a word stays (a sentence may end in a code "... Nr.");
- ``words``: expanded wherever they stand as written, with their periods (de ``z. B.`` /
  ``z.B.`` = ``zum Beispiel``, ``usw.``, fr ``etc.``, es ``Ud.``, nl ``bijv.``); a key
  of several words also matches with the spaces left out, and with its first letter
  capitalised (a sentence start). A key must hold a period, so that a word or a code
  without one (``ca``, ``USW``) is never read as an abbreviation.
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.phrases import trie_pattern
from pytest_asrbench.normalize.steps.registry import step

# A word starting with an uppercase letter, after optional opening quotes or brackets.
_NAME = re.compile(r"^[\"'«„“‚‹(\[]*[^\W\d_]")


class TitleOptions(StepOptions):
    """``[options.abbreviated_titles]``: written abbreviation -> spoken title, and the
    lowercase particles that may stand between a title and a name."""

    abbreviations: dict[str, str] = Field(
        default_factory=dict, description="Abbreviation as written (with its period) -> spoken form ('M.' = 'monsieur').")
    name_particles: list[str] = Field(
        default_factory=list, description="Lowercase words that may open a name ('van', 'de').")
    before_numbers: dict[str, str] = Field(
        default_factory=dict, description="Abbreviation -> spoken form, expanded only before a number in digits "
                                          "('Nr.' = 'Nummer').")
    words: dict[str, str] = Field(
        default_factory=dict, description="Abbreviation with its periods -> spoken form, expanded anywhere "
                                          "('z. B.' = 'zum Beispiel').")

    @field_validator("before_numbers", "words")
    @classmethod
    def _have_a_period(cls, value: dict[str, str]) -> dict[str, str]:
        for written, spoken in value.items():
            if "." not in written and "°" not in written and "º" not in written:
                raise ValueError(f"abbreviation {written!r} has no period (or ° / º): without one it would fire on "
                                 f"a word or a code; list it with its period as written")
            if not spoken.strip():
                raise ValueError(f"abbreviation {written!r} has an empty spoken form; give the words it stands for")
        return value

    @field_validator("abbreviations")
    @classmethod
    def _one_word_each(cls, value: dict[str, str]) -> dict[str, str]:
        for written, spoken in value.items():
            if not written or written != written.strip() or len(written.split()) != 1:
                raise ValueError(f"abbreviation {written!r} must be one word with no spaces (write 'M.', not 'M. ')")
            if not spoken.strip():
                raise ValueError(f"abbreviation {written!r} has an empty spoken form; give the title it stands for")
        return value


def _phrase_rule(words: dict[str, str]):
    """The ``words`` table as one ``str -> str`` replacement (``None`` when empty): each key
    as written, its spaces optional, its first letter also capitalised, as whole words."""
    if not words:
        return None
    table: dict[str, str] = {}
    for written, spoken in words.items():
        for form in (written, written[0].upper() + written[1:]):
            table.setdefault(form, spoken)
            table.setdefault(form.replace(" ", ""), spoken)
    body = "|".join(re.escape(key) for key in sorted(table, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\S)(?:{body})(?!\S)")
    firsts = frozenset(key.split(" ")[0] for key in table)  # a match starts with one of these words

    def run(text: str) -> str:
        if "." not in text or firsts.isdisjoint(text.split()):
            return text
        return pattern.sub(lambda m: table[m.group(0)], text)

    return run


def _capitalised(word: str) -> bool:
    match = _NAME.match(word)
    return bool(match) and match.group(0)[-1].isupper()


@step("abbreviated_titles", options=TitleOptions,
      before={"punctuation": "it needs the abbreviation's period (Hr. Müller)",
              "lowercase": "a title expands only before a capitalised name"})
def abbreviated_titles(config, lexicons, options: TitleOptions):
    """Expand a listed abbreviation before a capitalised name ("M. Dupont" -> "monsieur Dupont")."""
    table: dict[str, str] = {}
    for written, spoken in options.abbreviations.items():
        table[written] = spoken
        table.setdefault(written[0].upper() + written[1:], spoken)
    numbered = {**{key[0].upper() + key[1:]: value for key, value in options.before_numbers.items()},
                **options.before_numbers}
    phrases = _phrase_rule(options.words)
    if not table and not numbered and phrases is None:
        return lambda text: text
    particles = frozenset(options.name_particles)
    hyphenated = re.compile(
        "^(" + "|".join(re.escape(key) for key in sorted(table, key=len, reverse=True)) + r")-(?=[^\W\d_])")

    def before_name(words: list[str], index: int) -> bool:
        """A capitalised word follows, after up to three particles ("van den Berg") or
        another listed title that itself stands before a name ("mr. dr. Visser")."""
        following = index + 1
        while following < len(words) and following - index <= 3 and words[following] in particles:
            following += 1
        if following >= len(words):
            return False
        word = words[following]
        if word in table and following == index + 1:
            return before_name(words, following)
        return _capitalised(word)

    def run(text: str) -> str:
        if phrases is not None:
            text = phrases(text)
        words = text.split(" ")
        changed = False
        for index, word in enumerate(words):
            spoken = numbered.get(word)
            if spoken is not None and index + 1 < len(words) and words[index + 1][:1].isdecimal():
                words[index] = spoken
                changed = True
                continue
            spoken = table.get(word)
            if spoken is not None and before_name(words, index):
                words[index] = spoken
                changed = True
                continue
            match = hyphenated.match(word) if "-" in word else None
            if match and _capitalised(word[match.end() :]):
                words[index] = table[match.group(1)] + "-" + word[match.end() :]
                changed = True
        return " ".join(words) if changed else text

    # The step changes a text only where a listed word starts a word: a title or a word before
    # a number (whole, or before a hyphen: "Dr.-Ing."), or the first word of a phrase. The test
    # is searched in the text after one space, with a whitespace character leading the
    # pattern: ``re`` then scans for whitespace in C instead of trying a lookbehind and the
    # trie at every position (same matches as ``(?<!\S)`` on the text itself; about three
    # times faster on a sentence, and nearly every text of these languages passes this test).
    starts = {*table, *numbered}
    for written in options.words:  # the forms _phrase_rule matches: capitalised, spaces optional
        for form in (written, written[0].upper() + written[1:]):
            starts.update((form.split(" ")[0], form.replace(" ", "")))
    may_start = re.compile(rf"\s(?:{trie_pattern(sorted(starts))})(?=\s|-|$)").search

    def gated(text: str) -> str:
        return text if may_start(" " + text) is None else run(text)

    return gated
