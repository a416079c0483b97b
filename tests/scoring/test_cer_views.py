"""The CER views of an evaluation protocol (scoring/views/cer_views.py): the contract the
bench records rely on, corpus micro-averaging, script detection, and the null script view
when the converter is unavailable."""

import pytest

from pytest_asrbench import score
from pytest_asrbench.normalize import registry
from pytest_asrbench.normalize.languages.zh import script
from pytest_asrbench.scoring.views.cer_views import VIEW_NAMES, cer_views

COUNT_KEYS = {"rate", "hits", "substitutions", "deletions", "insertions", "reference_length"}


def test_score_details_hold_each_view_with_rate_and_counts():
    details = score("我们去吃饭吧。", "我們去吃飯吧", "zh").details
    for name in VIEW_NAMES:
        assert set(details[name]) == COUNT_KEYS
    assert details["cer_raw"] == {"rate": 3 / 7, "hits": 4, "substitutions": 2, "deletions": 1,
                                  "insertions": 0, "reference_length": 7}
    assert details["cer_script_normalized"]["rate"] == 0.0
    assert details["script_conversion"] == {"ran": True, "source": "detected", "scripts": {"simplified": 1},
                                            "libraries": {"opencc": script.V1_OPENCC}, "reason": None}


def test_both_metrics_run_the_views_and_other_languages_do_not_get_them():
    assert score("你好", "你好", "zh", metric="cer").details["cer_normalized"]["rate"] == 0.0
    assert "cer_raw" not in score("a b", "a c", "en").details
    assert "cer_raw" not in score("かな", "かな", "ja").details


def test_corpus_figures_are_micro_averaged():
    views = cer_views(["我爱北京", "你好"], ["我爱南京", "你号"], "zh")
    assert views.views["cer_normalized"].rate == 2 / 6  # not the mean of 1/4 and 1/2
    assert [pair.counts["cer_normalized"].substitutions for pair in views.pairs] == [1, 1]
    assert score(["我爱北京", "你好"], ["我爱南京", "你号"], "zh").details["cer_normalized"]["rate"] == 2 / 6


def test_an_empty_reference_gives_no_rate_and_its_insertions():
    details = score("", "嗯", "zh").details
    assert details["cer_raw"]["rate"] is None and details["cer_raw"]["insertions"] == 1
    assert details["cer_script_normalized"]["rate"] is None


def test_the_script_is_detected_per_pair():
    views = cer_views(["謝謝你們", "谢谢你们"], ["谢谢你们", "謝謝你們"], "zh")
    assert [pair.script for pair in views.pairs] == ["traditional", "simplified"]
    assert views.views["cer_script_normalized"].rate == 0.0
    assert views.script_conversion.scripts == {"traditional": 1, "simplified": 1}


def test_a_reference_no_character_of_which_tells_the_scripts_apart_goes_to_the_first_script():
    assert cer_views("你好", "你好", "zh").pairs[0].script == "simplified"


def test_a_mixed_reference_goes_to_its_majority_script():
    # 這 and 們 are Traditional, 饭 Simplified: two characters against one.
    assert cer_views("這們饭", "这们饭", "zh").pairs[0].script == "traditional"
    assert cer_views("這们饭", "这们饭", "zh").pairs[0].script == "simplified"


def test_a_given_script_is_used_for_every_pair():
    views = cer_views(["你好", "谢谢"], ["你好", "謝謝"], "zh", script="traditional")
    assert [pair.script for pair in views.pairs] == ["traditional", "traditional"]
    assert views.views["cer_script_normalized"].substitutions == 2  # 谢谢 vs 謝謝 after s2tw
    assert views.script_conversion.source == "given"


