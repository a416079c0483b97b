"""Japanese numbers: a kanji numeral with a counter after it is the same number in digits.

``二千二十六年`` = ``2026年``, ``三百円`` = ``300円``, ``1万2千円`` = ``一万二千円`` =
``12000円``, ``二〇二六年`` = ``2026年`` (a digit string). A numeral is converted only in a
numeric context, a counter or unit after it (``configs/ja/counters.tsv``: 年 月 日 時 分 円 人
個 回 …) or the prefix 第 before it; elsewhere numeral characters are parts of words and stay
(一緒, 四国, 万一). Words that are a numeral and a counter but not a number (十分 "enough",
一番 "most", 三日月) are listed with their rule in ``configs/ja/number_words.tsv``.

Decided readings (docs/japanese.md): 一人 = 1人 and 二人 = 2人 (the same spoken ひとり,
ふたり; the hiragana spellings are variants, ``configs/ja/variants.tsv``); two kanji digits
without a positional numeral before a counter are an approximate range and stay (二三日
"two or three days", 五六人); three or more are a digit string (一一〇番 = 110番).
Source: Japanese reviewers and the original requirements' "Japanese" section; the numeral grammar is the standard
one (十 百 千 within a group of four digits, 万 億 兆 between groups).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
LARGE_UNITS = {"万": 10**4, "億": 10**8, "兆": 10**12}
_NUMERAL_CHARS = "0-9" + "".join(DIGITS) + "".join(SMALL_UNITS) + "".join(LARGE_UNITS)
_KANJI_DIGIT_PAIR = re.compile(rf"[{''.join(d for d in DIGITS if d not in '〇零')}]{{2}}")


def numeral_value(numeral: str) -> int | None:
    """The value of a numeral written in kanji, ASCII digits or both (``"二千二十六"`` ->
    2026, ``"1万2千"`` -> 12000, ``"二〇二六"`` -> 2026), or ``None`` when it is not a
    well-formed numeral (``"十十"``, ``"百千"``, ``"万"`` after ``"億"`` out of order)."""
    total, group, digits = 0, 0, None
    last_small, last_large = 10**5, 10**16
    for char in numeral:
        if char.isdigit() and char.isascii() or char in DIGITS:
            digits = (digits or 0) * 10 + (int(char) if char.isascii() else DIGITS[char])
        elif char in SMALL_UNITS:
            unit = SMALL_UNITS[char]
            if unit >= last_small or (digits is not None and digits > 9):
                return None
            group += (1 if digits is None else digits) * unit
            digits, last_small = None, unit
        else:
            unit = LARGE_UNITS[char]
            if unit >= last_large or _loose_digits(digits, last_small):
                return None
            group += digits or 0
            if group == 0:
                return None
            total += group * unit
            group, digits, last_small, last_large = 0, None, 10**5, unit
    if _loose_digits(digits, last_small):
        return None
    return total + group + (digits or 0)


def _loose_digits(digits: int | None, last_small: int) -> bool:
    """Several digits after 十, 百 or 千 in one group (二十一二): not a numeral."""
    return digits is not None and digits > 9 and last_small < 10**5


def _is_range(numeral: str) -> bool:
    """Two kanji digits and nothing else: an approximate range (二三日), not 23."""
    return _KANJI_DIGIT_PAIR.fullmatch(numeral) is not None


def _mixed_digit_string(numeral: str) -> bool:
    """Kanji and ASCII digits side by side with no unit (二3): two numbers that met when a
    space between them was removed, not one digit string."""
    if any(char in SMALL_UNITS or char in LARGE_UNITS for char in numeral):
        return False
    return any(char.isascii() for char in numeral) and not numeral.isascii()


def _exception_pattern(table: Mapping[str, str]) -> str:
    """One regex alternative per entry of ``number_words`` (longest word first)."""
    alternatives = []
    for word in sorted(table, key=len, reverse=True):
        rule = table[word].strip()
        body = re.escape(word)
        if rule == "keep":
            alternatives.append(body)
            continue
        kind, _, contexts = rule.partition(" before ")
        followers = "|".join(re.escape(c.strip()) for c in contexts.split("|") if c.strip())
        if kind not in ("number", "keep") or not followers:
            raise ConfigError(
                f"number_words: {word!r} has the rule {rule!r}; write 'keep', 'number before X|Y' or 'keep before X|Y'")
        # read through spaces, as remove_spaces will join them (十分 後 is 十分後)
        alternatives.append(f"{body}(?! *(?:{followers}))" if kind == "number" else f"{body}(?= *(?:{followers}))")
    return "|".join(alternatives)


@step("ja_numbers", language="ja")
def ja_numbers(config, lexicons):
    """Kanji numerals in a numeric context become digits (see the module docstring). Reads
    the lexicons ``counters`` and ``number_words``. Runs after ``ja_codes`` and
    ``ja_variants`` (ひとり is 一人 first) and before ``remove_spaces``.

    Raises:
        ConfigError: a ``number_words`` rule is not one of the three forms.
    """
    counters = require_lexicon(lexicons, "counters", "ja_numbers")
    exceptions = require_lexicon(lexicons, "number_words", "ja_numbers")
    counter = "|".join(re.escape(c) for c in sorted(counters, key=len, reverse=True))
    kept = _exception_pattern(exceptions)
    # Spaces inside a numeral and before its counter are read through (三 年, 二千 二十六年):
    # remove_spaces deletes them later, and the result must not change on a second pass.
    numeral = (rf"(?P<prefix>第)?(?P<numeral>[{_NUMERAL_CHARS}](?:[{_NUMERAL_CHARS}]| (?=[{_NUMERAL_CHARS}]))*)"
               rf"(?(prefix)|(?= *(?:{counter})))")
    # A numeral of two or more kanji with a unit (三千四百, 二十五) is a number without a
    # counter too; a lone kanji (一, 十) or digits only (二三) are not.
    units = "".join(SMALL_UNITS) + "".join(LARGE_UNITS)
    kanji = "".join(DIGITS) + units
    # Not next to a code letter, a digit or another numeral, even across the spaces that
    # remove_spaces deletes: the digits would join a spelled code or another number there.
    near = rf"[0-9a-z.\u30a0-\u30ff{kanji}]"
    bare = (rf"|(?<!{near})(?<!{near} )(?P<bare>(?=[0-9{kanji}]*[{units}])[0-9{kanji}]{{2,}})"
            rf"(?! *{near})")
    pattern = re.compile((f"(?P<kept>{kept})|" if kept else "") + numeral + bare)

    def replace(match: re.Match) -> str:
        if match.group("kept") if kept else False:
            return match.group(0)
        if match.group("bare"):
            value = numeral_value(match.group("bare"))
            return match.group(0) if value is None else str(value)
        text = match.group("numeral").replace(" ", "")
        if text.isascii() or _is_range(text) or _mixed_digit_string(text):
            return match.group(0)
        value = numeral_value(text)
        if value is None:
            return match.group(0)
        return (match.group("prefix") or "") + str(value)

    has_numeral = re.compile(f"[{''.join(DIGITS)}{''.join(SMALL_UNITS)}{''.join(LARGE_UNITS)}]")
    return lambda text: pattern.sub(replace, text) if has_numeral.search(text) else text
