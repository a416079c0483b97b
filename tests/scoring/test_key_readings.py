"""The readings of a Latin word's consonant key: one expansion for both loanword matchers."""

from __future__ import annotations

from pytest_asrbench.scoring.views.codeswitch import kana_hangul, phonetic
from pytest_asrbench.scoring.views.codeswitch.readings import MAX_READINGS, key_readings


def test_every_choice_of_one_reading_per_item_is_collapsed_by_the_callers_rule():
    assert key_readings(["a", ("b", "c"), ("d", "e")], "".join) == {"abd", "abe", "acd", "ace"}
    assert key_readings([], "".join) == {""}


def test_the_readings_stop_at_the_cap():
    assert len(key_readings([("a", "b")] * 10, "".join)) == MAX_READINGS


def test_both_matchers_read_a_latin_word_through_it():
    assert kana_hangul.latin_keys("teams") == {"TMS", "TMJ", "JMS", "JMJ"}
    assert phonetic.latin_keys("manager") == {"mngr", "mnjr"}
    for module in (kana_hangul, phonetic):
        assert module.key_readings is key_readings
