"""A step's trigger: the pipeline runs the step only on texts where the trigger matches."""

from __future__ import annotations

import re

import pytest

from pytest_asrbench.normalize.pipeline import Pipeline, Step, trigger_of, triggered


def _counting_upper(calls: list[str]):
    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()
    return upper


def test_a_step_runs_only_on_texts_its_trigger_matches():
    calls: list[str] = []
    step = triggered(re.compile("[0-9]"), _counting_upper(calls))
    pipeline = Pipeline("xx", (Step("upper_if_digits", step),))
    assert pipeline("room 5") == "ROOM 5"
    assert pipeline("no digits here") == "no digits here"
    assert calls == ["room 5"]


def test_explain_lists_a_skipped_step_with_the_unchanged_text():
    step = triggered(re.compile("[0-9]"), _counting_upper([]))
    pipeline = Pipeline("xx", (Step("upper_if_digits", step),))
    assert pipeline.explain("plain words") == [("input", "plain words"), ("upper_if_digits", "plain words")]
    assert pipeline.explain("gate 7") == [("input", "gate 7"), ("upper_if_digits", "GATE 7")]


def test_a_function_without_a_trigger_runs_on_every_text():
    calls: list[str] = []
    function = _counting_upper(calls)
    assert trigger_of(function) is None
    assert Pipeline("xx", (Step("upper", function),))("abc") == "ABC"
    assert calls == ["abc"]


def test_a_trigger_must_be_a_compiled_pattern():
    with pytest.raises(TypeError, match="compiled re.Pattern or regex.Pattern, not str"):
        triggered("[0-9]", _counting_upper([]))  # type: ignore[arg-type]


def test_a_regex_module_pattern_is_a_trigger_too():
    import regex

    calls: list[str] = []
    step = triggered(regex.compile(r"\p{P}"), _counting_upper(calls))
    pipeline = Pipeline("xx", (Step("upper_if_punctuation", step),))
    assert pipeline("a, b") == "A, B"
    assert pipeline("a b") == "a b"
    assert calls == ["a, b"]


def test_punctuation_gives_its_regex_statement_on_strings_of_many_scripts():
    """Every language's ``punctuation`` step (one ``re`` scan, no trigger: the scan is its own
    test) gives the output of its rules stated with ``regex`` property classes, on seeded
    strings of letters, digits, marks, spaces, punctuation and symbols of many scripts."""
    import random

    from pytest_asrbench.normalize import get_normalizer, known_languages
    from pytest_asrbench.normalize.registry import get_config
    from pytest_asrbench.normalize.steps import STEPS
    from pytest_asrbench.normalize.steps.basic import _exact_punctuation

    alphabet = ("aZ09 \t\u00a0\u3000.,:;-_/%$€¥℃‰'\"()!?。、，「」・…—−+=<>@#&*"
                "\u0301\u0303\u093c\u094d\u0e31\u0e48\u0e4c\u302a"  # combining marks of several scripts
                "é中国한국ไทยहिंदी٣٤५६๑๒ⅫⅣ²½\U0001f600")
    rng = random.Random(20261202)
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12))) for _ in range(4000)]
    for language in known_languages():
        config = get_config(language)
        exact = _exact_punctuation(config.decimal_separator,
                                   STEPS["punctuation"].parse_options(config.options.get("punctuation")))
        steps = [step for step in get_normalizer(language).steps if step.name == "punctuation"]
        for step in steps:
            assert trigger_of(step.function) is None, language
            assert [step.function(text) for text in texts] == [exact(text) for text in texts], language


def test_a_repeated_idempotent_step_is_skipped_only_while_the_text_is_its_own_output():
    calls: list[str] = []

    def counted(name, function):
        def run(text):
            calls.append(name)
            return function(text)
        return run

    strip = counted("strip", lambda text: text.strip())
    shout = counted("shout", lambda text: text.upper() if "!" in text else text)
    pipeline = Pipeline("xx", (
        Step("strip", strip, idempotent=True),
        Step("shout", triggered(re.compile("!"), shout)),
        Step("strip", strip, idempotent=True),
    ))
    # Nothing changed the text between the two listings: the second is skipped.
    assert pipeline("  calm  ") == "calm"
    assert calls == ["strip"]
    calls.clear()
    # "shout" made a new text: the second listing runs on it.
    assert pipeline(" hey! ") == "HEY!"
    assert calls == ["strip", "shout", "strip"]
    assert pipeline.explain(" hey! ")[-1] == ("strip", "HEY!")
