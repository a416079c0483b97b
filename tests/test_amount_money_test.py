"""The ``amounts`` money rules run only where a currency name or symbol is written, with the same output.

The money group of ``amounts`` is triggered by the first word of each currency phrase, and es
``de euros`` and fr ``de dollars`` make that ``de``, a word of most texts. A triggered group
now first looks for a currency name or symbol anywhere in the text (every money rule matches
one as written) and leaves the text as it is where there is none. These tests hold the step
against its reading without that test (``plain`` on the step's function) on adversarial
strings of the step's own words, glued and spaced, and on the inputs it receives on the
benchmark corpus.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pytest_asrbench.normalize.registry import build_pipeline, get_config, get_lexicons
from pytest_asrbench.normalize.steps.registry import STEPS
from tests.test_number_step_triggers import _option_words

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("de", "nl", "fr", "es", "it")


def _amounts(language: str):
    return STEPS["amounts"].build(get_config(language), get_lexicons(language))


def _words(language: str) -> list[str]:
    """The words and phrases of the ``amounts`` option table (its single-word fields too), and
    the pieces its rules read around them."""
    table = get_config(language).options.get("amounts", {})
    single = [value for value in table.values() if isinstance(value, str) and value]
    return _option_words(language, "amounts") + single + ["de", "d'", "la", "x", "%", ":",
                                                           get_config(language).decimal_separator]


def _adversarial(language: str, count: int = 4000) -> list[str]:
    """Seeded strings of digits (alone, with the decimal separator) and the step's words, each
    piece spaced or glued to the next."""
    words = _words(language)
    decimal = get_config(language).decimal_separator
    rng = random.Random(f"amounts:{language}")
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 9)):
            if rng.random() < 0.4:
                number = "".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 4)))
                parts.append(number + (decimal + rng.choice(["5", "50", "05"]) if rng.random() < 0.3 else ""))
            else:
                parts.append(rng.choice(words))
            parts.append(rng.choice([" ", " ", " ", ""]))
        texts.append("".join(parts).strip())
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_amounts_matches_its_reading_without_the_currency_test(language):
    step = _amounts(language)
    texts = _adversarial(language)
    differ = [(text, step(text), step.plain(text)) for text in texts if step(text) != step.plain(text)]
    assert differ == []
    assert sum(step(text) != text for text in texts) > len(texts) // 8  # the rules do fire


@pytest.mark.parametrize("language", LANGUAGES)
def test_amounts_matches_its_reading_without_the_currency_test_on_the_corpus(language):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import corpora
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    names = list(get_config(language).steps)
    index = names.index("amounts")
    pipeline = build_pipeline(language, names)
    inputs = [pipeline.explain(text)[index][1] for text in corpora.load(language)(1500, 20261201)]
    step = _amounts(language)
    assert [text for text in inputs if step(text) != step.plain(text)] == []
