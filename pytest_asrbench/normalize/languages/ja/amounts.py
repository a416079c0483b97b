"""Japanese amounts: decimals, fractions, percentages, yen, times and units in one written form.

Step ``ja_amounts`` (after ``punctuation`` and ``ja_codes``, before ``ja_numbers``):

================  =======================================  ==================
class             spoken / written                         normal form
================  =======================================  ==================
decimal           二点五, 零点五, 三点一四                    2.5, 0.5, 3.14
fraction          四分の三, 3分の1                            3/4, 1/3
percentage        十五パーセント, 15パーセント, 15%, 15％      15%
yen               三百円, ¥300, ￥300, 300えん                300円
time              十二時半, 12:30, 12時30分                   12時30分
unit              五キロメートル, 5km, 5 km                    5キロメートル
================  =======================================  ==================

Sources: the numeral grammar of ``numbers.py`` (十 百 千 in a group of four, 万 億 兆 between
groups); decimals are read digit by digit after 点 (二点五 is にてんご); a fraction is
denominator 分の numerator (四分の三 "three of four parts"); percentages are パーセント (the
Japan Style Guide of the Microsoft Language Portal and NHK's 放送で使う数字の書き方 write
digits with ％). Unit abbreviations (``configs/ja/units.tsv``) are replaced only right after
digits, by the katakana word read for them (km = キロメートル). ``キロ`` and ``ミリ`` alone
are left as said: キロ is a kilometre or a kilogram, ミリ a millimetre or a millilitre.
``割`` (三割 = 30%) is another word and stays.

A numeral is converted here only inside one of these frames; elsewhere the characters are
words (一点 "one point, a spot", 十分の "enough", 一分 "one minute" stay for ``ja_numbers``).
The step is idempotent: its outputs are digits and the forms above.
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.languages.ja.numbers import DIGITS, LARGE_UNITS, SMALL_UNITS, numeral_value
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_NUMERAL = "0-9" + "".join(DIGITS) + "".join(SMALL_UNITS) + "".join(LARGE_UNITS)
_KANJI_DIGITS = "".join(DIGITS)
_N = rf"[{_NUMERAL}]++"
_TRIGGER = re.compile(rf"[{_NUMERAL}¥:]")


def _digits(numeral: str) -> str | None:
    """``numeral`` in digits: ASCII as is, kanji by :func:`numeral_value`; two kanji digits
    alone (二三, a range) or a malformed numeral give ``None``."""
    if numeral.isascii():
        return numeral
    if len(numeral) == 2 and all(char in DIGITS for char in numeral):
        return None
    value = numeral_value(numeral)
    return None if value is None else str(value)


def _decimal_digits(fraction: str) -> str | None:
    if fraction.isascii():
        return fraction
    if any(char not in DIGITS for char in fraction):
        return None
    return "".join(str(DIGITS[char]) for char in fraction)


def _number(whole: str, fraction: str | None) -> str | None:
    integer = _digits(whole)
    if integer is None:
        return None
    if fraction is None:
        return integer
    digits = _decimal_digits(fraction)
    return None if digits is None else f"{integer}.{digits}"


@step("ja_amounts", language="ja", idempotent=True)
def ja_amounts(config, lexicons):
    """Decimals, fractions, percentages, yen, clock times and unit abbreviations to one written
    form (the module docstring). Reads the lexicon ``units`` (abbreviation -> katakana word).

    Raises:
        ConfigError: the lexicon ``units`` is not declared under ``[lexicons]``.
    """
    units = dict(require_lexicon(lexicons, "units", "ja_amounts"))
    unit_words = "|".join(re.escape(unit) for unit in sorted(units, key=len, reverse=True))
    number = rf"(?P<whole>{_N})(?:(?:点|\.)(?P<fraction>[0-9{_KANJI_DIGITS}]++))?"
    pattern = re.compile("|".join((
        rf"(?P<denominator>{_N}) *分の *(?P<numerator>{_N})",
        rf"[¥] *{number.replace('whole', 'yen_whole').replace('fraction', 'yen_fraction')}(?: *円)?",
        rf"(?P<hour>{_N})(?::(?P<minute>[0-5][0-9])(?![0-9:])|時半)",
        rf"{number} *(?:(?P<percent>パーセント|%)|(?P<yen>円|えん)|(?P<unit>{unit_words})(?![a-z]))?",
    )))
    has_frame = re.compile(rf"[¥:]|分の|点|パーセント|%|えん|時半|[{_NUMERAL}] *(?:{unit_words})")

    def replace(match: re.Match) -> str:
        whole = match.group(0)
        if match.group("denominator"):
            denominator, numerator = _digits(match.group("denominator")), _digits(match.group("numerator"))
            return whole if denominator is None or numerator is None else f"{numerator}/{denominator}"
        if match.group("yen_whole"):
            value = _number(match.group("yen_whole"), match.group("yen_fraction"))
            return whole if value is None else value + "円"
        if match.group("hour"):
            hour = _digits(match.group("hour"))
            if hour is None or int(hour) > 24:
                return whole
            return f"{hour}時{match.group('minute') or '30'}分"
        fraction = match.group("fraction")
        if not (fraction or match.group("percent") or match.group("yen") or match.group("unit")):
            return whole  # a bare numeral: ja_numbers decides
        value = _number(match.group("whole"), fraction)
        if value is None:
            return whole
        if match.group("percent"):
            return value + "%"
        if match.group("yen"):
            return value + "円"
        if match.group("unit"):
            return value + units[match.group("unit")]
        return value

    def run(text: str) -> str:
        if not _TRIGGER.search(text) or not has_frame.search(text):
            return text
        out = pattern.sub(replace, text)
        return text if out == text else out

    return run
