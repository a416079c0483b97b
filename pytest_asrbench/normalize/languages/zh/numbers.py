"""Mandarin numbers in the reviewer normalizer: two renderings of one spoken number compare equal.

Step ``zh_numbers`` (default steps of ``configs/zh.toml``; never in the frozen zh-eval-v1
profiles, which keep numerals as written). It rewrites numbers said in Chinese numerals,
and the written forms of the same speech, to one written form:

================  ==========================================  ==================
class             spoken / written                            normal form
================  ==========================================  ==================
cardinal          三千四百, 两万, 三千五, 1万2千, 3.5万           3400, 20000, 3500, 12000, 35000
digit string      二零一九年, 幺三八, 一一〇                    2019年, 138, 110
decimal           二点七, 零点五, 三点一四                      2.7, 0.5, 3.14
percentage        百分之十五, 百分之三点五, 千分之五              15%, 3.5%, 5‰
fraction          四分之三, 三又四分之一 (not read)              3/4
date              二零一九年三月五日, 五号                       2019年3月5日, 5号
time              三点十分, 三点半, 三点一刻, 三点三刻, 十点十分十秒  3:10, 3:30, 3:15, 3:45, 10:10:10
money             五元, 五块钱, 三块五, 三元五角二分, 五毛钱, ¥5     5元, 5元, 3.5元, 3.52元, 0.5元, 5元
measure           五公里, 5 km, 三点五公斤                       5公里, 5公里, 3.5公斤
ordinal           第三, 第二十一                                第3, 第21
range             三到五公里, 十至二十个                         3到5公里, 10至20个
================  ==========================================  ==================

When a numeral is a number (sources: Yip & Rimmington, *Chinese: A Comprehensive Grammar*,
ch. 4; GB/T 15835-2011, *General rules for writing numerals in publications*):

- a numeral with a unit (``十 百 千 万 亿``) of two or more characters, a digit string of
  three or more digits (or two with ``零``: ``零八``), and a decimal are numbers anywhere;
- a lone digit (``一``, ``三``, ``两``) or ``十`` is a number only in a numeric context: a
  counter, measure word or unit after it (``configs/zh/counters.tsv``), ``第`` before it, or
  inside a time, a price, a percentage, a fraction or a range. Elsewhere it is part of a word
  and stays (``一定``, ``一些``, ``统一``, ``星期三``, ``十分`` "very");
- two digits side by side without a unit are an approximate count and stay (``三四个``
  "three or four", ``五六十``); so does a numeral that starts with ``百 千 万 亿``
  (``万一``, ``千万``, ``百分百``);
- words and idioms that the rules above would read as numbers are listed in
  ``configs/zh/not_numbers.tsv`` and stay whole (``三七二十一``, ``一点儿``, ``一块儿``).

Ambiguous forms stay (a case note says why): ``一点`` ("one o'clock" or "a little"),
``三块`` without ``钱`` or a minor unit ("three yuan" or "three pieces": the count is written,
``3块``, never ``3元``), ``五毛`` without ``钱``
(also a name, 三毛), ``三角`` (also "triangle"), ``九八年`` (1998 or "nine or eight years").

The output keeps ``%``, ``‰``, ``:`` and ``/`` between digits: ``configs/zh.toml`` keeps them
in its ``punctuation`` options. Traditional forms (``萬 億 兩 點 塊 錢``) are read too, so
the step works with or without script folding before it. The step is idempotent: digits and
the normal forms above are never read again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from pytest_asrbench.normalize.languages.zh.numerals import (
    CHINESE_NUMERAL_CHARS,
    LARGE_UNITS,
    digit_string,
    numeral_value,
)
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.phrases import trie_pattern
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_C = CHINESE_NUMERAL_CHARS + "0-9"
_D = "零〇一二三四五六七八九0-9"  # digits after a decimal point
#: A number as spoken or written: a numeral, an optional decimal part and an optional large
#: unit after the decimal part (三点五万, 3.5万).
_NUM = rf"(?:[{_C}]++(?:(?:[点點]|\.(?=[0-9]))[{_D}]++[万萬亿億]?)?)"
_INT = rf"(?:[{_C}]++)"
_POINT = "[点點]"
_MINOR = rf"[{_D}两兩]"
#: Replacements kept per step before the cache starts over.
_CACHE_SIZE = 50_000
_QUARTERS = {"半": "30", "一刻": "15", "三刻": "45"}
#: A decimal point, spoken or written (compiled once: read for every new number token).
_POINT_OR_DOT = re.compile("[点點.]")


def _fraction_digits(text: str) -> str | None:
    return digit_string(text) if text and not text.isascii() else (text or None)


def _decimal_number(number: str) -> Decimal | None:
    """The value of a number token (:data:`_NUM`) as a ``Decimal``, or ``None``."""
    whole, *rest = _POINT_OR_DOT.split(number, maxsplit=1)
    integer = _count(whole)
    if integer is None:
        return None
    if not rest:
        return Decimal(integer)
    fraction, scale = rest[0], 1
    if fraction and fraction[-1] in LARGE_UNITS:
        fraction, scale = fraction[:-1], LARGE_UNITS[fraction[-1]]
    digits = _fraction_digits(fraction)
    if digits is None:
        return None
    return Decimal(f"{integer}.{digits}") * scale


def _count(numeral: str) -> int | None:
    """A numeral read as a count: digits, one Chinese digit, or a numeral with units."""
    if numeral.isascii():
        return int(numeral) if numeral.isdigit() else None
    return numeral_value(numeral)


def _plain(value: Decimal) -> str:
    """``Decimal`` written without exponent or trailing zeros (``3.50`` -> ``3.5``)."""
    text = format(value.normalize(), "f")
    return text


def _number_text(number: str, *, in_context: bool) -> str | None:
    """The digits of a number token, or ``None`` when it stays as written.

    ``in_context``: a counter, ``第`` or another numeric frame surrounds it, so a lone digit
    counts; without it only multi-character numerals, digit strings and decimals do."""
    if number.isascii():
        return None  # already digits: the written form is the normal form
    if _POINT_OR_DOT.search(number):
        value = _decimal_number(number)
        return None if value is None else _plain(value)
    strings = digit_string(number)
    if strings is not None and len(number) > 1:
        if len(number) >= 3 or any(char in "零〇" for char in number):
            return strings
        return None  # 三四: an approximate count
    value = numeral_value(number)
    if value is None:
        return None
    if len(number) == 1 and not in_context:
        return None
    return str(value)


def _clock_part(part: str) -> int | None:
    """Minutes or seconds: ``十`` -> 10, ``零五`` -> 5, ``三零`` -> 30, ``05`` -> 5."""
    if part.isascii():
        return int(part) if part.isdigit() else None
    value = numeral_value(part)
    if value is None:
        strings = digit_string(part)
        value = None if strings is None else int(strings)
    return value


def _time(hour: str, minute: str | None, second: str | None) -> str | None:
    """``H:MM`` or ``H:MM:SS``, or ``None`` when a part is out of range (25点, 70分)."""
    hours = _count(hour)
    if hours is None or hours > 24:
        return None
    parts = [str(hours)]
    for part in (minute, second):
        if part is None:
            break
        value = _clock_part(part)
        if value is None or value >= 60:
            return None
        parts.append(f"{value:02d}")
    return ":".join(parts)


def _minor_digit(char: str | None) -> int:
    if not char:
        return 0
    return int(char) if char.isascii() else numeral_value(char) or 0


#: The most significant digits ``Decimal`` keeps (its default context's precision): an
#: amount of ASCII digits up to this long reads the same as a Python ``int``.
_EXACT_DIGITS = 28


def _money(number: str, jiao: str | None, fen: str | None) -> str | None:
    if not jiao and not fen:  # whole yuan (the common case): an int, no Decimal arithmetic
        if number.isascii():
            if number.isdigit() and len(number) <= _EXACT_DIGITS:
                return f"{int(number)}元"
        elif _POINT_OR_DOT.search(number) is None:
            integer = _count(number)
            if integer is None:
                return None
            if integer < 10**_EXACT_DIGITS:
                return f"{integer}元"
    value = _decimal_number(number) if not number.isascii() else Decimal(number)
    if value is None:
        return None
    value += Decimal(_minor_digit(jiao)) / 10 + Decimal(_minor_digit(fen)) / 100
    return _plain(value) + "元"


def _alternation(words) -> str:
    """A regex matching any of ``words``, written as a trie (one branch per first character),
    so a failed lookup costs one character test, not one per word."""
    return trie_pattern(sorted(words))


#: A numeral run: what ``_INT`` and ``_NUM`` read first, possessively.
_RUN = re.compile(f"[{_C}]*+")
_RUN_CHARS = CHINESE_NUMERAL_CHARS + "0123456789"
#: The characters after a numeral run (the possessive ``[_C]++`` every numeric form starts
#: with) that a form needs there; ``None``: any character, or the end of the text.
_DECIMAL_MARKS = "点點."
_FOLLOWERS: dict[str, str | None] = {
    "pct": "分", "fd": "分", "th": "点點", "hh": "点點", "ma": _DECIMAL_MARKS + " 元",
    "mb": _DECIMAL_MARKS + "块塊", "mm": "毛角", "rl": _DECIMAL_MARKS + "到至~-—",
    "cn": _DECIMAL_MARKS + " ", "hour": "点點", "dayhour": "点點", "nhour": "点點", "bare": None,
}
#: The forms that start with a character other than a numeral's (¥, 第).
_NOT_AT_RUNS = ("yen", "ord")


def _forms(counters: tuple[str, ...], kept: tuple[str, ...]) -> dict[str, str]:
    """``{form: regex}`` of every number form, in the order they are tried (the first that
    matches at a position wins). Each regex names its parts for :func:`_replace`."""
    counter = _alternation(counters)
    kept_words = _alternation(kept)
    forms = {
        "kept": rf"(?P<kept>(?:{kept_words})(?![{_C}]))" if kept else "",
        "pct": rf"(?P<pct>百分之|千分之)(?P<pn>{_NUM})",
        "fd": rf"(?P<fd>{_INT})分之(?P<fn>{_NUM})",
        "yen": rf"[¥￥] *(?P<yen>[0-9]+(?:\.[0-9]+)?|{_NUM})(?: *元)?",
        "th": rf"(?P<th>{_INT}){_POINT}(?P<tm>{_INT})分(?:钟|鐘)?(?:(?P<ts>{_INT})秒)?",
        "hh": rf"(?P<hh>{_INT}){_POINT}(?P<hq>半|一刻|三刻)",
        "ma": rf"(?P<ma>{_NUM}) *元(?:(?P<mj>{_MINOR})[角毛])?(?:(?P<mf>{_MINOR})分)?(?:钱|錢)?",
        "mb": rf"(?P<mb>{_NUM})[块塊](?:(?P<bj>{_MINOR})(?:[毛角])?(?:(?P<bf>{_MINOR})分)?(?:钱|錢)?|钱|錢)",
        "mm": rf"(?P<mm>{_MINOR})[毛角](?:(?P<mmf>{_MINOR})分)?(?:钱|錢)",
        "ord": rf"第(?P<ord>{_NUM})",
        "rl": rf"(?P<rl>{_NUM})(?P<rs>到|至|~|-|—)(?P<rr>{_NUM})(?= *(?:{counter}))",
        "cn": rf"(?P<cn>{_NUM})(?= *(?:{counter}))",
        "hour": rf"(?P<hour>{_INT})(?={_POINT}(?:钟|鐘|整))",
        "dayhour": rf"(?<=上午|下午|早上|晚上|凌晨|中午|傍晚|半夜|夜里|今天|明天|昨天)(?P<dayhour>{_INT})(?={_POINT}(?![{_D}儿兒]))",
        "nhour": rf"(?P<nhour>{_INT})(?={_POINT}(?![{_D}儿兒点點]))",
        "bare": rf"(?P<bare>{_NUM})",
    }
    return {form: regex for form, regex in forms.items() if regex}


def _alternation_of(forms: dict[str, str], chosen) -> re.Pattern[str]:
    """The forms ``chosen`` (in the order of ``forms``) as one alternation, each in a group
    ``_<form>``, so ``match.lastgroup`` names the form that matched."""
    return re.compile("|".join(f"(?P<_{form}>{forms[form]})" for form in forms if form in chosen))


@dataclass(frozen=True)
class _Dispatch:
    """The number forms, split by what can start at a position (:func:`_compile`).

    ``at_run[c]`` (``other_run`` for any other ``c``, or the end of the text) is the
    alternation of the forms, in their order, that can match where a numeral run is followed
    by the character ``c``; ``not_at_run`` those that can start elsewhere (¥, 第, a kept word
    that starts so). Every numeric form starts with a possessive numeral run (the same run
    for all) and then needs one of its :data:`_FOLLOWERS`, so a form left out cannot match
    there, and the first form that matches is the one the whole alternation finds: the same
    replacement with fewer forms tried (``tests/test_mandarin.py`` compares the two on every
    position of thousands of seeded strings)."""

    at_run: dict[str, re.Pattern[str]]
    other_run: re.Pattern[str]
    not_at_run: re.Pattern[str]

    def matcher(self) -> Callable[[str, re.Match], re.Match | None]:
        """``match_at(text, start)``: the first form that matches where the step's trigger
        matched (``start``), or ``None``; the alternation tried is picked by the character
        after the numeral run there. A closure over bound methods: it runs at every number of
        every text."""
        match_at_run = {char: pattern.match for char, pattern in self.at_run.items()}.get
        match_other_run = self.other_run.match
        match_not_at_run = self.not_at_run.match
        numeral_run = _RUN.match

        def match_at(text: str, start: re.Match) -> re.Match | None:
            position = start.start()
            if start.lastgroup == "run":  # a numeral: the trigger read its whole run
                end = start.end()
            elif text[position] in _RUN_CHARS:  # a digit that starts a kept word
                end = numeral_run(text, position).end()
            else:  # ¥, 第, a kept word
                return match_not_at_run(text, position)
            return match_at_run(text[end:end + 1], match_other_run)(text, position)

        return match_at


class _Compiled(NamedTuple):
    """What :func:`_compile` builds for one set of lexicons."""

    #: The number forms to try where a form can start (:class:`_Dispatch`).
    dispatch: _Dispatch
    #: The unit abbreviations after digits (``None``: no units).
    unit_pattern: re.Pattern[str] | None
    #: Where a number form can start, searched by the step from each resume position.
    trigger: re.Pattern[str]
    #: Found in every text the step can change (the step's pipeline trigger).
    can_change: re.Pattern[str]


#: What makes digits written as digits part of a Chinese number form when it follows their
#: run of digits and points (3点半, 5块钱, 3千, 3.5万).
_DIGITS_BEFORE = "点點块塊元万萬亿億千百十分毛角到至~"


@lru_cache(maxsize=8)
def _compile(counters: tuple[str, ...], kept: tuple[str, ...], units: tuple[str, ...]) -> _Compiled:
    """The number forms (:class:`_Dispatch`), the unit abbreviations after digits, where a
    number form can start, and which texts the step can change (:class:`_Compiled`)."""
    forms = _forms(counters, kept)
    followers = dict(_FOLLOWERS, cn=_FOLLOWERS["cn"] + "".join({word[0] for word in counters}))
    # A kept word matches where its own numeral run is followed by its next character; a word
    # of numerals only (三七二十一) after any character; one that starts otherwise, off runs.
    kept_after, kept_anywhere, kept_off_runs = set(), False, False
    for word in kept:
        run = len(word) - len(word.lstrip(_RUN_CHARS))
        if run == 0:
            kept_off_runs = True
        elif run == len(word):
            kept_anywhere = True
        else:
            kept_after.add(word[run])
    followers["kept"] = None if kept_anywhere else "".join(sorted(kept_after))

    def at_run(char: str | None) -> frozenset[str]:
        return frozenset(form for form in forms if form not in _NOT_AT_RUNS and (
            followers[form] is None or (char is not None and char in followers[form])))

    compiled: dict[frozenset[str], re.Pattern[str]] = {}

    def alternation(chosen: frozenset[str]) -> re.Pattern[str]:
        if chosen not in compiled:
            compiled[chosen] = _alternation_of(forms, chosen)
        return compiled[chosen]

    dispatch = _Dispatch(
        at_run={char: alternation(at_run(char))
                for char in sorted({char for chars in followers.values() if chars for char in chars})},
        other_run=alternation(at_run(None)),
        not_at_run=alternation(frozenset(form for form in forms if form in _NOT_AT_RUNS
                                         or (form == "kept" and kept_off_runs))))
    unit_pattern = re.compile(rf"(?<=[0-9]) *(?P<unit>{_alternation(units)})(?![a-z])") if units else None
    # Where a form can start: a numeral, ¥, 第, or the first character of a kept word. The
    # step tries the forms at these positions only (re.sub would try every position). One
    # leading character class, so ``re`` skips to the candidates in C; after a numeral, group
    # ``run`` reads the rest of its numeral run. Digits written as digits start a form only
    # before a character that makes them part of a Chinese number form (3点半, 5块钱, 3千,
    # 3.5万); elsewhere they are already the normal form.
    #
    # A lone numeral (its run is one character long: 一定, 一些, 他说三遍's 三 is not lone
    # only because 遍 is a counter) followed by a character that picks no form of its own
    # (``other_run``) is left out too, when the forms leave it as it is: there only a kept
    # word or ``bare`` can match, a kept word needs its second character next (left in,
    # ``kept_seconds``), and ``bare`` reads the one character, which a lone numeral out of
    # context never changes (:func:`_number_text`; ``lone_stays`` asks it for every numeral).
    # The step would have matched that one character, kept it and gone on from the next one,
    # which is where the search goes on from anyway. Chat (一定, 一下, 一起) then costs no
    # number form at all.
    others = "".join(re.escape(char) for char in sorted(
        (set("¥￥第") | {word[0] for word in kept}) - set(CHINESE_NUMERAL_CHARS)))
    lone_stays = "".join(char for char in CHINESE_NUMERAL_CHARS if _number_text(char, in_context=False) is None)
    lone_changes = "".join(char for char in CHINESE_NUMERAL_CHARS if char not in lone_stays)
    kept_seconds = {word[1] for word in kept if len(word) > 1}
    not_lone = "".join(re.escape(char) for char in sorted(set(dispatch.at_run) | kept_seconds | set(_RUN_CHARS)))
    numeral = f"(?<=[{lone_stays}])(?=[{not_lone}])" + (f"|(?<=[{lone_changes}])" if lone_changes else "")
    trigger = re.compile(f"[{CHINESE_NUMERAL_CHARS}0-9{others}]"
                         f"(?:(?:{numeral}|(?<=[0-9])(?=[0-9.]*+[{_DIGITS_BEFORE}]))(?P<run>[{_C}]*+)"
                         + (f"|(?<=[{others}])" if others else "") + ")")
    # The step's pipeline trigger: where ``trigger`` can match, or where a unit can follow a
    # digit. Digits are not in its leading character class (``re`` starts a match attempt at
    # every character of that class, eleven for a phone number): the characters after them
    # are, with lookbehinds that are a superset of the step's own tests (a point before 元
    # need not follow a digit; any number of spaces before a unit is "at most one space after
    # a digit, or two spaces"), which only costs a run of the step on a rare text. A text it
    # does not find (a third of generated utterances: 增长了15%, phone numbers and clock times
    # in digits, chat) has no number form and no unit to read, and stays as it is.
    unit_firsts = "".join(sorted({re.escape(unit[0]) for unit in units}))
    units_after = f"|(?<=[0-9][{unit_firsts}])|(?<=[0-9] [{unit_firsts}])|(?<=  [{unit_firsts}])" if units else ""
    digits_before = "".join(re.escape(char) for char in _DIGITS_BEFORE)
    can_change = re.compile(f"[{CHINESE_NUMERAL_CHARS}{others}{digits_before}{unit_firsts}]"
                            f"(?:{numeral}" + (f"|(?<=[{others}])" if others else "")
                            + f"|(?<=[0-9.][{digits_before}]){units_after})")
    return _Compiled(dispatch, unit_pattern, trigger, can_change)


def _replace(kind: str, match: re.Match, units: dict[str, str]) -> str:
    group = match.group
    whole = match.group(0)
    if kind == "_kept":
        return whole
    if kind == "_pct":
        text = _number_text(group("pn"), in_context=True) or (group("pn") if group("pn").isascii() else None)
        return whole if text is None else text + ("%" if group("pct") == "百分之" else "‰")
    if kind == "_fd":
        denominator = _number_text(group("fd"), in_context=True) or _ascii(group("fd"))
        numerator = _number_text(group("fn"), in_context=True) or _ascii(group("fn"))
        return whole if denominator is None or numerator is None else f"{numerator}/{denominator}"
    if kind == "_yen":
        money = _money(group("yen"), None, None)
        return whole if money is None else money
    if kind == "_th":
        text = _time(group("th"), group("tm"), group("ts"))
        return whole if text is None else text
    if kind == "_hh":
        text = _time(group("hh"), None, None)
        return whole if text is None else f"{text}:{_QUARTERS[group('hq')]}"
    if kind == "_ma":
        money = _money(group("ma"), group("mj"), group("mf"))
        return whole if money is None else money
    if kind == "_mb":
        money = _money(group("mb"), group("bj"), group("bf"))
        return whole if money is None else money
    if kind == "_mm":
        money = _money("0", group("mm"), group("mmf"))
        return whole if money is None else money
    if kind == "_ord":
        text = _number_text(group("ord"), in_context=True)
        return whole if text is None else "第" + text
    if kind == "_rl":
        left = _number_text(group("rl"), in_context=True) or _ascii(group("rl"))
        right = _number_text(group("rr"), in_context=True) or _ascii(group("rr"))
        return whole if left is None or right is None else left + group("rs") + right
    if kind == "_cn":
        text = _number_text(group("cn"), in_context=True)
        return whole if text is None else text
    if kind in ("_dayhour", "_nhour"):
        hour = group(kind[1:])
        text = _time(hour, None, None)
        if text is None or (kind == "_nhour" and _count(hour) == 1):
            return whole  # 一点: "one o'clock" or "a little"
        return text
    if kind == "_hour":
        text = _time(group("hour"), None, None)
        return whole if text is None else text
    text = _number_text(group("bare"), in_context=False)
    return whole if text is None else text


def _ascii(number: str) -> str | None:
    return number if number.isascii() else None


@step("zh_numbers", language="zh", idempotent=True)
def zh_numbers(config, lexicons):
    """Mandarin numbers to one written form (the module docstring). Reads the lexicons
    ``counters`` (numeric contexts), ``not_numbers`` (words kept whole) and ``units`` (unit
    abbreviations after digits: ``5 km`` = ``5公里``). Runs after ``lowercase`` and
    ``digit_groups`` and before ``punctuation``.

    Raises:
        ConfigError: a lexicon is not declared under ``[lexicons]``.
    """
    counters = require_lexicon(lexicons, "counters", "zh_numbers")
    kept = require_lexicon(lexicons, "not_numbers", "zh_numbers")
    units = dict(require_lexicon(lexicons, "units", "zh_numbers"))
    dispatch, unit_pattern, trigger, can_change = _compile(tuple(counters), tuple(kept), tuple(units))
    match_at = dispatch.matcher()
    search = trigger.search
    # A unit abbreviation can follow a digit only where a digit, spaces and its first letter meet.
    unit_start = re.compile("[0-9] *[" + "".join(sorted({re.escape(unit[0]) for unit in units})) + "]").search \
        if units else None
    read_unit = None if unit_pattern is None else unit_pattern.sub
    unit_word = (lambda match: units[match.group("unit")])
    # (form, matched text) -> replacement: the same number forms recur across texts.
    cache: dict[tuple[str, str], str] = {}
    cached = cache.get

    def run(text: str) -> str:
        start = search(text)
        pieces, done = [], 0
        while start is not None:
            match = match_at(text, start)
            if match is None:
                start = search(text, start.start() + 1)
                continue
            whole = match.group()
            key = (match.lastgroup, whole)
            replacement = cached(key)
            if replacement is None:
                if len(cache) >= _CACHE_SIZE:
                    cache.clear()
                replacement = cache[key] = _replace(match.lastgroup, match, units)
            if replacement != whole:  # a number that stays as written (万一) is left in place
                pieces.append(text[done:match.start()])
                pieces.append(replacement)
                done = match.end()
            start = search(text, match.end())
        if pieces:
            pieces.append(text[done:])
            out = "".join(pieces)
        else:
            out = text
        if unit_start is not None and unit_start(out) is not None:  # a unit is read after a digit only
            out = read_unit(unit_word, out)
        return text if out == text else out

    return triggered(can_change, run)
