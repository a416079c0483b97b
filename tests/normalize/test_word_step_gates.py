"""The cheap tests in front of the word steps never change an output.

``contractions`` reads only the runs around an apostrophe (and searches the whole text only
when a listed word without one may be there); ``spoken_emails`` and ``spoken_symbols`` look
for their trigger words as substrings before splitting the text. Each keeps its full rule as
``.ungated``: here both give the same output on the benchmark corpora and on strings built
from the step's own trigger words, cases, folds and punctuation.
"""

from __future__ import annotations

import itertools
import random
import re
import sys
import zlib
from pathlib import Path

import pytest

from pytest_asrbench.normalize import get_normalizer
from pytest_asrbench.normalize.steps.phrases import FRAGMENT_CHARACTERS, fragments, substring_search

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "de", "fr", "es", "it", "nl")


def _corpus(language: str, count: int) -> list[str]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import corpora
        from normalize_throughput import make_corpus
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    if language == "en":
        return make_corpus(count, 20240601)
    return corpora.load(language)(count, 20261201)


def _step(language: str, name: str):
    (function,) = {step.function for step in get_normalizer(language).steps if step.name == name}
    return function


def _inputs(language: str, name: str, count: int) -> list[str]:
    """The texts ``name`` receives inside the pipeline, and the raw corpus texts."""
    pipeline = get_normalizer(language)
    corpus = _corpus(language, count)
    positions = [index for index, step in enumerate(pipeline.steps) if step.name == name]
    inputs = list(corpus)
    for text in corpus:
        trace = pipeline.explain(text)
        inputs.extend(trace[index][1] for index in positions)
    return inputs


