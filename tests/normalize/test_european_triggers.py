"""The European pipelines skip a step only on texts that step would leave unchanged.

A trigger (``pipeline.triggered``) or a step's own cheap test is a superset of what the step
changes; a narrower one would move outputs. Each triggered step of the de, nl, fr, es and it
pipelines is checked on the very texts it receives there (read from ``explain``), for seeded
strings of the language's words, numbers, symbols and odd spaces: every text its trigger
misses comes back unchanged from the step itself. The untriggered cheap tests inside a step
(``abbreviated_titles``, ``code_context_runs``) are pinned by the output digests
(``tests/test_european_output_identity.py``) and by the cases below.
"""

from __future__ import annotations

import pytest

from pytest_asrbench.normalize import get_normalizer
from pytest_asrbench.normalize.pipeline import trigger_of
from tests.test_european_output_identity import LANGUAGES, european_random_texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_european_step_changes_no_text_its_trigger_misses(language):
    pipeline = get_normalizer(language)
    traces = [pipeline.explain(text) for text in european_random_texts(language, count=1500)]
    checked = set()
    for index, step in enumerate(pipeline.steps):
        trigger = trigger_of(step.function)
        if trigger is None:
            continue
        inputs = [trace[index][1] for trace in traces]
        missed = [text for text in inputs if trigger.search(text) is None]
        assert [step.function(text) for text in missed] == missed, (language, step.name)
        checked.add(step.name)
    assert {"amounts", "invisible_characters"} <= checked, language


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("de", "Hr. Müller", "herr mueller"),                # a title at the very start
    ("de", "mit\u00a0Hr. Müller", "mit herr mueller"),    # after a no-break space
    ("de", "das ist z.B. gut", "das ist zum beispiel gut"),
    ("de", "Abs.-Nr. 5", "abs nr 5"),                     # no listed word starts a word
    ("fr", "M. Dupont", "monsieur dupont"),
])
def test_abbreviated_titles_finds_a_listed_word_wherever_a_word_starts(language, text, expected):
    assert get_normalizer(language)(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Kennzeichen M A 1 2", "kennzeichen ma12"),          # the run after the code word
    ("Kennzeichen\tM A", "kennzeichen ma"),               # after a tab: still a word boundary
    ("ich habe 1 2 3 gezählt", "ich habe 1 2 3 gezaehlt"),  # no code word: the run stays
])
def test_code_context_runs_sees_a_pair_after_any_space(text, expected):
    assert get_normalizer("de")(text) == expected
