"""The code-switch rescuer and the Hindi score's outputs (original requirements: "Hindi code-switching").

The rescue rules are tested with a small stand-in English normalizer (seven -> 7, twenty
five -> 25, I'm -> i am), so that they do not depend on the English config's coverage; the
YAML cases in cases/hi/ run the same examples through the real English normalizer.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_asrbench import score
from pytest_asrbench.scoring.views.codeswitch import view as summary
from pytest_asrbench.scoring.views.codeswitch.rescue import MAX_REGION_WORDS, Rescuer
from pytest_asrbench.normalize.registry import get_normalizer

_STAND_IN_NUMBERS = {"twenty five": "25", "seven": "7", "three": "3", "eleven": "11"}


def stand_in_english(text: str) -> str:
    """A tiny English normalizer: lowercase, I'm, a few number words, punctuation."""
    text = text.lower().replace("i'm", "i am")
    text = re.sub(r"[^\w\s']", " ", text).replace("'", " ")
    text = " ".join(text.split())
    for words, digits in _STAND_IN_NUMBERS.items():
        text = re.sub(rf"\b{words}\b", digits, text)
    return text


@pytest.fixture
def stand_in(monkeypatch):
    """Make score(..., 'hi') use the stand-in English normalizer."""
    rescuer, loanwords = summary.rescuer_for("hi")
    patched = Rescuer(get_normalizer("hi"), stand_in_english, rescuer.matcher, loanwords)
    monkeypatch.setattr(summary, "rescuer_for", lambda language: (patched, loanwords))
    return patched


# (reference, hypothesis, strict rate, aware rate): the original requirements' two tables. The original requirements'
# percentages are rounded; the booking row's "Before" (29%) was measured while booking was
# still in the loanword lexicon (the original requirements drop it later), so with the final lexicon it is 3/7.
SEED_ROWS = [
    ("मेरी फ़्लाइट seven बजे है", "मेरी फ़्लाइट 7 बजे है", 1 / 5, 0.0),
    ("मुझे twenty five मार्च की booking चाहिए", "मुझे 25 मार्च की बुकिंग चाहिए", 3 / 7, 0.0),
    ("I'm not sure, क्या आप check कर सकते हैं", "I am not sure क्या आप check कर सकते हैं", 1 / 10, 0.0),
    ("मुझे 7 बजे की फ़्लाइट चाहिए", "मुझे seven बजे की फ़्लाइट चाहिए", 1 / 6, 1 / 6),
    ("मेरी flight कल है", "मेरी fight कल है", 1 / 4, 1 / 4),
    ("मेरे लैपटॉप में नेटवर्क प्रॉब्लम है", "मेरे लैपटॉप में network problem है", 2 / 6, 0.0),
    ("कृपया मेरा अपॉइंटमेंट कन्फर्म कीजिए", "कृपया मेरा appointment confirm कीजिए", 2 / 5, 0.0),
    ("मैं कल आऊँगा", "मैं call आऊँगा", 1 / 3, 1 / 3),
    ("मैं बस से आऊँगा", "मैं bus से आऊँगा", 1 / 4, 1 / 4),
]


@pytest.mark.parametrize("reference, hypothesis, strict, aware", SEED_ROWS)
def test_seed_rows(stand_in, reference, hypothesis, strict, aware):
    result = score(reference, hypothesis, "hi")
    assert result.details["strict_rate"] == pytest.approx(strict)
    assert result.rate == pytest.approx(aware)


def reasons(result) -> list[str]:
    return [rescue["reason"] for rescue in result.details["code_switch"]["rescues"]]


def test_reasons_name_the_rule(stand_in):
    assert reasons(score("मेरी फ़्लाइट seven बजे है", "मेरी फ़्लाइट 7 बजे है", "hi")) == ["english_view"]
    assert reasons(score("मेरे नेटवर्क में", "मेरे network में", "hi")) == ["phonetic"]
    both = score("मेरा नेटवर्क seven", "मेरा network 7", "hi")
    assert reasons(both) == ["english_view+phonetic"]
    assert "नेटवर्क = network" in both.details["code_switch"]["rescues"][0]["why"]


def test_translation_stays_an_error(stand_in):
    """seven vs सात both normalize to 7, but the STT wrote Hindi: not a rendering."""
    result = score("मेरी फ़्लाइट seven बजे है", "मेरी फ़्लाइट सात बजे है", "hi")
    assert result.rate == pytest.approx(1 / 5)
    assert result.details["code_switch"]["rescues"] == []


