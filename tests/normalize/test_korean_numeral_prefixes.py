"""The Korean number reader tries numeral prefixes only within a word's run of numeral
characters: no longer prefix of a word is a numeral or a spoken digit string."""

import random

from pytest_asrbench.normalize.languages.ko.numerals import (
    DIGIT_SYLLABLES,
    NUMERAL_SYLLABLES,
    digit_prefix_length,
    digit_string,
    numeral_prefix_length,
    numeral_value,
)

_OTHER = list("에는을를이가요원명시분개월일년번째씨님한국어사람") + ["٣", "３", "a", "-"]


def _words(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = sorted(NUMERAL_SYLLABLES | set(DIGIT_SYLLABLES)) + list("0123456789") + _OTHER
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 9))) for _ in range(count)]


def test_no_prefix_longer_than_the_numeral_run_is_a_numeral():
    words = _words(20000, 3) + ["이십오일에", "열두시", "삼천사백원", "1만2천", "٣만원"]
    assert [word for word in words if any(numeral_value(word[:end]) is not None
                                          for end in range(numeral_prefix_length(word) + 1, len(word) + 1))] == []
    assert numeral_prefix_length("이십오일에") == 4


def test_no_prefix_longer_than_the_digit_syllable_run_is_a_digit_string():
    words = _words(20000, 4) + ["공일공입니다", "일이삼사"]
    assert [word for word in words if any(digit_string(word[:end]) is not None
                                          for end in range(digit_prefix_length(word) + 1, len(word) + 1))] == []
    assert digit_prefix_length("공일공입니다") == 3
