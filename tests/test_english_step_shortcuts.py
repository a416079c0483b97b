"""The shortcuts of the English word and amount steps give the outputs of their plain paths.

Each step below decides most texts by a shortcut (a search over the lowercased text instead
of a case-insensitive one, trying amounts only near currency words, one walk instead of a
pass per rule); each keeps its plain path as ``run.plain``. Here the two are compared on the
English case texts, a slice of the throughput corpus as it reaches the step, and seeded
strings made of the step's own trigger words, digits and separators (the strings a shortcut
is most likely to misjudge), for every configuration that lists the step.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pytest_asrbench.normalize.registry import get_normalizer
from tests.digests import case_texts
from tests.test_english_number_gates import SEPARATORS, _step_inputs

ROOT = Path(__file__).resolve().parents[1]


def _step(language: str, name: str):
    """The function of the first listing of step ``name`` in ``language``'s normalizer."""
    return next(step.function for step in get_normalizer(language).steps if step.name == name)


def _lexicon_keys(path: str) -> list[str]:
    lines = (ROOT / "configs" / path).read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[0] for line in lines if line and not line.startswith("#")]


def _strings(pieces: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(pieces) + rng.choice(SEPARATORS) for _ in range(rng.randint(1, 10))).strip(" ")
            for _ in range(count)]


_AMOUNT_PIECES = (
    "0 1 5 9 05 12 20 50 55 99 100 5.20 5.5 5.00 0.5 12.345 and And AND a of plus tax costs it is 5$ $5 "
    "$5.20 $ 5 €3 3€ £20.50 ¥1 ₹500 US$5 C$ 5 Rs. 5 five twenty I was $706.65 $0 $0.00 $0.05 $05 $5.00 "
    "$5.5 $1.234 $5.10 $10.99 5.00$ $\u0665 $1\u0665 \u0661$ $1234567890123456789012345 $12345678901234567890.25 "
    "$$5 $5$ 5$5 us$5 x$5 plus tax"
).split()


@pytest.mark.parametrize("language", ["en", "hi"])
def test_money_tries_amounts_only_near_currency_words_and_symbols(language):
    run = _step(language, "money")
    pieces = (_AMOUNT_PIECES + _lexicon_keys(f"{language}/currencies.tsv")
              + _lexicon_keys(f"{language}/currency_minor.tsv"))
    pieces += [piece.upper() for piece in pieces] + [piece.title() for piece in pieces]
    texts = _strings(pieces, 30_000, 20261204)
    if language == "en":
        texts += _step_inputs("money")
    else:
        texts += case_texts(ROOT / "cases", "hi")
    assert sum(run(text) != text for text in texts) > 1_000  # the comparison reaches the rules
    assert [text for text in texts if run(text) != run.plain(text)] == []


@pytest.mark.parametrize("language", ["en", "hi"])
def test_spelled_codes_lowercased_pair_search_equals_the_case_insensitive_one(language):
    run = _step(language, "spelled_codes")
    digit_words = "zero one two three four five six seven eight nine".split() if language == "en" else \
        "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split()
    pieces = (digit_words + [word.upper() for word in digit_words] + [word.title() for word in digit_words]
              + list("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
              + "aI Ai ſ K \u212a İ 12 1a one1 hundred point and the is at x_1 o'clock é".split())
    texts = _strings(pieces, 30_000, 20261205) + case_texts(ROOT / "cases", language)
    if language == "en":
        texts += _step_inputs("spelled_codes")
    assert sum(run(text) != text for text in texts) > 1_000
    assert [text for text in texts if run(text) != run.plain(text)] == []


def test_english_fractions_ascii_gates_skip_only_texts_the_rules_leave_unchanged():
    from pytest_asrbench.normalize.languages.en import fractions

    run = _step("en", "english_fractions")
    words = sorted({word for word in fractions._WORDS.split("|")})
    pieces = (words + [word.upper() for word in words] + [word.title() for word in words]
              + "0 1 2 3 12 100 1/2 3/4 2/3 a A an of OF and the March May on at x 5.5 2:30 x/y - ' ½ ¾".split()
              + [f"{article} {word} {of}" for word in words[::3] for article in ("a", "A") for of in ("of", "OF")])
    texts = _strings(pieces, 30_000, 20261206) + _step_inputs("english_fractions")
    assert sum(run(text) != text for text in texts) > 1_000
    assert [text for text in texts if run(text) != run.plain(text)] == []
