"""The value of a Mandarin numeral: ``三千四百`` -> 3400, ``两万`` -> 20000, ``二零一九`` -> "2019".

The grammar is the standard one of Modern Standard Chinese (Yip & Rimmington, *Chinese: A
Comprehensive Grammar*, ch. 4 "Numerals"; GB/T 15835-2011 for how numbers are written):

- digits ``零/〇 一 二 三 四 五 六 七 八 九``, and ``两/兩`` (2, before a unit or a counter);
- ``十 百 千`` inside a group of four digits, ``万/萬`` (10^4) and ``亿/億`` (10^8) between
  groups (``三亿五千万`` = 350,000,000);
- ``零`` marks skipped places (``一千零五`` = 1005);
- a leading ``十`` needs no ``一`` (``十五`` = 15); ``百 千 万 亿`` do (a numeral that starts with
  one of them is a word: ``千万`` "by all means", ``万一`` "in case", ``百分百``);
- the colloquial abbreviation of a last digit (``三千五`` = 3500, ``一万二`` = 12000,
  ``两百五`` = 250): a single digit right after ``百``, ``千``, ``万`` or ``亿`` (no ``零``
  between) counts in the next lower place.

A digit string is read digit by digit (years, phone numbers, codes: ``二零一九`` = ``2019``,
``幺三八`` = ``138``; ``幺`` is the "one" of phone numbers and codes).
ASCII digits may stand for the digits of a numeral (``3万`` = 30000, ``1万2千`` = 12000).
Traditional characters (``萬 億 兩``) read as their Simplified forms.
"""

from __future__ import annotations

#: Digit characters and their values (``两`` and ``幺`` are digits in their own contexts only).
DIGITS: dict[str, int] = {"零": 0, "〇": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
                          "九": 9, "两": 2, "兩": 2, "幺": 1}
#: Units inside a group of four digits.
SMALL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
#: Units between groups.
LARGE_UNITS: dict[str, int] = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
#: Every character of a numeral written in Chinese.
CHINESE_NUMERAL_CHARS = "".join(DIGITS) + "".join(SMALL_UNITS) + "".join(LARGE_UNITS)
#: Digits of a digit string (``两`` is never read in one; ``幺`` only in one).
STRING_DIGITS = "零〇一二三四五六七八九幺"


#: ``str.translate`` table: each digit of a digit string to its ASCII digit.
_STRING_DIGIT_TABLE = str.maketrans({char: str(DIGITS[char]) for char in STRING_DIGITS})


def _digit(char: str) -> int | None:
    if "0" <= char <= "9":
        return ord(char) - 48
    return DIGITS.get(char)


def digit_string(numeral: str) -> str | None:
    """``numeral`` read digit by digit (``"二零一九"`` -> ``"2019"``), or ``None`` when it holds a
    unit, ``两`` or another character."""
    if not numeral:
        return None
    digits = numeral.translate(_STRING_DIGIT_TABLE)  # one C pass; ASCII digits stay as they are
    return digits if digits.isascii() and digits.isdigit() else None


def numeral_value(numeral: str) -> int | None:
    """The value of a numeral with units (``"三千四百"`` -> 3400, ``"一千零五"`` -> 1005,
    ``"三千五"`` -> 3500, ``"1万2千"`` -> 12000), or ``None`` when it is not a well-formed
    numeral: it starts with ``百 千 万 亿`` (a word: ``万一``, ``千万``), repeats or misorders a
    unit (``十十``, ``百千``), holds several digits before a unit (``五六十``, an approximate
    range), or uses ``幺``. A numeral of digits alone is read as a count only when it is one
    digit (``"三"`` -> 3); longer ones are digit strings (:func:`digit_string`)."""
    if not numeral or numeral[0] in "百千万萬亿億" or "幺" in numeral:
        return None
    total, group, digits = 0, 0, None
    last_small, last_large = 10**5, 10**13
    zero_seen = False
    previous_unit = None  # the unit right before the current digits, for the abbreviation
    count = 0
    for char in numeral:
        value = _digit(char)
        if value is not None:
            count += 1
            if char in "零〇" or char == "0" and digits is None and previous_unit is not None:
                zero_seen = True
                digits = None if digits is None else digits * 10
                continue
            if digits is not None and previous_unit is not None and not numeral.isascii():
                return None  # two digits after a unit (三千五六): a range
            digits = (digits or 0) * 10 + value
            continue
        if char in SMALL_UNITS:
            unit = SMALL_UNITS[char]
            if unit >= last_small or (digits is not None and digits > 9):
                return None
            group += (1 if digits is None else digits) * unit
            digits, last_small, previous_unit, zero_seen = None, unit, unit, False
            continue
        unit = LARGE_UNITS.get(char)
        if unit is None or unit >= last_large or (digits is not None and digits > 9 and last_small < 10**5):
            return None
        group += digits or 0
        if group == 0:
            return None
        total += group * unit
        group, digits, last_small, last_large, previous_unit, zero_seen = 0, None, 10**5, unit, unit, False
    if digits is not None:
        if digits > 9 and last_small < 10**5:
            return None
        if previous_unit is not None and previous_unit >= 100 and not zero_seen and digits <= 9:
            digits *= previous_unit // 10  # 三千五 = 3500
    if count == len(numeral) and len(numeral) > 1 and not numeral.isascii():
        return None  # digits only: a digit string or a range, never a count
    return total + group + (digits or 0)
