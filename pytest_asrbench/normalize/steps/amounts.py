"""Written forms of amounts, one per spoken form: ordinals, decimals, money, percentages, times, dates.

Two generic steps read the language's words from its config (data, never code):

``written_ordinals`` (before ``punctuation``)
    The ways a language writes an ordinal become the one form text2num writes for the spoken
    ordinal (``[options.written_ordinals] suffixes``): nl ``1ste`` / ``1de`` = ``1e``; fr
    ``2e`` / ``2è`` / ``2eme`` = ``2ème``, ``1re`` = ``1ère``; es ``1.º`` / ``1°`` = ``1º``;
    it ``1°`` = ``1º``.

``ordinal_dots`` (before ``punctuation``)
    Ordinals written with a dot (de ``3. März``) keep it, a dot that ends a sentence after a
    number goes (the ``before`` / ``after`` words of ``[options.ordinal_dots]``).

``amounts`` (after ``spoken_numbers``)
    Digits and unit words become one canonical form, with the language's decimal separator
    (``,`` below):

    - decimals: ``2 komma 5`` = ``2,5`` (a spoken decimal word between digits, ``decimal_words``);
    - money: the amount, then the currency symbol, cents after the decimal separator:
      ``12,50 €`` = ``€ 12,50`` = ``12,50 Euro`` = ``12 Euro 50`` = ``12 Euro und 50 Cent``
      = ``12,50€``; ``50 Cent`` = ``0,50€``; ``12,00 €`` = ``12€`` (``currencies`` maps
      names and symbols to a symbol; ``cents`` names the hundredths; ``cents_joiners`` the
      words between units and cents). Only a symbol or a code of ``currency_codes`` stands
      before the amount (``€ 12,50``, ``chf 20``): a spoken name before a number is the
      common noun it also is (fr ``livre 20 pages``, es ``libra 20``) and stays;
    - percentages and per mille: ``25 %`` = ``25 Prozent`` = ``25%`` (``percent`` words),
      ``5 ‰`` = ``5 Promille`` = ``5‰`` (``per_mille`` words);
    - times: ``14 Uhr 30`` = ``14.30 Uhr`` = ``14:30 Uhr`` = ``14:30``, ``14 h 30`` = ``14h30``
      = ``14:30``; an hour word with minutes always makes a time (``hour_words``); a bare hour
      only with a word of ``clock_words`` (de ``Uhr``, fr ``h``: ``14 Uhr`` = ``14:00``), or after
      a word of ``time_cues`` when an hour word follows or the text ends (nl ``om 3 uur``, fr
      ``à 14 heures``, es ``a las 2``), because nl ``uur``, fr ``heures`` and es ``horas`` are
      also durations and es ``las 3 casas`` is no time; after a cue, ``H MM`` and
      ``H <minute_joiner> MM`` are times too (it ``alle 14 e 30``, es ``las 14 30``);
    - dates: an ordinal day before a month name is the day's number (``3. März`` = ``dritter
      März`` = ``3 märz``; ``1er janvier`` = ``premier janvier`` = ``1 janvier``; es ``1º de
      enero`` = ``1 de enero``), because the written day and the spoken ordinal are one
      reading (``months``, optional ``date_joiner`` such as es ``de``).

Digits of any script: every rule reads the decimal digits Unicode calls ``Nd`` (``re``'s
``\\d``: ASCII, Thai ``๑๒``, Devanagari ``१२``, Arabic-Indic, ...), and a rewritten amount keeps
the digits of the number it rewrites: the digits a rule writes (the cents' zero padding, an hour
without its leading zero, the ``00`` of a bare hour, the ``0`` of ``0,50€``) are written in that
number's script (``๑,๕ €`` = ``๑,๕๐€``, ``๘ uhr`` = ``๘:๐๐``, ``๕๐ cent`` = ``๐,๕๐€``). A match
whose digits mix scripts (``12 euro ๕๐``, ``1๕ %``) is left as written by every rule: which
script its output should take is not decidable, and splicing one into the other would write a
number no one wrote (the later rules read what it leaves: ``12 euro ๕๐`` = ``12€ ๕๐``). The
ranges of the time and date rules (an hour 0-24, minutes 00-59, a day 1-31) are read by
value in every script too (``๑๔ uhr ๓๐`` = ``๑๔:๓๐``). How a script is told: ``steps/digit_scripts.py``
(the Unicode Standard, section 4.6 "Numeric Value").

The words of every table are folded with the config's ``char_folds`` (``märz`` = ``maerz``
when the language folds ``ä``), like the text before these steps. Every rule is a regular
expression compiled when the step is built, led by a ``(?=\\d)`` lookahead where it starts at
a digit (so ``re`` skips to the digits instead of testing the lookbehind at every position), and
each kind runs only when its words or marks are in the text; each output is a fixed
point of every rule (idempotence). Sources: the European reviewers' list (12,50 € = zwölf Euro
fünfzig; 25 % = 25% = fünfundzwanzig Prozent; 14:30 = 14 h 30 = vierzehn Uhr dreißig;
3. März = dritter März; 1er janvier), the CLDR number and currency patterns of each locale.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.digit_scripts import digit_class, in_script, zero_of
from pytest_asrbench.normalize.steps.number_words import folded, folded_keys
from pytest_asrbench.normalize.steps.registry import step


def _alternation(words: list[str] | set[str]) -> str:
    """A regex alternation of ``words``, longest first (so ``euros`` wins over ``euro``)."""
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


class WrittenOrdinalOptions(StepOptions):
    """``[options.written_ordinals]``: written ordinal suffix -> the suffix text2num writes."""

    suffixes: dict[str, str] = Field(default_factory=dict,
                                     description="Written suffix after the digits -> canonical suffix ('ste' = 'e').")


@step("written_ordinals", options=WrittenOrdinalOptions, idempotent=True,
      before={"punctuation": "punctuation removes the marks it reads (1.º, 1°)"})
def written_ordinals(config, lexicons, options: WrittenOrdinalOptions):
    """``<digits><suffix>`` -> ``<digits><canonical suffix>`` for each written ordinal form.

    Input: text with its punctuation (``1.º`` and ``1°`` would not survive the
    ``punctuation`` step), in any case: suffixes match case-insensitively (``1ER`` = ``1er``),
    so the step may run before ``lowercase`` and the word steps that need capitals. A suffix
    counts only right after the digits and before a non-letter (``3ème`` yes, ``3emes`` no).
    """
    if not options.suffixes:
        return lambda text: text
    suffixes = {suffix.lower(): canonical for suffix, canonical in options.suffixes.items()}
    pattern = re.compile(rf"(?=\d)(?<![\w.,])(\d+)({_alternation(suffixes)})(?![^\W\d_])", re.IGNORECASE)

    def replace(match: re.Match) -> str:
        return match.group(1) + suffixes[match.group(2).lower()]

    # The trigger: a digit glued to a suffix, wherever the pattern matches (a superset), led by
    # a character class that ``re`` scans for in C (most texts hold no written ordinal).
    gate = re.compile(rf"\d(?:{_alternation(suffixes)})", re.IGNORECASE)
    return triggered(gate, lambda text: pattern.sub(replace, text))


# A dot after digits, then a space and a word: (word before or start) (digits) . (word after)
_DOT = re.compile(r"(?=\d)(?:(?<=\s)|^)(\d+)\.(?= ([^\W\d_][\w'-]*))")
# The trigger of ``ordinal_dots``: a digit, a dot, a space and a letter, found wherever _DOT
# finds a match (a superset); led by the literal ". ", which ``re`` searches for in C (a
# digit-led test retries at every digit).
_MAY_BE_ORDINAL_DOT = re.compile(r"\. (?<=\d\. )[^\W\d_]")


class OrdinalDotOptions(StepOptions):
    """``[options.ordinal_dots]``: the words that make ``<digits>.`` an ordinal (lowercase)."""

    before: list[str] = Field(default_factory=list, description="Words before the number (der, am, zum).")
    after: list[str] = Field(default_factory=list, description="Words after the number (month names).")


@step("ordinal_dots", options=OrdinalDotOptions, idempotent=True,
      before={"punctuation": "punctuation removes the dot after the digits that it reads (3. März)"})
def ordinal_dots(config, lexicons, options: OrdinalDotOptions):
    """Which written ``3.`` is an ordinal, for languages that write ordinals as digits and a
    dot (de ``am 3. März``, ``der 2. Platz``), the very mark that also ends a sentence (``Ich
    habe 3. Dann ...``).

    The ``punctuation`` step keeps a dot after digits before a word (``ordinal_dot = true``);
    this step, listed before it, first removes the dots that are not ordinals. A dot is an
    ordinal when the word after it is in ``after`` (the month names: a date), the word before
    it is in ``before`` (an article or a preposition with its article: de ``der``, ``am``,
    ``zum``), or the number starts the text (a heading or list item: ``1. Stock``); otherwise it
    ends a sentence and goes. The spoken ordinal (``dritten``) is written ``3.`` by text2num
    (``spoken_numbers``), so ``am 3. März`` and ``am dritten März`` meet.

    Input: text with its punctuation, in any case (the words are compared lowercased, so the
    step may run before ``lowercase``). Output: the same text with the sentence-ending
    dots after numbers removed. Source: European reviewer reports ("ordinals ... only where an ordinal is
    meant"); Duden, "Zahlen und Ziffern" (ordinals in digits take a full stop).

    With both ``before`` and ``after`` empty the step does nothing (a language that does not
    write ordinals with a dot, listing it through a shared base config).
    """
    if not options.before and not options.after:
        return lambda text: text
    before = frozenset(folded(options.before, config))
    after = frozenset(folded(options.after, config))

    def decide(match: re.Match, text: str) -> str:
        start = match.start()
        previous = text[:start].rstrip().rsplit(" ", 1)[-1] if start else ""
        if start == 0 or previous.lower() in before or match.group(2).lower() in after:
            return match.group(0)
        return match.group(1)

    def run(text: str) -> str:
        return _DOT.sub(lambda m: decide(m, text), text)

    return triggered(_MAY_BE_ORDINAL_DOT, run)  # only a number, its dot and a word after it can change


class AmountOptions(StepOptions):
    """``[options.amounts]``: the words of a language's amounts (lowercase; see the module docstring)."""

    decimal_words: list[str] = Field(default_factory=list, description="Spoken decimal separator (komma, virgule).")
    currencies: dict[str, str] = Field(default_factory=dict,
                                       description="Currency name or symbol -> symbol (euro = '€', '€' = '€').")
    cents: list[str] = Field(default_factory=list, description="Words for hundredths of a currency (cent, centimes).")
    cents_joiners: list[str] = Field(default_factory=list,
                                     description="Words between units and cents (und, et, y, con, e, en).")
    currency_codes: list[str] = Field(default_factory=list,
                                      description="Currency names that may stand before the amount, as the symbols do "
                                                  "(ISO codes: chf). Every other name stands only after it.")
    percent: list[str] = Field(default_factory=list, description="Words for percent ('%' always counts).")
    per_mille: list[str] = Field(default_factory=list,
                                 description="Words for per mille ('‰' always counts): de 'promille', fr 'pour 1000'.")
    hour_words: list[str] = Field(default_factory=list,
                                  description="Words between hour and minutes (uhr, h, heures, uur).")
    clock_words: list[str] = Field(default_factory=list,
                                   description="Hour words that make a bare hour a clock time (uhr, h).")
    time_cues: list[str] = Field(default_factory=list,
                                 description="Words before an hour that make it a clock time (om, las, alle).")
    minute_joiners: list[str] = Field(default_factory=list,
                                      description="Words between hour and minutes after a time cue (e, y).")
    months: list[str] = Field(default_factory=list, description="Month names, for ordinal days.")
    date_joiner: str = Field("", description="Word between day and month (es 'de'), if any.")
    ordinal_marks: list[str] = Field(default_factory=list,
                                     description="Suffixes text2num writes after an ordinal ('.', 'e', 'er', 'º').")


_DIGIT = re.compile(r"\d")
_Rule = tuple["re.Pattern[str] | _Gated", Callable[[re.Match], str]]


class _Gated:
    """A rule's pattern behind a cheap test that every text the pattern matches passes (a
    necessary condition, led by a character class that ``re`` scans for in C): ``sub`` runs
    the pattern only where the test finds something, and returns the text itself elsewhere."""

    __slots__ = ("pattern", "search")

    def __init__(self, pattern: re.Pattern[str], gate: str) -> None:
        self.pattern = pattern
        self.search = re.compile(gate).search

    def sub(self, replacement: Callable[[re.Match], str], text: str) -> str:
        return text if self.search(text) is None else self.pattern.sub(replacement, text)


def _own_digits(replacement: Callable[[re.Match], str]) -> Callable[[re.Match], str]:
    """``replacement`` writing its digits in the script of the match's digits, and leaving a
    match whose digits mix scripts as written (module docstring). The rules' replacements keep
    the digits they read and write new ones in ASCII (``00``, ``int`` formatting); a match in
    one script other than ASCII holds no ASCII digit, so every ASCII digit of its output was
    written by the rule and takes the match's script."""
    def run(match: re.Match) -> str:
        zero = zero_of(match.group(0))
        if zero == "0":
            return replacement(match)
        if zero is None:
            return match.group(0)
        return in_script(replacement(match), zero)

    return run


def _contains_any(literals: list[str]) -> Callable[[str], bool]:
    """``text -> bool``: whether one of ``literals`` is in the text as written. Generated as
    one ``or`` of ``in`` tests (each a substring search in C): a regex alternation of the same
    words scans the text a character at a time, three to five times slower on a sentence."""
    body = " or ".join(f"{literal!r} in text" for literal in sorted(set(literals), key=len))
    return eval(f"lambda text: {body}")  # noqa: S307 (built from the config's own words, repr-quoted)


@dataclass(frozen=True)
class _Group:
    """Rules of one kind of amount, and the cheap test that says they can match: one of
    ``words`` is a word of the text (for rules that read it as a whole word, between spaces or
    text ends), or ``found`` finds what every match holds as written (the currency names and
    symbols, the percent words and ``%``, fr ``h`` after a digit for ``14h30``). A rule that
    reads a word glued to digits (``12euro``, ``25prozent``) is behind ``found``, never
    ``words``: a word test would look at a word (``12euro``) other than the one the rule reads
    (``euro``). The words are those of the text as it enters the step, ``found`` looks at the
    text as the earlier groups left it; no group's output is another group's word (the tests
    hold the step to its reading with every rule run, ``plain``)."""

    words: frozenset[str]
    found: Callable[[str], object] | None
    rules: list[_Rule]

    @classmethod
    def of(cls, phrases, rules: list[_Rule], literals: list[str] = (), probe: str = "") -> _Group:
        """``phrases``: the words (each phrase's first word); ``literals``: strings found as
        written (:func:`_contains_any`); ``probe``: a regex searched instead (not both)."""
        found = _contains_any(list(literals)) if literals else re.compile(probe).search if probe else None
        return cls(frozenset(phrase.split()[0] for phrase in phrases if phrase), found, rules)


def _money_rules(options: AmountOptions, decimal: str) -> list[_Rule]:
    if not options.currencies:
        return []
    dec = re.escape(decimal)
    number = rf"\d+(?:{dec}\d+)?"
    names = _alternation(options.currencies)
    symbols = options.currencies

    def amount(units: str, cents: str | None, name: str) -> str:
        symbol = symbols[name]
        if cents is None or int(cents) == 0:
            return f"{units}{symbol}"
        return f"{units}{decimal}{int(cents):02d}{symbol}" if len(cents) <= 2 else f"{units}{decimal}{cents}{symbol}"

    def split(value: str) -> tuple[str, str | None]:
        units, _, cents = value.partition(decimal)
        return units, (cents.ljust(2, "0") if cents else None)

    rules: list[_Rule] = []
    cent_words = _alternation(options.cents) if options.cents else None
    joiners = rf"(?:(?:{_alternation(options.cents_joiners)}) )?" if options.cents_joiners else ""
    cents_tail = rf"(?: (?:{cent_words}))?" if cent_words else ""
    # 12 euro 50 / 12 euro und 50 cent / 12 € 50
    # Each behind its necessary test (_Gated): digits, a space, a name and a space; a name
    # before a digit; a digit before a name.
    rules.append((_Gated(re.compile(rf"(?=\d)(?<!\S)(\d+) ({names}) {joiners}(\d{{1,2}}){cents_tail}(?!\S)"),
                         rf"\d (?:{names}) "),
                  lambda m: amount(m.group(1), m.group(3), m.group(2))))
    # € 12,50 / €12,50 / chf 20 (a symbol or code before the amount), unless a number stands
    # before it: that is the amount ("100 € 100" is 100€ and a 100, never "100 100€", which
    # spaced_digit_groups would join on a second pass). A spoken name never stands before the
    # amount: it is a word that may be a common noun before a count (fr "livre 20 pages", es
    # "libra 20"); "12 euro 50" is the rule above.
    prefixes = [name for name in symbols if not any(char.isalpha() for char in name) or name in options.currency_codes]
    if prefixes:
        before = _alternation(prefixes)
        rules.append((_Gated(re.compile(rf"(?<!\S)(?<!\d )({before}) ?({number})(?!\S)"), rf"(?:{before}) ?\d"),
                      lambda m: amount(*split(m.group(2)), m.group(1))))
    # 12,50 € / 12,50€ / 12,50 euro
    rules.append((_Gated(re.compile(rf"(?=\d)(?<!\S)({number}) ?({names})(?!\S)"), rf"\d ?(?:{names})"),
                  lambda m: amount(*split(m.group(1)), m.group(2))))
    if cent_words:  # last: the amounts step gives it a trigger of its own
        first = next(iter(symbols.values()))
        # 50 cent = 0,50 (the language's first currency)
        rules.append((re.compile(rf"(?=\d)(?<!\S)(\d{{1,2}}) (?:{cent_words})(?!\S)"),
                      lambda m: f"0{decimal}{int(m.group(1)):02d}{first}" if int(m.group(1)) else f"0{first}"))
    return rules


def _ratio_group(sign: str, words: list[str], decimal: str) -> _Group:
    """A number and its ratio, one written form: ``25 %`` = ``25%`` = ``25 prozent`` =
    ``25prozent`` = ``25%`` (``sign`` ``%``, ``words`` the config's ``percent``); ``5 ‰`` =
    ``5 promille`` = ``5‰`` (``‰``, ``per_mille``). The word is read glued to the digits too,
    so the test is a word or the sign anywhere in the text."""
    ratio = _alternation({*words, sign})
    return _Group.of([], [(re.compile(rf"(?=\d)(?<!\S)(\d+(?:{re.escape(decimal)}\d+)?) ?(?:{ratio})(?!\S)"),
                           lambda m: m.group(1) + sign)], literals=[*words, sign])


def _time_groups(options: AmountOptions) -> list[_Group]:
    """The time rules, each kind with its own trigger (a bare ``14:30`` needs none of them)."""
    groups: list[_Group] = []
    hour = rf"(?=\d)(?<![\d:,.])({digit_class('01')}?\d|{digit_class('2')}{digit_class('01234')})"
    minutes = rf"({digit_class('012345')}\d)"
    if options.hour_words:
        words = _alternation(options.hour_words)
        glued = "|".join(re.escape(w) for w in options.hour_words if w.isalpha() and len(w) == 1)
        if glued:  # 14h30 / 14h; the test is led by the letter, a literal ``re`` finds in C
            # (five times faster than a test led by a digit), the digit before it looked back at
            groups.append(_Group.of([], [(re.compile(rf"{hour}(?:{glued}){minutes}?(?!\S)"),
                                              lambda m: f"{int(m.group(1))}:{m.group(2) or '00'}")],
                                    probe=rf"(?:{glued})(?<=\d(?:{glued}))"))
        groups.append(_Group.of(options.hour_words, [
            (re.compile(rf"{hour} (?:{words}) {minutes}(?!\S)"), lambda m: f"{int(m.group(1))}:{m.group(2)}"),
            (re.compile(rf"{hour}(?::| ){minutes} (?:{words})(?!\S)"), lambda m: f"{int(m.group(1))}:{m.group(2)}")]))
    if options.clock_words:
        groups.append(_Group.of(options.clock_words, [(
            re.compile(rf"{hour} (?:{_alternation(options.clock_words)})(?!\S)"), lambda m: f"{int(m.group(1))}:00")]))
    if options.time_cues:
        cues = _alternation(options.time_cues)
        joiners = rf"(?: (?:{_alternation(options.minute_joiners)}))?" if options.minute_joiners else ""
        # A bare hour after a cue only before an hour word or at the end of the text: "las 3
        # casas" and "le 3 case" are not times.
        hour_word = rf" (?:{_alternation(options.hour_words)})(?!\S)|" if options.hour_words else ""
        groups.append(_Group.of(options.time_cues, [
            (re.compile(rf"(?<!\S)((?:{cues}) ){hour}{joiners} {minutes}(?!\S)"),
             lambda m: f"{m.group(1)}{int(m.group(2))}:{m.group(3)}"),
            (re.compile(rf"(?<!\S)((?:{cues}) ){hour}(?:{hour_word}$)"), lambda m: f"{m.group(1)}{int(m.group(2))}:00")]))
    return groups


@step("amounts", options=AmountOptions, idempotent=True,
      after={"spoken_numbers": "it reads amounts in digits (zwölf Euro = 12 Euro)",
             "lowercase": "it compares its words (euro, uhr) lowercase",
             "punctuation": "it reads words without their punctuation, the decimal separator kept"})
def amounts(config, lexicons, options: AmountOptions):
    """One written form for decimals, money, percentages, times and ordinal dates (module docstring).

    Input: lowercase text after ``spoken_numbers`` (numbers in digits, the decimal separator
    of the config between digits, ``€ $ £ %`` and ``:`` between digits kept by
    ``punctuation``). Output: the canonical forms, e.g. ``12,50€``, ``25%``, ``14:30``, ``3 märz``.
    """
    decimal = config.decimal_separator
    options = AmountOptions(**{
        name: (folded_keys(value, config) if isinstance(value, dict) else folded(value, config) if isinstance(value, list)
               else folded([value], config)[0]) for name, value in options.model_dump().items()})
    groups: list[_Group] = []
    if options.decimal_words:
        groups.append(_Group.of(options.decimal_words, [(
            re.compile(rf"(?=\d)(?<!\S)(\d+) (?:{_alternation(options.decimal_words)}) (\d+)(?!\S)"),
            lambda m: m.group(1) + decimal + m.group(2))]))
    groups.append(_ratio_group("%", options.percent, decimal))
    groups.append(_ratio_group("‰", options.per_mille, decimal))
    if options.currencies:
        # A currency is a symbol (€) or a name: a word (euro), or a phrase or an elided article
        # with it (es "de euros", fr "d'euros", after a scale: dos millones de euros = 2000000 de euros)
        money = _money_rules(options, decimal)
        cents_only = money.pop() if options.cents else None
        # Every money rule matches a currency name or symbol as written, glued to the digits
        # (12euro, euros12) or not: the names that hold no shorter name (es "de euros" holds
        # "euros", "dólares" holds "dólar") found as plain text are its test. (The first word
        # of each phrase was the test once: es and fr "de", a word of most texts, then ran the
        # rules, and "12euros" became 12€ only where "de" or "euros" stood elsewhere.)
        cover = [name for name in options.currencies
                 if not any(other != name and other in name for other in options.currencies)]
        groups.append(_Group.of([], money, literals=cover))
        if cents_only is not None:
            groups.append(_Group.of(options.cents, [cents_only]))
    groups.extend(_time_groups(options))
    if options.months and options.ordinal_marks:
        joiner = rf"{re.escape(options.date_joiner)} " if options.date_joiner else ""
        day = rf"{digit_class('123456789')}|{digit_class('12')}\d|{digit_class('3')}{digit_class('01')}"  # 1-31
        groups.append(_Group.of(options.months, [(
            re.compile(rf"(?=\d)(?<!\S)({day})(?:{_alternation(options.ordinal_marks)}) "
                       rf"({joiner}(?:{_alternation(options.months)}))(?!\S)"), lambda m: m.group(1) + " " + m.group(2))]))
    groups = [group for group in groups if group.rules]
    # Each group as (its words, its ``found`` test, its rules), read once: the loop below runs
    # for nearly every text (the corpora's texts hold digits), and one intersection with the
    # words of every group replaces a set of all the text's words.
    plan = [(group.words, group.found, [(pattern, _own_digits(replacement)) for pattern, replacement in group.rules])
            for group in groups]
    group_words = frozenset().union(*(group.words for group in groups))
    marked = [entry for entry in plan if entry[1] is not None]  # all a text with no group word can trigger

    def run(text: str) -> str:
        # The words as the text enters the step, ``found`` on the text as it stands (each a
        # necessary condition of its rules where they run: _Group).
        present = group_words.intersection(text.split())
        for words, marks, rules in (plan if present else marked):
            if (present and not words.isdisjoint(present)) or (marks is not None and marks(text)):
                for pattern, replacement in rules:
                    text = pattern.sub(replacement, text)
        return text

    def plain(text: str) -> str:
        """Every rule of every group, in order, with no test: the reading the tests hold ``run`` to."""
        for _, _, rules in plan:
            for pattern, replacement in rules:
                text = pattern.sub(replacement, text)
        return text

    run.plain = plain
    return triggered(_DIGIT, run)  # every rule starts at a digit


class ClockFractionOptions(StepOptions):
    """``[options.clock_fractions]``: phrases that place a clock time relative to an hour (lowercase)."""

    before_hour: dict[str, int] = Field(
        default_factory=dict, description="Phrase before the hour -> minutes from it (halb = -30, viertel nach = 15).")
    after_hour: dict[str, int] = Field(
        default_factory=dict, description="Phrase after the hour -> minutes from it (et demie = 30, menos cuarto = -15).")
    hour_words: list[str] = Field(default_factory=list,
                                  description="Words allowed between the hour and an after-hour phrase (heures).")


def _clock(hour: int, minutes: int) -> str:
    """``hour`` (1-12) plus ``minutes`` (-59..59) as ``H:MM`` on a 12-hour dial (``halb eins`` = 12:30)."""
    total = (hour * 60 + minutes) % (12 * 60)
    return f"{total // 60 or 12}:{total % 60:02d}"


@step("clock_fractions", options=ClockFractionOptions, idempotent=True,
      after={"spoken_numbers": "it reads the hour in digits (halb drei = halb 3)",
             "lowercase": "it compares its phrases lowercase"})
def clock_fractions(config, lexicons, options: ClockFractionOptions):
    """Half and quarter hours: de ``halb drei`` = ``2:30``, ``Viertel nach drei`` = ``3:15``;
    nl ``half drie`` = ``2:30``, ``kwart voor drie`` = ``2:45``; fr ``trois heures et demie`` =
    ``3:30``; es ``las dos y media`` = ``2:30``; it ``le due e mezza`` = ``2:30``.

    Input: text after ``spoken_numbers`` (the hour in digits). Only an hour 1-12 counts, and
    the result is a 12-hour dial time: the words do not say morning or afternoon, so ``halb
    drei`` is ``2:30`` and stays distinct from the written ``14:30`` (a documented decision,
    docs/european.md). A phrase with no hour next to it (``halb voll``, ``y media docena``) is
    left alone. Source: European reviewer reports ("halb drei" where it is unambiguous); Duden, "halb" (halb drei
    = 2:30).
    """
    options = ClockFractionOptions(before_hour=folded_keys(options.before_hour, config),
                                   after_hour=folded_keys(options.after_hour, config),
                                   hour_words=folded(options.hour_words, config))
    # An hour 1-12 in the decimal digits of any script, as the other number rules read them
    # (module docstring); the time is written in the hour's script (``_own_digits``).
    hour = rf"({digit_class('1')}{digit_class('012')}|{digit_class('123456789')})"
    before = after = None
    if options.before_hour:
        before = re.compile(rf"(?<!\S)({_alternation(options.before_hour)}) {hour}(?![\d:,.\w])")
    if options.after_hour:
        words = rf"(?: (?:{_alternation(options.hour_words)}))?" if options.hour_words else ""
        after = re.compile(rf"(?<![\d:,.\w]){hour}{words} ({_alternation(options.after_hour)})(?!\S)")

    phrases = (*options.before_hour, *options.after_hour)
    if not phrases:
        return lambda text: text
    # The trigger: a phrase anywhere in the text (a superset of where the rules match), one
    # compiled alternation instead of a substring search per phrase.
    gate = re.compile(_alternation(phrases))
    before_clock = _own_digits(lambda m: _clock(int(m.group(2)), options.before_hour[m.group(1)]))
    after_clock = _own_digits(lambda m: _clock(int(m.group(1)), options.after_hour[m.group(2)]))

    def run(text: str) -> str:
        if not _DIGIT.search(text):
            return text
        if before is not None:
            text = before.sub(before_clock, text)
        if after is not None:
            text = after.sub(after_clock, text)
        return text

    return triggered(gate, run)
