"""The cheap gates of the English number steps skip only texts their rules leave unchanged.

``number_formats`` runs each rule only when a cheap test (a substring, a literal-led search, a
set of words) says the rule can match; ``number_words`` reads texts of plain characters with a
search that starts at a space; ``money`` and ``number_formats`` first ask :func:`has_digit`. Each test here compares the gated step with the same rules applied without
any gate, on the English case texts, a slice of the throughput corpus as it reaches the step,
and seeded strings made of the rules' own trigger words, digits and separators (the strings a
gate is most likely to misjudge).
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from pathlib import Path

import pytest

from pytest_asrbench.normalize.languages.en import numbers as en
from pytest_asrbench.normalize.registry import get_normalizer
from pytest_asrbench.normalize.steps.digit_test import has_digit
from tests.digests import case_texts

ROOT = Path(__file__).resolve().parents[1]

#: Words and pieces the number_formats rules and their gates read.
FORMAT_PIECES = (
    "am pm AM Pm a.m. 7pm 12AM 7am 9:00 10:00 05:00 :00 o'clock oclock clock oh OH 0 00 01 05 007 "
    "double triple Double half quarter Half past to TO at by until from around before after since "
    "tonight today tomorrow in the morning evening point Point and a one half percent per cent % "
    "'s 1990's 90's May may June december 1 2 3 5 7 9 10 12 13 19 20 30 45 59 99 2019 1.5 minutes "
    "minute 7:30 x _ ' - $ £ 11 012 x1 1.5% 5.25"
).split() + ["and a half", "and one half", "half past", "quarter to", "a quarter past", "minutes past",
             "minute to", "at 20 to", "3 point", "point oh", "7 oh 5 pm", "7 05 am", "per cent", "in the morning",
             "7 o'clock", "at 7 30", "19 99", "may 1", "double 5", "1 oh 1", "0 1"]
#: Words and pieces the number-word spans read.
SPAN_PIECES = (
    en.UNITS + en.TENS + list(en.SCALES) + en.ORDINALS + en.PLURAL_SCALES
    + "and point a per every One TWENTY Second second 5 $5 five. x_one one's 'two fiveone _ ' - 7:30 %".split()
)
SEPARATORS = [" ", " ", " ", " ", "", "  ", "\t", "'", "_", ".", ":", "\u00a0"]


def _strings(pieces: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(pieces) + rng.choice(SEPARATORS) for _ in range(rng.randint(1, 9))).strip(" ")
            for _ in range(count)]


def _step_inputs(step: str) -> list[str]:
    """What reaches ``step`` (its first listing) for the case texts and 3,000 corpus utterances."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from normalize_throughput import make_corpus
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    texts = case_texts(ROOT / "cases", "en") + make_corpus(3000, 20261202)
    pipeline = get_normalizer("en")
    inputs = []
    for text in texts:
        trace = pipeline.explain(text)
        position = next(index for index, (name, _) in enumerate(trace) if name == step)
        inputs.append(trace[position - 1][1])
    return inputs


def _ungated_formats(text: str) -> str:
    """Every number_formats rule, in the step's order, with no gate but the one that is a rule:
    a date needs a month name as a whole word of the text ("OH.May 3" is no date)."""
    month = not en._MONTH_NAMES.isdisjoint(text.lower().split())
    text = en._AM_PM_GLUED.sub(en._spaced, text)
    text = en._OCLOCK.sub(en._on_the_hour, text)
    text = en._ZERO_MINUTES.sub(en._spaced, text)
    text = en._OH_TIME.sub(en._oh_minutes, text)
    text = en._REPEATED_DIGIT.sub(en._repeated_digit, text)
    text = en._DIGIT_RUN.sub(en._join_digit_run, text)
    text = en._TIME_PAIR_AFTER_WORD.sub(en._word_and_time, text)
    text = en._TIME_PAIR_BEFORE_WORD.sub(en._time, text)
    text = en._YEAR_PAIR.sub(en._joined, text)
    text = en._PAST_TO.sub(en._past_to, text)
    text = en._MINUTES_PAST.sub(en._minutes_past, text)
    text = en._MINUTES_TO.sub(en._minutes_to, text)
    text = en._POINT.sub(en._decimal, text)
    text = en._HALF.sub(en._and_a_half, text)
    text = en._PERCENT.sub(en._percent, text)
    text = en._DECADE_APOSTROPHE.sub(en._decade_plural, text)
    return en._MONTH_DAY.sub(en._month_day, text) if month else text


