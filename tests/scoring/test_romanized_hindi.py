"""Romanized Hindi (``romanized_matching``): off by default, on in a project config that extends hi."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pytest_asrbench import score
from pytest_asrbench.normalize.registry import get_config, use_config_dirs
from pytest_asrbench.scoring.views.codeswitch.romanized import RomanizedMatcher, readings, romanizes

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def romanized_on(tmp_path):
    """A project config folder whose hi.toml extends the shipped one with the option on."""
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "hi.toml").write_text('extends = "hi"\nversion = "1.0.0"\nromanized_matching = true\n', encoding="utf-8")
    use_config_dirs([folder])
    try:
        yield
    finally:
        use_config_dirs([])


# (reference, hypothesis, rate with the option on): romanizations that count, and ones that must not.
ON_CASES = [
    ("मुझे पता है", "mujhe pata hai", 0.0),
    ("मुझे पता है", "mujhey pata hain", 0.0),  # variants: ey for e, a final nasal
    ("आप कैसे हैं", "aap kaise hain", 0.0),
    ("मैं ठीक हूँ", "main theek hoon", 0.0),
    ("बहुत अच्छा है", "bahut accha hai", 0.0),
    ("मुझे समझना है", "mujhe samajhna hai", 0.0),  # an inner inherent vowel silent
    ("कल मिलते हैं", "kal milte hain", 0.0),
    ("धन्यवाद", "dhanyawad", 0.0),  # w for v, a for aa
    ("मेरा नंबर बदल गया", "mera number badal gaya", 0.0),  # romanized Hindi and an English word
    ("मैं घर जा रहा हूँ", "मैं ghar ja raha hoon", 0.0),  # a region holds at most 4 words, as every rescue
    # Must not match:
    ("कल मिलते हैं", "call मिलते हैं", 0.3333333333333333),  # call is English, not kal
    ("बहुत अच्छा है", "bhoot अच्छा है", 0.3333333333333333),  # bhoot is भूत
    ("मुझे पता है", "tumhe पता है", 0.3333333333333333),  # another word
    ("कल मिलते हैं", "call milte hain", 1.0),  # one word that does not match: the whole region stays
    ("मेरी फ़्लाइट सात बजे है", "मेरी फ़्लाइट seven बजे है", 0.2),  # a translation stays an error
]


@pytest.mark.parametrize("reference, hypothesis, rate", ON_CASES)
def test_romanized_hindi_counts_only_with_the_option_on(romanized_on, reference, hypothesis, rate):
    assert get_config("hi").romanized_matching is True
    result = score(reference, hypothesis, "hi")
    assert result.rate == pytest.approx(rate)
    assert result.details["romanized_matching"] is True
    if rate == 0.0:
        assert any("romanized Hindi" in rescue["why"] for rescue in result.details["code_switch"]["rescues"])


@pytest.mark.parametrize("reference, hypothesis", [(ref, hyp) for ref, hyp, rate in ON_CASES if rate == 0.0])
def test_with_the_option_off_romanized_hindi_stays_an_error(reference, hypothesis):
    assert get_config("hi").romanized_matching is False
    result = score(reference, hypothesis, "hi")
    assert result.rate > 0
    assert "romanized_matching" not in result.details


def _hindi_score_cases():
    for path in sorted((ROOT / "cases" / "hi").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            if case["kind"] == "score" and data.get("metric", case.get("metric", "stt_wer")) == "stt_wer":
                yield pytest.param(path.stem, case, id=f"{path.stem}/{case['id']}")


@pytest.mark.parametrize("stem, case", list(_hindi_score_cases()))
def test_every_hindi_case_scores_as_recorded_with_the_option_off(stem, case):
    recorded = json.loads((ROOT / "snapshots" / "hi" / stem / f"{case['id']}.json").read_text(encoding="utf-8"))
    result = score(case["reference"], case["hypothesis"], "hi")
    assert (result.rate, result.errors, result.details.get("code_switch")) == (
        recorded["rate"], recorded["errors"], recorded["details"].get("code_switch"))


def test_the_shipped_config_declares_the_option_off():
    text = (ROOT / "configs" / "hi.toml").read_text(encoding="utf-8")
    assert "romanized_matching = false" in text


def test_readings_drop_inherent_vowels_but_never_the_first_syllables():
    assert readings("कल") == {"kal"}
    assert "samajhna" in readings("समझना") and "samajhana" in readings("समझना")
    assert romanizes("बहुत", "bahut") and not romanizes("भूत", "bahut")


def test_the_matcher_keeps_the_phonetic_verdict_for_english_words():
    from pytest_asrbench.scoring.views.codeswitch.phonetic import PhoneticMatcher

    verdict = RomanizedMatcher(PhoneticMatcher()).check("नेटवर्क", "network")
    assert verdict.matched and not verdict.key.startswith("romanized:")


def test_a_rescued_romanized_hindi_word_counts_as_hindi_not_english(romanized_on):
    result = score("मुझे पता है", "mujhe pata hai", "hi")
    code_switch = result.details["code_switch"]
    assert result.rate == 0.0 and code_switch["rescued_words"] == 3
    assert code_switch["english_words"] == 0 and result.details["code_switch_word_rate"] == 0.0
    assert "wer_en" not in result.details and result.details["wer_hi"] == 0.0
    assert code_switch["languages"]["hi"]["words"] == 3


def test_a_romanized_word_beside_an_english_one_splits_the_words_by_language(romanized_on):
    # नंबर / number is an English word (no romanization of it); मेरा, गया (romanized matcher) and बदल / badal
    # (paired by the phonetic matcher, but a romanization too) are Hindi words
    result = score("मेरा नंबर बदल गया", "mera number badal gaya", "hi")
    languages = result.details["code_switch"]["languages"]
    assert result.rate == 0.0 and (languages["hi"]["words"], languages["en"]["words"]) == (3, 1)
    assert result.details["code_switch_word_rate"] == 0.25


def test_an_english_word_written_in_devanagari_stays_english_with_the_option_on(romanized_on):
    # the requirements: phonetic-matcher rescues of English words in Devanagari are tagged English
    result = score("कृपया मेरा अपॉइंटमेंट कन्फर्म कीजिए", "कृपया मेरा appointment confirm कीजिए", "hi")
    assert result.rate == 0.0 and result.details["code_switch"]["english_words"] == 2
    assert result.details["wer_en"] == 0.0