def _adversarial(pieces: list[str], seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    glue = ["", " ", " ", " ", "  ", "\t", ",", ".", "'", "-", "!"]
    return ["".join(rng.choice(pieces) + rng.choice(glue) for _ in range(rng.randint(1, 7))) for _ in range(count)]


_CASES = ["", "x", "X", "İ", "ı", "ſ", "K", "ß", "ä", "Ü", "é", "’", "`", "_", "3", "@", "www", "https", "."]


def _variants(words) -> list[str]:
    out = []
    for word in words:
        out += [word, word.upper(), word.capitalize(), word.replace("s", "ſ"), word.replace("i", "İ"),
                word.replace("k", "K"), word[:-1], word + "s"]
    return out


def test_fragment_characters_meet_only_their_own_capitals_under_ignorecase():
    """The fragments of :func:`fragment_search` are looked for in ``text.lower()``; ``re`` with
    IGNORECASE must match each of their characters by nothing that lowercases elsewhere."""
    allowed = "".join(sorted(FRAGMENT_CHARACTERS))
    pattern = re.compile(f"[{re.escape(allowed)}]", re.IGNORECASE)
    matched = {chr(code) for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF and pattern.fullmatch(chr(code))}
    assert matched == set(FRAGMENT_CHARACTERS) | {char.upper() for char in FRAGMENT_CHARACTERS}


def test_every_word_holds_one_of_its_fragments():
    words = "cannot gonna wanna gotta imma woulda coulda shoulda".split()
    chosen = fragments(words)
    assert chosen is not None
    assert all(any(piece in word for piece in chosen) for word in words)
    assert all(FRAGMENT_CHARACTERS.issuperset(piece) and len(piece) >= 2 for piece in chosen)
    assert fragments(["is"]) is None  # "i" and "s" are not fragment characters: no gate


def test_a_substring_search_keeps_only_the_shortest_of_nested_words():
    search = substring_search(["strich", "bindestrich", "slash"])
    assert search("ein bindestrich")
    assert search("a slash b")
    assert not search("ein strick")


def test_contractions_near_apostrophes_equal_the_rule_over_the_whole_text():
    contractions = _step("en", "contractions")
    table = [line.split("\t")[0] for line in (ROOT / "configs/en/contractions.tsv").read_text().splitlines()
             if line and not line.startswith("#")]
    pieces = _variants(table) + _CASES + [
        "n't", "'s", "'d", "'re", "'ll", "'ve", "'", "''", "John's", "dogs'", "a_b's", "3's", "_'s", "rock'n'roll",
        "he'd've", "İ'm", "café's", "been", "Been", "got", "better", "had", "it", "the", "(", ")", '"']
    texts = _inputs("en", "contractions", 3000) + _adversarial(pieces, 1, 40_000)
    assert [contractions(text) for text in texts] == [contractions.ungated(text) for text in texts]


def test_a_listed_contraction_matched_only_by_wider_case_rules_stays_as_written():
    """``re`` matches "İ" to "i", but "İmma" casefolds to "i̇mma", no listed word: it used to
    raise KeyError."""
    contractions = _step("en", "contractions")
    assert contractions("İmma go") == "İmma go"
    assert contractions("Imma go") == "i am going to go"
    assert contractions("John'ſ been") == "John has been"  # the long s matches "s" (it raised KeyError)


_TRIGGERS = {
    "spoken_emails": ["at", "dot", "punkt", "point", "punto", "punt", "arobase", "arroba", "chiocciola",
                      "apenstaartje", "et", "ät", "klammeraffe", "atzeichen", "doppelpunkt", "schrägstrich",
                      "slash", "barra", "com", "de", "fr", "es", "it", "nl", "org", "gmail", "john", "john.smith",
                      "gmail.com", "h", "t", "p", "s", "w", "the", "a@b.com"],
    "spelled_code_runs": ["A", "B", "M", "Z", "a", "i", "0", "4", "9", "12", "AB", "(M", "B).", "M,", "4-", "٣", "Ä",
                          "x", "Code", "M4B", "(", ")", "."],
    "spoken_symbols": ["dash", "hyphen", "underscore", "under", "score", "slash", "forward", "bindestrich", "strich",
                       "unterstrich", "tiefstrich", "schrägstrich", "schraegstrich", "klammeraffe", "atzeichen",
                       "tiret", "trait", "d'union", "d’union", "barra", "guion", "trattino", "streepje", "A", "B",
                       "C", "a", "i", "1", "2", "12", "HR", "KT", "payroll", "um", "äh", "$", "%"],
}


@pytest.mark.parametrize(("language", "name"), [
    (language, name) for name in sorted(_TRIGGERS) for language in LANGUAGES
    if (language, name) != ("en", "spelled_code_runs")])  # en spells codes with its own step
def test_a_gated_word_step_equals_its_full_rule(language, name):
    step = _step(language, name)
    pieces = _variants(_TRIGGERS[name]) + _CASES
    texts = _inputs(language, name, 1500) + _adversarial(pieces, zlib.crc32(f"{language} {name}".encode()), 15_000)
    assert [step(text) for text in texts] == [step.ungated(text) for text in texts]


@pytest.mark.parametrize("language", [*LANGUAGES, "hi"])
def test_the_token_keys_from_one_fold_of_the_whole_text_equal_each_token_folded_alone(language):
    from pytest_asrbench.normalize.registry import get_config
    from pytest_asrbench.normalize.steps.basic import make_fold
    from pytest_asrbench.normalize.steps.spoken_symbols import folded_token_keys

    folds = get_config(language).char_folds
    fold = make_fold(folds)
    keys = folded_token_keys(folds)
    pieces = [*folds, *(value for value in folds.values() if value.strip()), "a", "B", "ß", "İ", " ", "  ", "\t",
              "\xa0", "-", "'", "1", "°", "barra", "Dash"]
    texts = _adversarial(pieces, zlib.crc32(f"{language} token keys".encode()), 5_000)
    for text in texts:
        tokens = text.split()
        expected = [" ".join(fold(token.casefold()).split()) for token in tokens]
        assert keys(text, tokens, None) == expected, text


def test_casefolded_text_is_one_function_per_fold_table_and_each_text_gets_its_own_fold():
    from pytest_asrbench._shared import caches
    from pytest_asrbench.normalize.registry import get_config
    from pytest_asrbench.normalize.steps.basic import make_fold
    from pytest_asrbench.normalize.steps.phrases import casefolded_text

    folds = dict(get_config("es").char_folds)
    assert casefolded_text(folds) is casefolded_text(dict(reversed(list(folds.items()))))
    folded, fold = casefolded_text(folds), make_fold(folds)
    texts = ["Dash `x`", "Dash `x`", "ÑANDÚ – l’été", "plain", "plain", "", "ǅ ß İ"]
    for text in texts + texts[::-1]:
        assert folded(text) == fold(text.casefold())
        assert folded(text) is folded(text)  # the same object asked again: the kept result
    caches.reset_all()
    assert folded("Dash `x`") == "dash 'x'"


_FOLD_TABLES = {
    "one ASCII source": {"`": "'", "’": "'", "ä": "ae"},
    "two ASCII sources": {"`": "'", "~": "-", "ß": "ss"},
    "no ASCII source": {"’": "'", "°": " degrees ", "–": "-"},
    "more sources than substring tests": {chr(0x2010 + index): "-" for index in range(20)} | {"ab": "x", "`": "'"},
}


@pytest.mark.parametrize("folds", [*_FOLD_TABLES.values(), *({"language": language} for language in [*LANGUAGES, "hi"])],
                         ids=[*_FOLD_TABLES, *(f"{language} char_folds" for language in [*LANGUAGES, "hi"])])
def test_a_fold_that_skips_texts_without_a_source_equals_the_fold_pattern_applied_to_every_text(folds):
    """``make_fold`` and ``casefolded_text`` return a text holding no source unchanged after
    substring tests (for ASCII text, of the ASCII sources only); the fold as stated is the
    sources' alternation, longest first, substituted everywhere."""
    from pytest_asrbench.normalize.registry import get_config
    from pytest_asrbench.normalize.steps.basic import make_fold
    from pytest_asrbench.normalize.steps.phrases import casefolded_text

    if "language" in folds:
        folds = dict(get_config(folds["language"]).char_folds)
    pattern = re.compile("|".join(re.escape(source) for source in sorted(folds, key=len, reverse=True)))
    fold, folded_text = make_fold(folds), casefolded_text(folds)
    pieces = [*folds, *(value for value in folds.values() if value.strip()), *(source[:1] for source in folds),
              "a", "B", "é", "ß", "İ", " ", "1", "'", "-", "`", "~", "Ä", "x"]
    texts = _adversarial(pieces, zlib.crc32(repr(sorted(folds.items())).encode()), 10_000)
    assert [fold(text) for text in texts] == [pattern.sub(lambda match: folds[match[0]], text) for text in texts]
    assert [folded_text(text) for text in texts] == [fold(text.casefold()) for text in texts]


@pytest.mark.parametrize("forms", [["mm", "kg", "Kb", "µm", "%", "s"], ["किलो", "%"], ["ſt", "K"]],
                         ids=["latin", "devanagari", "non-ascii first characters"])
def test_the_glued_unit_test_equals_the_pattern_ignoring_case_on_every_text(forms):
    """``units`` tests ASCII text for a glued unit ("10mm") with a plain class of both cases
    of each first character; it must find exactly what the class ignoring case finds."""
    from pytest_asrbench.normalize.steps.units import glued_test

    test = glued_test(forms)
    any_case = re.compile(rf"\d[{re.escape(''.join(sorted({form[0] for form in forms})))}]", re.IGNORECASE)
    pairs = ["".join(pair) for pair in itertools.product([chr(code) for code in range(128)] + ["٣", "K", "ſ", "İ", "क"],
                                                         repeat=2)]
    texts = pairs + _adversarial([*forms, "1", "٣", "10", "x", "K", "ſ", "İ", " "], 11, 5_000)
    assert [test(text) for text in texts] == [any_case.search(text) is not None for text in texts]


@pytest.mark.parametrize("words", [["km", "kilómetro", "mètres", "€"], ["mm", "ſt", "Kg"], ["ıd", "grad"], ["kilo"]],
                         ids=["accented words", "long s and Kelvin sign", "dotless i", "ascii only"])
def test_a_words_search_equals_its_pattern_on_every_text(words):
    """``words_search`` answers most ASCII texts from their lowercased words, leaving out the
    words that cannot match ASCII text; its answer must be the pattern's on every text."""
    from pytest_asrbench.normalize.steps.phrases import trie_pattern, words_search

    search = words_search(words)
    pattern = re.compile(rf" (?:{trie_pattern(sorted(set(words)))})(?!\S)", re.IGNORECASE)
    pieces = [*words, *(word.upper() for word in words), *(word.replace("ó", "o").replace("è", "e") for word in words),
              "st", "ST", "kg", "id", "ID", "5", "x", " ", "\t", "é"]
    texts = _adversarial(pieces, zlib.crc32(" ".join(words).encode()), 10_000)
    assert [search(text) for text in texts] == [pattern.search(" " + text) is not None for text in texts]