def test_neighbouring_errors_are_one_region_rescued_whole_or_not_at_all(stand_in):
    result = score("मेरी flight seven बजे है", "मेरी fight 7 बजे है", "hi")
    assert result.errors == 2
    assert result.details["strict_errors"] == 2


def test_region_longer_than_the_limit_is_not_rescued(stand_in):
    words = ["network"] * (MAX_REGION_WORDS + 1)
    devanagari = ["नेटवर्क"] * (MAX_REGION_WORDS + 1)
    short = score("मेरा " + " ".join(devanagari[:MAX_REGION_WORDS]) + " है",
                  "मेरा " + " ".join(words[:MAX_REGION_WORDS]) + " है", "hi")
    assert short.rate == 0.0
    long = score("मेरा " + " ".join(devanagari) + " है", "मेरा " + " ".join(words) + " है", "hi")
    assert long.rate == long.details["strict_rate"] > 0


def test_digit_reference_is_not_english(stand_in):
    result = score("मेरी फ़्लाइट 7 बजे है", "मेरी फ़्लाइट seven बजे है", "hi")
    assert result.rate == pytest.approx(1 / 5)


def test_counts_stay_consistent_and_rescued_words_become_hits(stand_in):
    result = score("मुझे twenty five मार्च की booking चाहिए", "मुझे 25 मार्च की बुकिंग चाहिए", "hi")
    assert (result.hits, result.substitutions, result.deletions, result.insertions) == (7, 0, 0, 0)
    assert result.details["strict_errors"] == 3
    cs = result.details["code_switch"]
    assert cs["rescued_errors"] == 3 and cs["rescued_words"] == 3
    assert result.pairs[0].errors == 3, "pairs keep the strict Hindi alignment"


def test_per_language_counts(stand_in):
    # references: मेरा(hi) flight(en) कोड(en, a loanword) भेजो(hi); flight->fight is an English
    # substitution, the deleted भेजो a Hindi deletion.
    result = score("मेरा flight code भेजो", "मेरा fight code", "hi")
    cs = result.details["code_switch"]
    assert cs["languages"]["en"] == {"words": 2, "errors": 1, "rate": 0.5}
    assert cs["languages"]["hi"] == {"words": 2, "errors": 1, "rate": 0.5}
    assert result.details["wer_en"] == 0.5 and result.details["wer_hi"] == 0.5
    assert result.details["code_switch_word_rate"] == 0.5
    assert cs["english_words"] == 2


def test_insertions_count_against_the_inserted_word(stand_in):
    english = score("मेरा code", "मेरा code please", "hi").details["code_switch"]["languages"]
    assert (english["en"]["errors"], english["hi"]["errors"]) == (1, 0)
    hindi = score("मेरा code", "मेरा code अभी", "hi").details["code_switch"]["languages"]
    assert (hindi["en"]["errors"], hindi["hi"]["errors"]) == (0, 1)


def test_phonetic_rescue_tags_the_word_english(stand_in):
    result = score("मेरे लैपटॉप में नेटवर्क प्रॉब्लम है", "मेरे लैपटॉप में network problem है", "hi")
    assert result.details["code_switch"]["english_words"] == 2
    assert result.details["code_switch_rescue_rate"] == 1.0


def test_corpus_of_turns(stand_in):
    references = ["मेरी फ़्लाइट seven बजे है", "मेरी flight कल है", "नमस्ते"]
    hypotheses = ["मेरी फ़्लाइट 7 बजे है", "मेरी fight कल है", "नमस्ते"]
    result = score(references, hypotheses, "hi")
    assert result.reference_length == 10
    assert result.rate == pytest.approx(1 / 10)
    assert result.details["strict_rate"] == pytest.approx(2 / 10)
    per_turn = result.details["code_switch"]["per_turn"]
    assert [turn["rate"] for turn in per_turn] == [0.0, 0.25, 0.0]
    assert [turn["errors"] for turn in per_turn] == [0, 1, 0]
    assert [turn["rescues"] for turn in per_turn] == [1, 0, 0]
    assert [rescue["turn"] for rescue in result.details["code_switch"]["rescues"]] == [0]


# --- bad input ---------------------------------------------------------------------------


def test_mixed_scripts_inside_one_word_are_an_ordinary_error(stand_in):
    result = score("मेरा नेटवर्क है", "मेरा नेटवर्कnetwork है", "hi")
    assert result.rate == pytest.approx(1 / 3)
    assert result.details["code_switch"]["other_script_hypothesis_words"] == 1


def test_urdu_script_hypothesis_is_counted_not_rescued(stand_in):
    result = score("मेरा नाम राम है", "میرا نام رام ہے", "hi")
    assert result.rate == 1.0 and result.details["strict_rate"] == 1.0
    assert result.details["code_switch"]["other_script_hypothesis_words"] == 4
    assert result.details["code_switch"]["rescues"] == []


