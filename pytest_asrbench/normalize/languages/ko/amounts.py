"""Korean amounts: decimals, fractions, percentages, clock times and units in one written form.

Two steps around ``korean_numbers`` (source: standard Korean grammar of Sino-Korean numerals,
the National Institute of Korean Language's 한글 맞춤법 on writing numbers with units, and
the original requirements' protections; examples in docs/korean.md, "Amounts"):

``korean_spoken_amounts`` (before ``korean_numbers``), the forms whose words it would split:

================  ===================================  ==================
class             spoken / written                     normal form
================  ===================================  ==================
decimal           이 점 칠, 이점칠, 영 점 오, 삼 점 일사    2.7, 2.7, 0.5, 3.14
fraction          삼 분의 일, 3분의 1, 사분의 삼          1/3, 1/3, 3/4
cardinal          삼천사백, 이만 오천 (as before)         3400, 25000
================  ===================================  ==================

``korean_amounts`` (after ``korean_numbers``), forms made of digits and a word:

================  ===================================  ==================
percentage        십오 퍼센트, 15프로, 15%                15%
time              세 시 반, 3시 30분, 3:30               3시 30분
unit              오 킬로미터, 5km, 5 km                  5킬로미터
================  ===================================  ==================

A decimal needs a word of spoken digit syllables right after 점 (이점 "advantage" and
이 점 "this point" stay); a bare Sino-Korean numeral (no counter after it) needs three or
more syllables with a place (십 백 천 만 억), so two-syllable words and names stay
(이천 the city, 만일 "in case", 천민수, 백지수). Words listed in ``not_numbers`` stay.
``킬로`` alone stays (a kilometre or a kilogram). Both steps are idempotent.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pytest_asrbench.normalize.languages.ko.numerals import DIGIT_SYLLABLES, sino_value
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_DIGIT_WORD = f"[{''.join(DIGIT_SYLLABLES)}]+"
_SINO_WORD = r"[일이삼사오육칠팔구십백천만억조0-9]+"
_ZERO = {"영": 0, "공": 0}


def _integer(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    if word in _ZERO:
        return 0
    return sino_value(word)


def _fraction_digits(word: str) -> str:
    return word if word.isdigit() else "".join(DIGIT_SYLLABLES[syllable] for syllable in word)


def _substitution(pattern: re.Pattern[str], replace: Callable[[re.Match], str],
                  trigger: re.Pattern[str]) -> Callable[[str], str]:
    """The step function of both steps: ``pattern.sub(replace, text)``, returning ``text``
    itself when nothing changed (the pipeline then skips the idempotent step listed again),
    run only on texts ``trigger`` finds (a superset of where ``pattern`` can change one)."""

    def run(text: str) -> str:
        out = pattern.sub(replace, text)
        return text if out == text else out

    return triggered(trigger, run)


@step("korean_spoken_amounts", language="ko", idempotent=True)
def korean_spoken_amounts(config, lexicons):
    """Spoken decimals (점), fractions (분의) and bare Sino-Korean numerals of three or more
    syllables to digits (the module docstring). Reads the lexicons ``not_numbers`` and
    ``particles`` (what may follow a decimal: 일 점 오예요).
    Runs after ``fillers`` and before ``korean_numbers``.

    Raises:
        ConfigError: a lexicon is not declared under ``[lexicons]``.
    """
    kept = frozenset(require_lexicon(lexicons, "not_numbers", "korean_spoken_amounts"))
    particles = "|".join(re.escape(p) for p in sorted(
        require_lexicon(lexicons, "particles", "korean_spoken_amounts"), key=len, reverse=True))
    pattern = re.compile(
        rf"(?<!\S)(?P<whole>{_SINO_WORD}|[영공]) ?점 ?(?P<fraction>{_DIGIT_WORD}|[0-9]+)(?=(?:{particles})?(?!\S))"
        rf"|(?<!\S)(?P<denominator>{_SINO_WORD}) ?분의 ?(?P<numerator>{_SINO_WORD})(?!\S)"
        rf"|(?<!\S)(?P<bare>[일이삼사오육칠팔구십백천만억]{{3,}})(?!\S)")
    # Where a match can start: 점 and a digit word, 분의, or a whole word of three or more
    # numeral syllables with a place among them (the only bare word ``replace`` changes; 이십오일에
    # and 일이삼사 are not). Written to begin with one character class, which re scans for before
    # it tries the branches; (?<!\S.) after that character: it starts its word.
    numeral = "일이삼사오육칠팔구십백천만억"
    trigger = re.compile(
        rf"[점분{numeral}](?:(?<=점) ?[영공일이삼사오육칠팔구0-9]|(?<=분)의"
        rf"|(?<!\S.)(?=[{numeral}]{{2,}}(?!\S))(?:(?<=[십백천만억])|[{numeral}]*[십백천만억]))")

    def replace(match: re.Match) -> str:
        whole = match.group(0)
        if match.group("bare"):
            word = match.group("bare")
            value = sino_value(word)
            if value is None or word in kept or not re.search("[십백천만억]", word):
                return whole
            return str(value)
        if match.group("denominator"):
            denominator, numerator = _integer(match.group("denominator")), _integer(match.group("numerator"))
            return whole if denominator is None or numerator is None else f"{numerator}/{denominator}"
        integer = _integer(match.group("whole"))
        if integer is None or match.group("whole") + "점" in kept:
            return whole
        if match.group("fraction") == "이" and whole.endswith("점이"):
            return whole  # 이점이 "the advantage (subject)": 이 attached to 점 is the particle
        return f"{integer}.{_fraction_digits(match.group('fraction'))}"

    return _substitution(pattern, replace, trigger)


@step("korean_amounts", language="ko", idempotent=True)
def korean_amounts(config, lexicons):
    """Percentages (퍼센트, 프로), clock times (시 반, H:MM) and unit abbreviations after digits
    to one written form (the module docstring). Reads the lexicons ``units`` (abbreviation ->
    Korean unit word) and ``particles`` (what may follow 반). Runs after ``korean_numbers``.

    Raises:
        ConfigError: a lexicon is not declared under ``[lexicons]``.
    """
    units = dict(require_lexicon(lexicons, "units", "korean_amounts"))
    particles = "|".join(re.escape(p) for p in sorted(require_lexicon(lexicons, "particles", "korean_amounts"),
                                                       key=len, reverse=True))
    unit_words = "|".join(re.escape(unit) for unit in sorted(units, key=len, reverse=True))
    # A Korean unit word counts only as a whole word or before particles (5 도로 "5 roads" stays).
    word_end = rf"(?![a-z])(?=(?:{particles})?(?!\S)|(?<=[a-z℃]))"
    pattern = re.compile(
        r"(?P<number>[0-9]+(?:\.[0-9]+)?) ?(?:퍼센트|프로)"
        rf"|(?P<hour>[0-9]{{1,2}})시 ?반(?=(?:{particles})?(?!\S))"
        r"|(?<![0-9:])(?P<clock>[0-9]{1,2}):(?P<minute>[0-5][0-9])(?![0-9:])"
        rf"|(?P<amount>[0-9]+(?:\.[0-9]+)?) ?(?P<unit>{unit_words}){word_end}")
    # A digit, then the first character of a word above (시 반 in full: 3시 alone is no match).
    firsts = "".join(sorted({word[0] for word in ("퍼센트", "프로", ":", *units)}))
    trigger = re.compile(rf"[0-9] ?(?:[{re.escape(firsts)}]|시 ?반)")

    def replace(match: re.Match) -> str:
        if match.group("number"):
            return match.group("number") + "%"
        if match.group("hour"):
            return f"{match.group('hour')}시 30분"
        if match.group("clock"):
            hour, minute = int(match.group("clock")), int(match.group("minute"))
            if hour > 24:
                return match.group(0)
            return f"{hour}시" + (f" {minute}분" if minute else "")
        return match.group("amount") + units[match.group("unit")]

    return _substitution(pattern, replace, trigger)
