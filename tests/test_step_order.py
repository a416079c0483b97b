"""Declared step order: each step states what must run before or after it, with a reason
(``@step(..., before={...}, after={...})``), and a step listed twice says why in ``[repeats]``.

``normalize/checks.py`` refuses a config that breaks a rule, naming both steps and the reason;
every shipped config keeps every rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.checks import check_config, order_violation
from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.normalize.registry import get_config, known_languages
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.steps.registry import step

PATH = Path("configs/xx.toml")


def make(steps, **fields) -> LanguageConfig:
    return LanguageConfig(language="xx", version="1.0.0", unit="word", steps=steps, **fields)


@pytest.mark.parametrize("language", known_languages())
def test_every_shipped_config_keeps_every_declared_order_rule(language):
    config = get_config(language)  # runs check_config: order and repeats included
    assert order_violation(config.steps) is None
    for profile in config.profiles.values():
        assert order_violation(profile.steps) is None


def test_a_step_before_the_step_it_must_follow_is_refused_naming_both_and_the_reason():
    with pytest.raises(ConfigError) as error:
        check_config(make(["nfc", "punctuation", "digit_groups"]), PATH)
    assert str(error.value) == (
        "configs/xx.toml: steps: step 'digit_groups' (position 3) must run before 'punctuation' (position 2): "
        "punctuation removes the group separator it reads (3.400 would be 3 400); move 'digit_groups' above "
        "'punctuation'")


def test_a_step_that_reads_another_s_output_listed_first_is_refused():
    with pytest.raises(ConfigError, match=r"steps: step 'amounts' \(position 1\) must run after 'spoken_numbers' "
                                          r"\(position 2\): it reads amounts in digits"):
        check_config(make(["amounts", "spoken_numbers"]), PATH)


def test_a_profile_is_checked_like_the_default_list():
    config = make(["nfc"], profiles={"raw": {"steps": ["lowercase", "spelled_code_runs", "punctuation"]}})
    with pytest.raises(ConfigError, match=r"profiles\.raw: step 'spelled_code_runs' \(position 2\) must run before "
                                          r"'lowercase' \(position 1\): capitals tell a spelled letter"):
        check_config(config, PATH)


def test_spoken_symbols_with_code_only_names_after_lowercase_is_refused_when_built():
    # code_only names are replaced only next to a code, and capitals tell a code from a word;
    # Japanese lists spoken_symbols after lowercase because it has no code_only names
    from pytest_asrbench.normalize.config import LanguageConfig
    from pytest_asrbench.normalize.steps import STEPS

    config = LanguageConfig.model_validate({
        "language": "xx", "version": "1.0.0", "unit": "word",
        "steps": ["punctuation", "lowercase", "spoken_symbols"],
        "options": {"spoken_symbols": {"symbols": {"dash": "-"}, "code_only": ["dash"]}}})
    spec = STEPS["spoken_symbols"]
    options = spec.options.model_validate(config.options["spoken_symbols"])
    with pytest.raises(ConfigError, match=r"'spoken_symbols' \(position 3\) must run before 'lowercase' "
                                          r"\(position 2\) when \[options.spoken_symbols\] names code_only"):
        spec.factory(config, {}, options)


def test_a_rule_applies_only_when_the_list_names_both_steps():
    assert order_violation(["nfc", "punctuation", "lowercase"]) is None
    assert order_violation(["punctuation", "digit_groups"]) is not None


def test_a_before_rule_counts_every_listing_and_an_after_rule_the_first():
    # a second punctuation after digit_groups is fine; a second digit_groups after punctuation is not
    assert order_violation(["digit_groups", "punctuation", "punctuation"]) is None
    assert "'digit_groups' (position 3) must run before 'punctuation' (position 2)" in order_violation(
        ["digit_groups", "punctuation", "digit_groups"])
    # amounts reads spoken_numbers' output: the first amounts must come after the first spoken_numbers
    assert order_violation(["spoken_numbers", "amounts", "spoken_numbers"]) is None


def test_a_repeated_step_without_a_reason_is_refused():
    with pytest.raises(ConfigError, match=r"steps: step 'split_hyphens' is listed 2 times but \[repeats\] gives 0 "
                                          r"reason\(s\); say why each later listing runs again"):
        check_config(make(["split_hyphens", "lowercase", "split_hyphens"]), PATH)


def test_a_step_listed_three_times_needs_two_reasons():
    steps = ["split_hyphens", "lowercase", "split_hyphens", "nfc", "split_hyphens"]
    with pytest.raises(ConfigError, match=r"listed 3 times but \[repeats\] gives 1 reason"):
        check_config(make(steps, repeats={"split_hyphens": "the first reason"}), PATH)
    check_config(make(steps, repeats={"split_hyphens": ["the first reason", "the second reason"]}), PATH)


def test_a_reason_for_a_step_no_list_repeats_is_refused():
    with pytest.raises(ConfigError, match=r"\[repeats\] names 'lowercase', which no step list repeats; remove"):
        check_config(make(["nfc", "lowercase"], repeats={"lowercase": "stale"}), PATH)


def test_an_empty_repeat_reason_is_refused():
    with pytest.raises(ValueError, match=r"repeats\.lowercase has an empty reason"):
        make(["lowercase", "lowercase"], repeats={"lowercase": " "})


def test_every_declared_rule_names_a_registered_step_and_no_two_rules_contradict():
    pairs = set()
    for spec in STEPS.values():
        for other, reason in spec.before:
            assert other in STEPS, (spec.name, other)
            assert reason.strip() and "\n" not in reason
            pairs.add((spec.name, other))
        for other, reason in spec.after:
            assert other in STEPS, (spec.name, other)
            assert reason.strip() and "\n" not in reason
            pairs.add((other, spec.name))
    assert len(pairs) >= 40
    contradictions = [(a, b) for a, b in pairs if (b, a) in pairs]
    assert not contradictions


def test_the_order_rules_that_the_config_comments_used_to_state_are_declared():
    assert dict(STEPS["digit_groups"].before)["punctuation"]
    assert dict(STEPS["spoken_numbers"].before)["spoken_symbols"]
    assert dict(STEPS["thai_digits"].before)["digit_groups"]
    assert dict(STEPS["hindi_digits"].before)["punctuation"]


@pytest.mark.parametrize(("rules", "message"), [
    ({"before": {"my_own_step": "itself"}}, "declares itself in before="),
    ({"after": {"nfc": ""}}, r"after\['nfc'\] needs a one-line reason"),
    ({"before": {"nfc": "two\nlines"}}, r"before\['nfc'\] needs a one-line reason"),
])
def test_a_rule_without_a_one_line_reason_or_on_the_step_itself_is_refused_at_registration(rules, message):
    with pytest.raises(RuntimeError, match=message):
        step("my_own_step", **rules)
    assert "my_own_step" not in STEPS