def _regex_spans(text: str) -> str:
    """Every number-word span converted, found by the lookbehind search alone."""
    return en._SPAN.sub(en._convert_span, text)


@pytest.fixture(scope="module")
def format_inputs() -> list[str]:
    return _step_inputs("number_formats") + _strings(FORMAT_PIECES, 30_000, 20261202)


def test_number_formats_gates_skip_only_texts_the_rules_leave_unchanged(format_inputs):
    convert = en.number_formats(None, None)
    differ = [text for text in format_inputs if convert(text) != _ungated_formats(text)]
    assert differ == []


def test_the_generated_strings_reach_every_number_formats_rule(format_inputs):
    # Each rule changes some generated string: the comparison above exercises every gate.
    rules = {name: getattr(en, name) for name in dir(en)
             if isinstance(getattr(en, name), re.Pattern) and name in {
                 "_AM_PM_GLUED", "_OCLOCK", "_ZERO_MINUTES", "_OH_TIME", "_DIGIT_RUN", "_TIME_PAIR_AFTER_WORD",
                 "_TIME_PAIR_BEFORE_WORD", "_PAST_TO", "_MINUTES_PAST", "_MINUTES_TO", "_POINT", "_HALF",
                 "_PERCENT", "_MONTH_DAY"}}
    unreached = [name for name, rule in rules.items()
                 if not any(rule.search(text) for text in format_inputs[-30_000:])]
    assert unreached == []


#: Tokens the three number-pair rules read: hours, minutes, year heads and tails, numbers none
#: of them takes, the time words on either side (in any case) and other words.
PAIR_TOKENS = ["at", "To", "SINCE", "pm", "AM", "o'clock", "in the morning", "tonight", "1", "7", "12", "13",
               "19", "20", "21", "05", "10", "30", "59", "60", "99", "x"]


def _three_pair_rules(text: str) -> str:
    """The number-pair rules as written, one substitution each, in the step's order."""
    text = en._TIME_PAIR_AFTER_WORD.sub(en._word_and_time, text)
    text = en._TIME_PAIR_BEFORE_WORD.sub(en._time, text)
    return en._YEAR_PAIR.sub(en._joined, text)


def test_one_scan_over_number_pairs_equals_the_three_pair_rules_in_order():
    # Every arrangement of up to four of the tokens (pairs sharing a number, a time word on
    # both sides, a year next to a time), then seeded strings with other separators.
    arranged = [" ".join(tokens) for size in range(1, 5) for tokens in itertools.product(PAIR_TOKENS, repeat=size)]
    pieces = PAIR_TOKENS + ["7:30", "1999", "x7", "7x", "٣", "1٣", "5٣"]
    texts = arranged + _strings(pieces, 30_000, 20261204)
    assert len(arranged) > 200_000
    assert sum(en._number_pairs(text) != text for text in arranged) > 20_000
    assert [text for text in texts if en._number_pairs(text) != _three_pair_rules(text)] == []


def test_number_word_spans_read_after_a_space_equal_the_lookbehind_search():
    texts = _step_inputs("number_words") + _strings(SPAN_PIECES, 30_000, 20261203)
    assert sum(not text.lower().encode().translate(None, en._PLAIN_CHARACTERS) for text in texts) > 5_000
    assert [text for text in texts if en._convert_spans(text) != _regex_spans(text)] == []


@pytest.mark.parametrize("text", ["", "abc", "a1", "7", "x\u0663", "\u00bd", "\u00b2", "caf\u00e9 9", "caf\u00e9",
                                  "\uff11", "\u0966\u0967", "\u2155", "no digits here", "\u0f20"])
def test_has_digit_is_the_regex_digit_class(text):
    assert has_digit(text) == (re.search(r"\d", text) is not None)
