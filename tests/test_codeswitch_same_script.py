"""The code-switch rescue for English inside de, nl, fr, es and it (same script): word
detection by frequency with its protections, the config seam (detection and matcher by
name), and the counting invariants on generated turns. The requirements' table rows are
`score` cases in cases/<lang>/code_switch.yaml."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import random
from pathlib import Path

import pytest

from pytest_asrbench import score
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.scoring.views.codeswitch.detect import build_detection
from pytest_asrbench.scoring.views.codeswitch.matchers import build_matcher, known_matchers, register_matcher
from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for

ROOT = Path(__file__).resolve().parents[1]
SAME_SCRIPT = ("de", "nl", "fr", "es", "it")

# Words of both languages that must stay the home language's (the requirements' list, and
# ones the English rules would change: de "er" is an English filler, fr "four" English 4).
PROTECTED = {"de": ["die", "will", "also", "er"], "fr": ["ma", "son", "four"], "es": ["me", "once"],
             "nl": ["of", "door"], "it": ["come", "due"]}
ENGLISH = {"de": ["nine", "eleven", "meeting", "you're"], "fr": ["three", "twenty", "welcome"],
           "es": ["nine", "twenty", "welcome"], "nl": ["forty", "two", "welcome"], "it": ["welcome", "you're", "you"]}


@pytest.mark.parametrize("language", SAME_SCRIPT)
def test_words_of_both_languages_are_the_home_language(language):
    classify = rescuer_for(language)[0].classify
    assert {word: classify(word) for word in PROTECTED[language]} == {word: "home" for word in PROTECTED[language]}
    assert {word: classify(word) for word in ENGLISH[language]} == {word: "second" for word in ENGLISH[language]}


def test_word_classes_of_digits_and_other_scripts():
    classify = rescuer_for("de")[0].classify
    assert [classify(word) for word in ("11", "25€", "Привет", "nineПривет", "nine,", "Tickets")] == [
        "neutral", "neutral", "other", "other", "second", "home"]


def test_a_protected_word_is_never_rescued_as_english():
    # er (he) deleted: the English rules would drop "er" as a filler, so an English view of
    # it is empty; it is German here, so the deletion stays an error.
    result = score("er kommt um nine", "kommt um 9", "de")
    assert result.errors == 1 and result.details["strict_errors"] == 2
    assert [rescue["reference"] for rescue in result.details["code_switch"]["rescues"]] == ["nine"]
    oven = score("le four est chaud", "le 4 est chaud", "fr")
    assert oven.rate == oven.details["strict_rate"] == 0.25


def test_per_language_details_count_english_and_home_words():
    result = score("die Kinder will also eleven Tickets", "die Kinder will also 11 Tickets", "de")
    languages = result.details["code_switch"]["languages"]
    assert languages["en"]["words"] == 1 and languages["de"]["words"] == 5
    assert result.details["code_switch_word_rate"] == pytest.approx(1 / 6)
    assert result.details["wer_de"] == 0.0 and result.details["wer_en"] == 0.0
    assert result.details["code_switch_rescue_rate"] == 1.0


def test_detection_and_matcher_are_named_by_the_config():
    assert rescuer_for("hi")[0].detection.name == "script"
    assert rescuer_for("de")[0].detection.name == "lexicon" and rescuer_for("de")[0].matcher is None
    assert "devanagari_phonetic" in known_matchers()


def test_a_config_with_languages_needs_a_detection():
    with pytest.raises(ValueError, match="code_switch_detection"):
        LanguageConfig(language="xx", version="0", unit="word", steps=["lowercase"], code_switch_languages=["en"])
    with pytest.raises(ValueError, match="without code_switch_languages"):
        LanguageConfig(language="xx", version="0", unit="word", steps=["lowercase"], code_switch_detection="lexicon")


def test_an_unknown_matcher_or_home_script_is_a_config_error():
    config = LanguageConfig(language="xx", version="0", unit="word", steps=["lowercase"], code_switch_languages=["en"],
                            code_switch_detection="script", code_switch_matcher="kana")
    with pytest.raises(ConfigError, match="not a known matcher"):
        build_matcher("kana", config, {}, str)
    with pytest.raises(ConfigError, match="HOME_SCRIPTS"):
        build_detection(config)
    with pytest.raises(ConfigError, match="already registered"):
        register_matcher("devanagari_phonetic", lambda config, lexicons, fold: None)


def test_wordfreq_is_pinned_because_it_decides_rescues():
    assert importlib.metadata.version("wordfreq") == "3.1.1"
    assert '"wordfreq==3.1.1"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def _benchmark():
    spec = importlib.util.spec_from_file_location("codeswitch_benchmark", ROOT / "benchmarks/codeswitch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("language", SAME_SCRIPT)
def test_errors_only_go_down_on_generated_turns(language):
    benchmark = _benchmark()
    rng = random.Random(f"same-script-{language}")
    pairs = [benchmark.make_latin_pair(rng, language) for _ in range(300)]
    for reference, hypothesis in pairs:
        result = score(reference, hypothesis, language)
        strict = result.details["strict_errors"]
        assert result.errors <= strict, (reference, hypothesis)
        assert result.errors + result.details["code_switch"]["rescued_errors"] == strict
        assert result.hits + result.substitutions + result.deletions == result.reference_length
    rescued = score([r for r, _ in pairs], [h for _, h in pairs], language).details["code_switch"]["rescued_errors"]
    assert rescued > 0


@pytest.mark.parametrize("reference, hypothesis", [
    ("wir haben eleven Tickets", "wir haben 11 Tickets"),       # rescued
    ("die Daten Bank ist eleven", "die Datenbank ist 11"),      # merged compound: not rescued
])
def test_sclite_headline_stream_rebuilds_the_rescued_and_merged_counts(reference, hypothesis):
    from pytest_asrbench.export.streams import streams_of

    result = score(reference, hypothesis, "de")
    # streams_of raises when the headline stream's counts differ from the score's
    assert [stream.name for stream in streams_of(result)] == ["headline", "strict"]
