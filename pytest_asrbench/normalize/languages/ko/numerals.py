"""Korean numerals: the value of a Sino-Korean, native or spoken-digit number word.

Pure functions over one written word (no context); :mod:`.numbers` decides where a numeral
is a number. Grammar sources: 표준 국어 문법 (Sino-Korean numerals group by 만, 10^4; native
numerals go up to 99), and the original requirements' examples (이십오일, 만 이천 원, 열두 시, 공일공).
"""

from __future__ import annotations

import re

#: Sino-Korean digits (일 … 구); 영/공 (zero) appear only in spoken digit strings.
SINO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
#: Units inside a 만-group, and the 만-grouping units (10^4 steps).
SMALL_UNITS = {"십": 10, "백": 100, "천": 1_000}
BIG_UNITS = {"만": 10**4, "억": 10**8, "조": 10**12}
#: Native numerals as they stand before a counter (관형사 forms: 한 두 세 네 스무), ones and tens.
NATIVE_ONES = {"한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "넉": 4, "다섯": 5, "여섯": 6, "일곱": 7,
               "여덟": 8, "아홉": 9}
NATIVE_TENS = {"열": 10, "스무": 20, "스물": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60,
               "일흔": 70, "여든": 80, "아흔": 90}
#: Syllables of a spoken digit string (a phone number read digit by digit): 공일공 = 010.
DIGIT_SYLLABLES = {"공": "0", "영": "0", **{syllable: str(value) for syllable, value in SINO_DIGITS.items()}}

_D = "[일이삼사오육칠팔구]"
_COEF = rf"(?:{_D}|\d)"
# One 만-group below 10^4, written in syllables (a single ASCII digit may stand before a unit: 2천).
_GROUP = rf"(?:{_COEF}?천)?(?:{_COEF}?백)?(?:{_COEF}?십)?{_D}?"
_BIG_COEF = rf"(?:{_GROUP}|\d{{1,4}})"
# 조 needs a coefficient (조 alone is a surname and 조원 "team member"); 만 and 억 alone are 10^4, 10^8.
_SINO = re.compile(rf"(?:{_BIG_COEF}(?<!^)조)?(?:{_BIG_COEF}억)?(?:{_BIG_COEF}만)?{_GROUP}")
_SINO_TOKEN = re.compile(r"\d+|[일이삼사오육칠팔구십백천만억조]")
_TENS = "|".join(sorted(NATIVE_TENS, key=len, reverse=True))
_ONES = "|".join(sorted(NATIVE_ONES, key=len, reverse=True))
_NATIVE = re.compile(rf"(?P<tens>{_TENS})?(?P<ones>{_ONES})?")
_DIGIT_STRING = re.compile(f"[{''.join(DIGIT_SYLLABLES)}]+")
_ASCII = re.compile(r"\d+")
_HANGUL_NUMERAL = re.compile(r"[일이삼사오육칠팔구십백천만억조]")


def sino_value(word: str) -> int | None:
    """The value of a written Sino-Korean numeral, or ``None`` when ``word`` is not one.

    ``"이십오"`` -> 25, ``"만"`` -> 10000, ``"삼천오백"`` -> 3500, ``"1만"`` -> 10000,
    ``"2억3천만"`` -> 230000000; ``"오일"``, ``"천천"`` and ``"이삼"`` are not well formed
    (two ones, a unit twice, two digits) and give ``None``. A word of ASCII digits alone is
    not a Sino numeral (see :func:`numeral_value`).
    """
    if not word or not _SINO.fullmatch(word) or not _HANGUL_NUMERAL.search(word) or word.startswith("조"):
        return None
    total = group = 0
    coefficient: int | None = None
    for token in _SINO_TOKEN.findall(word):
        if token in SMALL_UNITS:
            group += (coefficient or 1) * SMALL_UNITS[token]
            coefficient = None
        elif token in BIG_UNITS:
            group += coefficient or 0
            total += (group or 1) * BIG_UNITS[token]
            group, coefficient = 0, None
        else:
            coefficient = int(token) if token.isdigit() else SINO_DIGITS[token]
    return total + group + (coefficient or 0)


def native_value(word: str) -> int | None:
    """The value of a native numeral as it stands before a counter (1-99), or ``None``.

    ``"열두"`` -> 12, ``"스무"`` -> 20, ``"한"`` -> 1, ``"서른다섯"`` -> 35; ``"하나"`` (the
    form without a counter) and ``"열열"`` give ``None``.
    """
    match = _NATIVE.fullmatch(word) if word else None
    if match is None:
        return None
    return NATIVE_TENS.get(match["tens"] or "", 0) + NATIVE_ONES.get(match["ones"] or "", 0)


def numeral_value(word: str) -> tuple[int, str] | None:
    """``(value, system)`` of a numeral word: ``"sino"``, ``"native"`` or ``"digits"`` (ASCII).

    A word that reads both ways is Sino-Korean first (no word does today: the two sets of
    syllables are disjoint except 세/네 and 이, which only one of them has).
    """
    if _ASCII.fullmatch(word):
        return int(word), "digits"
    value = sino_value(word)
    if value is not None:
        return value, "sino"
    value = native_value(word)
    if value is not None:
        return value, "native"
    return None


def digit_string(word: str) -> str | None:
    """The digits of a word made only of spoken digit syllables (``"공일공"`` -> ``"010"``),
    else ``None``. Whether such a word is a digit string is :mod:`.numbers`' decision."""
    if not _DIGIT_STRING.fullmatch(word):
        return None
    return "".join(DIGIT_SYLLABLES[syllable] for syllable in word)


#: Every character a numeral word of :func:`numeral_value` can hold besides digits (``\\d``, as
#: its patterns read them): the Sino-Korean digits and units, the native numerals' syllables.
NUMERAL_SYLLABLES = frozenset("".join([*SINO_DIGITS, *SMALL_UNITS, *BIG_UNITS, *NATIVE_ONES, *NATIVE_TENS]))
_NUMERAL_RUN = re.compile(rf"[\d{''.join(sorted(NUMERAL_SYLLABLES))}]*")
_DIGIT_RUN = re.compile(f"[{''.join(DIGIT_SYLLABLES)}]*")


def numeral_prefix_length(word: str) -> int:
    """Characters at the start of ``word`` that a numeral may be written with (``"이십오일에"``
    -> 4: 에 is none): :func:`numeral_value` is ``None`` for every longer prefix."""
    return _NUMERAL_RUN.match(word).end()


def digit_prefix_length(word: str) -> int:
    """Spoken digit syllables at the start of ``word`` (``"공일공입니다"`` -> 3):
    :func:`digit_string` is ``None`` for every longer prefix."""
    return _DIGIT_RUN.match(word).end()


def trailing_place(value: int) -> int:
    """The place of the lowest non-zero digit (``12000`` -> 1000, ``25`` -> 1, ``0`` -> 1):
    a following numeral word joins this one only when it is smaller (만 이천 = 12000)."""
    place = 1
    while value and value % (place * 10) == 0:
        place *= 10
    return place