def test_empty_turns(stand_in):
    empty = score("", "", "hi")
    assert empty.rate is None and empty.details["strict_rate"] is None
    assert empty.details["code_switch_word_rate"] is None
    assert "wer_hi" not in empty.details and "wer_en" not in empty.details
    hallucinated = score("", "hello world", "hi")
    assert hallucinated.rate is None and hallucinated.insertions == 2
    corpus = score(["", "मेरी flight कल है"], ["कुछ", "मेरी flight कल है"], "hi")
    assert corpus.rate == pytest.approx(1 / 4)
    assert corpus.details["code_switch"]["per_turn"][0]["rate"] is None


def test_reference_with_only_english_words(stand_in):
    result = score("please check my booking", "please check my बुकिंग", "hi")
    assert result.rate == 0.0 and result.details["strict_rate"] == 0.25
    assert "wer_hi" not in result.details
    assert result.details["wer_en"] == 0.0
    assert result.details["code_switch_word_rate"] == 1.0


def test_no_english_omits_wer_en(stand_in):
    result = score("मेरा नाम राम है", "मेरा नाम श्याम है", "hi")
    assert "wer_en" not in result.details and result.details["wer_hi"] == 0.25


def test_other_languages_get_no_code_switch_fields():
    result = score("the cat sat", "the bat sat", "en")
    assert result.details == {}


def test_cer_on_hindi_is_not_rescued():
    result = score("मेरा नेटवर्क", "मेरा network", "hi", metric="cer")
    assert "code_switch" not in result.details


# --- errors only go down -----------------------------------------------------------------

_VOCABULARY = ["मेरी", "फ़्लाइट", "seven", "7", "सात", "बजे", "है", "नेटवर्क", "network", "कल", "call", "I'm",
               "I", "am", "booking", "बुकिंग", "twenty", "five", "25", "code", "कोड", "problem"]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_VOCABULARY), max_size=8), st.lists(st.sampled_from(_VOCABULARY), max_size=8))
def test_errors_only_go_down(reference, hypothesis):
    rescuer, loanwords = summary.rescuer_for("hi")
    patched = Rescuer(get_normalizer("hi"), stand_in_english, rescuer.matcher, loanwords)
    original = summary.rescuer_for
    summary.rescuer_for = lambda language: (patched, loanwords)
    try:
        result = score(" ".join(reference), " ".join(hypothesis), "hi")
    finally:
        summary.rescuer_for = original
    assert result.errors <= result.details["strict_errors"]
    assert result.hits + result.substitutions + result.deletions == result.reference_length
    languages = result.details["code_switch"]["languages"]
    assert languages["hi"]["errors"] + languages["en"]["errors"] == result.errors


def test_cli_prints_rate_strict_rate_and_each_rescue(capsys):
    from pytest_asrbench.cli import main

    assert main(["score", "-l", "hi", "मेरे लैपटॉप में नेटवर्क प्रॉब्लम है", "मेरे लैपटॉप में network problem है"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("WER 0.00%")
    assert "code-switch: strict WER 0.3333 (33.33%) before rescue; 1 rescue(s) removed 2 error(s)" in out
    assert "rescued [phonetic] नेटवर्क प्रॉब्लम -> network problem: नेटवर्क = network (consonant key 'ntvrk')" in out
    lines = out.splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.startswith(("REF:", "HYP:"))}
    # the rescued region is shown as correct words marked R, as the 0% headline counts it
    assert rows == {"REF:": "मेरे लैपटॉप में नेटवर्क प्रॉब्लम है".split(), "HYP:": "मेरे लैपटॉप में network problem है".split()}
    assert lines[next(i for i, line in enumerate(lines) if line.startswith("HYP:")) + 1].split() == ["R", "R"]


def test_cli_prints_no_rescue_block_for_english(capsys):
    from pytest_asrbench.cli import main

    assert main(["score", "-l", "en", "the cat", "the bat"]) == 0
    assert "rescued" not in capsys.readouterr().out


def test_in_word_joiners_split_words_neither_in_the_normalizer_nor_in_the_views():
    # Regression: the views cut words at ZWJ/ZWNJ while the normalizer removes them, and the
    # chunk map then raised "hindi normalization ... is not stable".
    result = score("मेरी फ़्लाइट seven बजे\u200c है", "मेरी फ़्लाइट 7 बजे\u200d है", "hi")
    assert result.details["strict_rate"] == pytest.approx(0.2)
    assert result.rate == 0.0