def test_the_forms_of_each_view_are_kept():
    pair = cer_views("我用ＡＰＰ。", "我用app", "zh").pairs[0]
    assert pair.forms == {"cer_raw": ("我用ＡＰＰ。", "我用app"), "cer_punct": ("我用app。", "我用app"),
                          "cer_normalized": ("我用app", "我用app"), "cer_script_normalized": ("我用app", "我用app")}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"script": "cyrillic"}, r"zh-eval-v1 has no script 'cyrillic'; its scripts: simplified, traditional"),
    ({"protocol": "zh-eval-v9"}, r"no evaluation protocol named 'zh-eval-v9' for 'zh'; its protocols: zh-eval-v1"),
])
def test_bad_arguments_are_refused_with_the_choices(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cer_views("你好", "你好", "zh", **kwargs)


def test_a_language_without_a_protocol_is_refused():
    with pytest.raises(ValueError, match=r"no evaluation protocol for 'en'; its protocols: none"):
        cer_views("a", "a", "en")


def test_the_named_protocol_is_used():
    assert cer_views("你好", "你好", "zh", protocol="zh-eval-v1").protocol == "zh-eval-v1"


@pytest.mark.parametrize(("profile", "steps"), [
    ("eval_v1", ["zh_eval_v1_nfc", "zh_eval_v1_width", "zh_eval_v1_whitespace", "zh_eval_v1_punctuation"]),
    ("eval_v1_script_traditional", ["zh_eval_v1_nfc", "zh_eval_v1_to_traditional"]),
])
def test_a_config_whose_v1_profiles_differ_from_the_frozen_lists_is_refused(profile, steps):
    from pytest_asrbench.normalize.config import Profile
    from pytest_asrbench.normalize.protocols import checked_protocol

    config = registry.get_config("zh")
    edited = config.model_copy(update={"profiles": {**config.profiles, profile: Profile(steps=steps)}})
    with pytest.raises(ValueError, match=rf"\[profiles.{profile}\] lists .* but zh-eval-v1 is frozen with .*"
                                         "a changed cleaning is a new protocol"):
        checked_protocol(edited)
    missing = config.model_copy(update={"profiles": {k: v for k, v in config.profiles.items() if k != profile}})
    with pytest.raises(ValueError, match=rf"zh-eval-v1 needs \[profiles.{profile}\]"):
        checked_protocol(missing)


def test_mismatched_inputs_are_refused():
    with pytest.raises(ValueError, match="2 references and 1 hypotheses"):
        cer_views(["a", "b"], ["a"], "zh")
    with pytest.raises(TypeError, match="two strings or two equal-length lists"):
        cer_views("a", ["a"], "zh")


@pytest.fixture
def no_opencc(monkeypatch):
    """OpenCC made unimportable, with the cached converters and pipelines dropped before and after."""
    def clear():
        script.converter.cache_clear()
        registry._normalizer.cache_clear()

    clear()
    monkeypatch.setitem(__import__("sys").modules, "opencc", None)
    yield
    monkeypatch.undo()
    clear()


@pytest.fixture
def scripts_kept(tmp_path):
    """A project config layer whose zh reviewer normalizer keeps the scripts apart."""
    (tmp_path / "zh.toml").write_text(
        'extends = "zh"\nversion = "9.0.0"\n[options.zh_script]\nfold = "keep"\n', encoding="utf-8")
    registry.use_config_dirs([tmp_path])
    yield
    registry.use_config_dirs([])


def test_without_the_converter_the_script_view_is_null_never_a_copy(scripts_kept, no_opencc):
    details = score("我们去吃饭吧", "我們去吃飯吧", "zh").details
    assert details["cer_script_normalized"] is None
    assert details["cer_normalized"]["rate"] == 2 / 6
    conversion = details["script_conversion"]
    assert conversion["ran"] is False and conversion["scripts"] == {}
    assert "pip install 'opencc==1.4.2'" in conversion["reason"]


def test_without_the_converter_the_script_folding_reviewer_normalizer_says_how_to_install_it(no_opencc):
    with pytest.raises(script.ScriptConverterError, match=r"pip install 'opencc==1\.4\.2'"):
        score("我们去吃饭吧", "我們去吃飯吧", "zh")


def test_a_conversion_that_does_not_load_says_how_to_fix_it():
    script.converter.cache_clear()
    try:
        with pytest.raises(script.ScriptConverterError, match=r"could not load its 'nope' conversion.*--force-reinstall"):
            script.converter("nope")
    finally:
        script.converter.cache_clear()
