"""``spoken_numbers`` reads its token classes exactly as the word-by-word reading does.

The step classes each distinct token once (a held word, a number that text2num rewrites, a
number that reads as itself, an inner word, another word) and lets one regex over a text's
class letters find the spans handed to text2num; a held word (de ``ein``, es ``un``) gets its
class in the text at hand. Two shortcuts rest on a claim about text2num: a string without a
letter (digits, separators, symbols) is never parsed, because text2num's number words are
all letters. These tests hold the claim against text2num itself, and the step's output
against its plain reading (``plain`` on the step function: replacements, then every held word
decided and every span parsed word by word) on adversarial strings built from the step's own
words and on the inputs the step receives on the benchmark corpus and the identity corpora.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from text_to_num import alpha2digit

from pytest_asrbench.normalize.registry import build_pipeline, get_config, get_lexicons
from pytest_asrbench.normalize.steps.number_words import _LETTER
from pytest_asrbench.normalize.steps.registry import STEPS

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("de", "nl", "fr", "es", "it")
#: Digits of several scripts (ASCII, Arabic-Indic, fullwidth, Devanagari), the separators the
#: European texts keep, symbols, an underscore and a combining mark: what a letterless token holds.
_LETTERLESS = "0123456789٣３७,.:-/%€$£'_+ \u0301"


def _spoken_numbers(language: str):
    return STEPS["spoken_numbers"].build(get_config(language), get_lexicons(language))


def _letterless_strings() -> list[str]:
    strings = [str(number) for number in range(10_000)]
    strings += [f"0{number}" for number in range(1000)] + [f"00{number}" for number in range(100)]
    rng = random.Random("letterless")
    for _ in range(4000):
        strings.append("".join(rng.choice(_LETTERLESS) for _ in range(rng.randrange(1, 14))))
    return [text for text in strings if _LETTER.search(text) is None]


@pytest.mark.parametrize("language", LANGUAGES)
def test_text2num_leaves_every_string_without_a_letter_as_it_is(language):
    strings = _letterless_strings()
    assert len(strings) > 14_000
    moved = [text for text in strings if alpha2digit(text, language, threshold=0) != text]
    assert moved == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_text2num_leaves_every_word_of_letters_and_digits_as_it_is(language):
    """One alphanumeric word holding a digit (``KC9``, ``zwei3``, ``3ème``) is one word to
    text2num, and no number word holds a digit: the step classes it without asking."""
    from tests.test_european_output_identity import _WORDS

    words = sorted(word for word in {*_WORDS[language], *_option_words(language)} if word.isalnum())
    pieces = words + ["er", "e", "ème", "º", "ª", "ste", "de", "te", "st", "o", "a", "KC", "X", "²", "٣"]
    rng = random.Random(f"alnum:{language}")
    tokens = []
    for _ in range(5000):
        parts = [rng.choice(pieces) for _ in range(rng.randrange(1, 4))]
        parts.insert(rng.randrange(len(parts) + 1), str(rng.randrange(2000)))
        tokens.append("".join(parts))
    tokens = [token for token in tokens if token.isalnum() and not token.isalpha()]
    assert len(tokens) > 4000
    assert [token for token in tokens if alpha2digit(token, language, threshold=0) != token] == []


def _letterless_tokens(rng: random.Random, count: int) -> str:
    tokens = []
    for _ in range(count):
        token = "".join(rng.choice(_LETTERLESS.replace(" ", "")) for _ in range(rng.randrange(1, 6)))
        tokens.append(rng.choice([token, token, str(rng.randrange(1000)), "-", "'", "3.", "0"]))
    return " ".join(tokens)


@pytest.mark.parametrize("language", LANGUAGES)
def test_text2num_reads_the_words_before_tokens_without_a_letter_alone(language):
    """A span whose last tokens have no letter is read as its words, then those tokens: the
    step reads ``null fünf`` once for every ``null fünf 526 2992``."""
    config = get_config(language)
    inner = {word.lower() for word in config.options.get("spoken_numbers", {}).get("inner_words", [])}
    from tests.test_european_output_identity import _WORDS

    words = [word for word in {*_option_words(language), *_WORDS[language]} if word.lower() not in inner]
    words.sort()
    numbers = [word for word in words if alpha2digit(word, language, threshold=0) != word]
    rng = random.Random(f"tail:{language}")
    moved = []
    for _ in range(3000):
        pool = numbers if rng.random() < 0.8 else words
        head = " ".join(rng.choice(pool) for _ in range(rng.randrange(1, 4)))
        if rng.random() < 0.3:  # an inner word inside the head ("vingt et un")
            head = f"{rng.choice(numbers)} {rng.choice(sorted(inner) or ['x'])} {head}"
        tail = " " + _letterless_tokens(rng, rng.randrange(1, 5))
        whole = alpha2digit(head + tail, language, threshold=0)
        if whole != alpha2digit(head, language, threshold=0) + tail:
            moved.append((head + tail, whole))
    assert len(numbers) > 20
    assert moved == []


def _option_words(language: str) -> list[str]:
    """The step's words: its option tables, the language's number words (the compound step's
    list) and their capitalised forms."""
    config = get_config(language)
    words: list[str] = []
    for table in (config.options.get("spoken_numbers", {}), config.options.get("hyphen_compounds", {})):
        for value in table.values():
            if isinstance(value, dict):
                words.extend(str(key) for key in value)
                words.extend(str(item) for item in value.values() if isinstance(item, str))
            elif isinstance(value, list):
                words.extend(str(item) for item in value)
    words = [piece for word in words for piece in word.split()]
    return sorted({*words, *(word.capitalize() for word in words), *(word.upper() for word in words[:10])})


def _adversarial(language: str, count: int = 3000) -> list[str]:
    """Seeded strings of the step's words, digits (alone, with a decimal comma, glued to a
    dot or a hyphen), codes and ordinary words, 1-9 tokens, some with doubled spaces."""
    words = _option_words(language) + ["Kaffee", "café", "huis", "KC9", "SLP", "x", "de", "la"]
    rng = random.Random(f"spoken:{language}")
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 10)):
            roll = rng.random()
            if roll < 0.25:
                digits = "".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 5)))
                parts.append(digits + rng.choice(["", "", ",5", ".", "-12", "e", "º"]))
            else:
                parts.append(rng.choice(words))
        texts.append(rng.choice([" ", " ", "  "]).join(parts))
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_spoken_numbers_matches_its_plain_reading_on_its_own_words(language):
    step = _spoken_numbers(language)
    texts = _adversarial(language)
    differ = [(text, step(text), step.plain(text)) for text in texts if step(text) != step.plain(text)]
    assert differ == []
    # Both paths are exercised: held words in a numeric context and out of it, spans of several tokens.
    assert sum(step(text) != text for text in texts) > len(texts) // 4


def _inputs_in_the_pipeline(language: str, texts: list[str]) -> list[str]:
    names = list(get_config(language).steps)
    index = names.index("spoken_numbers")
    pipeline = build_pipeline(language, names)
    return [pipeline.explain(text)[index][1] for text in texts]


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_spoken_numbers_matches_its_plain_reading_on_the_corpora(language):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import corpora
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from tests.test_european_output_identity import european_random_texts

    texts = corpora.load(language)(3000, 20261201) + european_random_texts(language, 5000)
    inputs = texts + _inputs_in_the_pipeline(language, texts)
    step = _spoken_numbers(language)
    differ = [(text, step(text), step.plain(text)) for text in inputs if step(text) != step.plain(text)]
    assert differ == []
