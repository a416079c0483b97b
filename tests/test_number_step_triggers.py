"""The triggers of the number steps skip only texts the step leaves unchanged.

``digit_groups``, ``spaced_digit_groups``, ``phone_numbers``, ``ordinal_dots``, ``fractions``,
``clock_fractions``, ``code_context_runs`` and ``hyphen_compounds`` carry a trigger (a pattern every text they change contains); the pipeline
skips a step whose trigger finds nothing. Each test runs the step's own function on strings
where the trigger finds nothing and checks it returns them unchanged: adversarial strings
built from the step's own material (digit groups of every size around every separator, the
config's words and phrases, glued and spaced) and the inputs each step receives inside the
pipeline on the benchmark corpus. Fast paths inside ``spoken_numbers`` and the other steps are
pinned by the output digests (``tests/test_european_output_identity.py``, English identity).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pytest_asrbench.normalize import get_normalizer
from pytest_asrbench.normalize.pipeline import trigger_of
from pytest_asrbench.normalize.registry import get_config

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("de", "nl", "fr", "es", "it", "en")
STEPS = ("digit_groups", "spaced_digit_groups", "phone_numbers", "ordinal_dots", "clock_fractions", "fractions",
         "code_context_runs", "hyphen_compounds")
SEPARATORS = (" ", ".", "-", ",", ":", "  ", ". ", "")
COUNT = 4000


def _option_words(language: str, step: str) -> list[str]:
    """Every word and phrase of the step's option table (keys and list items), as written."""
    table = get_config(language).options.get(step, {})
    words: list[str] = []
    for value in table.values():
        if isinstance(value, dict):
            words.extend(str(key) for key in value)
        elif isinstance(value, list):
            words.extend(str(item) for item in value)
    return words


def _adversarial(language: str, step: str) -> list[str]:
    """Seeded strings of digit groups (1-8 digits) and the step's words joined by every
    separator the step's patterns read, glued or spaced."""
    words = _option_words(language, step) + ["Dann", "um", "März", "halb", "x"]
    if step == "code_context_runs":  # spelled capitals, and code words as written in a sentence
        words += ["A", "B", "M", *(word.capitalize() for word in words)]
    if step == "hyphen_compounds":
        words += ["-", "Anmelde-Konto", "HR-", "zwei-", "-drei", "peut-être", "bla-bla"]
    rng = random.Random(f"{language}:{step}")
    if step == "phone_numbers":  # numbers of the config's own groupings, each separator
        groupings = [[int(size) for size in grouping.split("-")] for grouping in words if "-" in grouping]
        words = ["".join(rng.choice("0123456789") for _ in range(size)) + rng.choice(" .-")
                 for sizes in groupings for size in sizes for _ in range(20)]
        words = [word[:-1] if rng.random() < 0.3 else word for word in words]
    texts = []
    for _ in range(COUNT):
        parts = []
        for _ in range(rng.randrange(1, 8)):
            if rng.random() < 0.6:
                parts.append("".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 9))))
            else:
                parts.append(rng.choice(words))
            parts.append(rng.choice(SEPARATORS))
        texts.append("".join(parts).strip() if rng.random() < 0.5 else "".join(parts))
    return texts


def _pipeline_inputs(language: str, step: str) -> list[str]:
    """The texts ``step`` receives inside the pipeline on 1,500 benchmark utterances (the
    English corpus of benchmarks/normalize_throughput.py for en)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        if language == "en":
            from normalize_throughput import make_corpus
            corpus = make_corpus(1500, 20261201)
        else:
            import corpora
            corpus = corpora.load(language)(1500, 20261201)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    pipeline = get_normalizer(language)
    index = [listed.name for listed in pipeline.steps].index(step)
    return [pipeline.explain(text)[index][1] for text in corpus]


def _step(language: str, name: str):
    """The function of the first listing of ``name`` in ``language``'s pipeline (``None``: not listed)."""
    steps = [listed for listed in get_normalizer(language).steps if listed.name == name]
    return steps[0].function if steps else None


def _triggered_pairs() -> list[tuple[str, str]]:
    """Every (language, step) of :data:`STEPS` that the language lists with a trigger: a step
    its config does not list, or lists with its option table turned off (it then runs on every
    text), has no trigger to check there."""
    return [(language, step) for language in LANGUAGES for step in STEPS
            if (function := _step(language, step)) is not None and trigger_of(function) is not None]


def test_every_number_step_has_its_trigger_checked_in_some_language():
    checked = {step for _, step in _triggered_pairs()}
    assert checked == set(STEPS), f"steps with no triggered listing to check: {sorted(set(STEPS) - checked)}"


@pytest.mark.parametrize(("language", "step"), _triggered_pairs())
def test_a_number_step_leaves_unchanged_every_text_its_trigger_skips(language, step):
    function = _step(language, step)
    trigger = trigger_of(function)
    texts = _adversarial(language, step)
    if step in ("phone_numbers", "clock_fractions", "spaced_digit_groups", "fractions"):
        texts = [text.lower() for text in texts]  # these run after lowercase
    skipped = [text for text in texts if trigger.search(text) is None]
    changed = [text for text in skipped if function(text) != text]
    assert not changed, f"{language} {step}: the trigger skips texts the step changes: {changed[:5]}"
    assert len(skipped) < len(texts), "the adversarial strings never reach the step: the test would prove nothing"


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_number_step_triggers_skip_only_unchanged_texts_on_the_benchmark_corpus(language):
    for step in STEPS:
        if not any(listed.name == step for listed in get_normalizer(language).steps):
            continue
        function = _step(language, step)
        trigger = trigger_of(function)
        if trigger is None:
            continue  # the step is off in this language: no trigger to check
        inputs = _pipeline_inputs(language, step)
        changed = [text for text in inputs if trigger.search(text) is None and function(text) != text]
        assert not changed, f"{language} {step}: the trigger skips texts the step changes: {changed[:5]}"
