"""The shared European base config (configs/_european.toml) that de, nl, fr, es and it extend.

The base replaced five copies of one step list. Its outputs are pinned against those lists,
frozen here as they were (each language's own list, with its own tables): over every text of
every case of the five languages and 20,000 seeded random strings per language, built from
the language's own words (its option tables, fillers, folds, titles and spoken symbols),
digits, money, punctuation and symbols. The base is a base, not a language: no language list
shows it, loading it is an error, and editing it moves the signature of all five.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import yaml

from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize import known_languages
from pytest_asrbench.normalize.config import load_config
from pytest_asrbench.normalize.registry import build_pipeline, get_config, get_normalizer

#: A sweep over every case text and thousands of seeded strings: left out of the everyday loop.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
EUROPEAN = ("de", "nl", "fr", "es", "it")
RANDOM_STRINGS = 20_000

_HEAD = ["invisible_characters", "nfc", "unicode_whitespace", "abbreviated_titles", "fillers_any_case", "char_folds",
         "digit_groups"]
_MIDDLE = ["punctuation", "hyphen_compounds", "split_hyphens", "spoken_numbers", "spelled_code_runs",
           "spoken_symbols", "split_hyphens", "lowercase", "punctuation", "collapse_whitespace"]
_TAIL = ["clock_fractions", "amounts"]
#: Each language's step list as it was before the base, frozen.
FROZEN_STEPS = {
    "de": [*_HEAD, "ordinal_dots", *_MIDDLE, *_TAIL],
    "nl": [*_HEAD, "written_ordinals", *_MIDDLE, *_TAIL],
    "fr": [*_HEAD, "written_ordinals", *_MIDDLE, "spaced_digit_groups", *_TAIL],
    "es": [*_HEAD, "written_ordinals", *_MIDDLE, "spaced_digit_groups", *_TAIL],
    "it": [*_HEAD, "written_ordinals", *_MIDDLE, *_TAIL],
}
#: Steps the base added after it replaced the five lists, each with the step it follows:
#: the written forms of spoken addresses, codes, fractions and units, and the style-guide
#: forms read before punctuation (ranges with an en dash, numeric dates, Roman numerals).
ADDED_AFTER = {"spoken_numbers": ["spoken_emails"], "spelled_code_runs": ["code_context_runs"],
               "clock_fractions": ["fractions", "units"], "char_folds": ["number_ranges", "numeric_dates", "roman_numerals"]}
#: ... and with the step it precedes (phone numbers, after the spaced groups where a language has them).
ADDED_BEFORE = {"clock_fractions": ["phone_numbers"]}


def with_added_steps(steps: list[str]) -> list[str]:
    """A frozen list with the steps of :data:`ADDED_AFTER` and :data:`ADDED_BEFORE` inserted
    where the base lists them."""
    out: list[str] = []
    for name in steps:
        out += [*ADDED_BEFORE.get(name, []), name, *ADDED_AFTER.get(name, [])]
    return out

_PUNCTUATION = list(".,;:!?-'’\"()/…–«»¿¡")
_SYMBOLS = list("€$£%@#_&°º+*=")
_SEPARATORS = [" "] * 12 + ["", "-", ". ", ", ", "\u00a0", "\u202f", "  ", "\t", "\u200b"]


def _strings(value) -> list[str]:
    """Every string in a parsed TOML value: table keys and values, list items (not the key of
    a switch: ``join = false`` names no word)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() if not isinstance(item, bool)
                for text in (key, *_strings(item))]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def vocabulary(language: str) -> list[str]:
    """The words and phrases of ``language``'s own tables (every option table, fillers,
    folds) and lexicons, split into words too; sorted, so the random strings do not depend
    on the order of a table."""
    config = get_config(language)
    texts = _strings(list(config.options.values())) + list(config.fillers) + _strings(config.char_folds)
    for path in config.lexicons.values():
        texts += [part for line in (REPO / "configs" / path).read_text(encoding="utf-8").splitlines()
                  for part in line.split("\t") if not line.startswith("#")]
    words = {text for text in texts if text.strip()}
    words |= {word for text in texts for word in text.split()}
    return sorted(words)


def _number(rng: random.Random) -> str:
    digits = str(rng.choice([0, 1, 2, 3, 5, 7, 12, 15, 24, 30, 45, 99, 100, 101, 250, 999, 1000, 3400, 12345,
                             1000000, rng.randrange(10 ** rng.randrange(1, 8))]))
    form = rng.randrange(9)
    if form == 0:
        return f"{digits},{rng.randrange(100):02d}"
    if form == 1 and len(digits) > 3:
        return ".".join([digits[: len(digits) % 3 or 3]] + [digits[i:i + 3] for i in range(len(digits) % 3 or 3,
                                                                                                len(digits), 3)])
    if form == 2 and len(digits) > 3:
        return digits[:-3] + rng.choice([" ", "\u202f", "\u00a0"]) + digits[-3:]
    if form == 3:
        return digits + rng.choice([".", "e", "ème", "er", "re", "ste", "de", "°", ".º", ".ª", "º"])
    if form == 4:
        return f"{rng.randrange(24)}{rng.choice([':', ' h ', 'h', '.'])}{rng.randrange(60):02d}"
    if form == 5:
        return rng.choice(["€", "$", "£"]) + rng.choice(["", " "]) + digits
    if form == 6:
        return digits + rng.choice(["", " "]) + rng.choice(["€", "%", "$", "£"])
    return digits


def random_texts(language: str, count: int = RANDOM_STRINGS, seed: int = 20) -> list[str]:
    """``count`` seeded random strings of ``language``: 1 to 12 pieces, each a word of its
    :func:`vocabulary` (as written, capitalized or in capitals), a number in one of its
    written forms (decimals, groups, ordinals, times, money), a punctuation mark, a symbol or
    a spelled letter, joined by spaces and the occasional hyphen, dot, no-break space or
    nothing."""
    rng = random.Random(f"{seed}-{language}")
    words = vocabulary(language)
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 12)):
            kind = rng.random()
            if kind < 0.55:
                word = rng.choice(words)
                shape = rng.random()
                parts.append(word.capitalize() if shape < 0.2 else word.upper() if shape < 0.27 else word)
            elif kind < 0.75:
                parts.append(_number(rng))
            elif kind < 0.85:
                parts.append(rng.choice(_PUNCTUATION))
            elif kind < 0.93:
                parts.append(rng.choice(_SYMBOLS))
            else:
                parts.append(rng.choice("ABCDEMXZ"))
        text = parts[0]
        for part in parts[1:]:
            text += rng.choice(_SEPARATORS) + part
        texts.append(text)
    return texts


def case_texts(language: str) -> list[str]:
    """Every string value in every case file of ``language`` (references, hypotheses,
    expected forms alike: normalizing any of them must not move)."""
    found: list[str] = []
    for path in sorted((REPO / "cases" / language).rglob("*.yaml")):
        found += _strings(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("language", EUROPEAN)
def test_the_base_normalizes_every_case_and_random_string_as_the_old_step_list_did(language):
    config = get_config(language)
    new = get_normalizer(language)
    old = build_pipeline(language, with_added_steps(FROZEN_STEPS[language]))
    texts = case_texts(language) + random_texts(language)
    assert len(texts) > RANDOM_STRINGS and len(case_texts(language)) > 50
    moved = [(text, old(text), new(text)) for text in texts if old(text) != new(text)]
    assert not moved, f"{language} {config.version}: {len(moved)} outputs moved, e.g. {moved[:3]}"


def test_the_random_strings_use_the_language_s_own_words_numbers_and_symbols():
    texts = random_texts("de", 2000)
    joined = "\n".join(texts)
    assert texts == random_texts("de", 2000)  # seeded
    for needle in ("Bindestrich", "komma", "€", "%", "äh", "ß", ",", "Hr."):
        assert needle in joined, needle
    assert any(char.isdigit() for char in joined) and "\u202f" in joined


@pytest.mark.parametrize("language", EUROPEAN)
def test_each_european_language_extends_the_base_and_keeps_only_its_own_tables(language):
    raw = load_toml((REPO / "configs" / f"{language}.toml").read_bytes(), f"{language}.toml")
    assert raw["extends"] == "_european"
    assert "steps" not in raw and "unit" not in raw
    base = load_toml((REPO / "configs" / "_european.toml").read_bytes(), "_european.toml")
    assert get_config(language).steps == base["steps"]


def test_the_base_is_no_language():
    assert "_european" not in known_languages()
    with pytest.raises(ConfigError, match=r"_european\.toml: a config whose name starts with '_' is a base"):
        load_config(REPO / "configs" / "_european.toml")


def test_the_cli_offers_no_base_as_a_language(capsys):
    from pytest_asrbench.cli import main

    assert main(["normalize", "-l", "_european", "text"]) != 0
    message = capsys.readouterr().err
    assert "no normalizer config for language '_european'" in message
    known = message.split("known languages: ", 1)[1]
    assert "de, en, es, fr" in known and "_european" not in known


def test_editing_the_base_moves_the_signature_of_all_five_languages(tmp_path):
    from pytest_asrbench.signatures.compute import compute
    from pytest_asrbench.signatures.sources import DirSource

    shutil.copytree(REPO / "pytest_asrbench", tmp_path / "pytest_asrbench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "configs", tmp_path / "configs")
    source = DirSource(tmp_path)
    before = {tag: compute("stt_wer", tag, source, with_libraries=False) for tag in (*EUROPEAN, "en")}
    base = tmp_path / "configs" / "_european.toml"
    base.write_text(base.read_text(encoding="utf-8").replace('"split_hyphens",          # the hyphens left',
                                                             '# "split_hyphens",          # the hyphens left'),
                    encoding="utf-8")
    after = {tag: compute("stt_wer", tag, source, with_libraries=False) for tag in (*EUROPEAN, "en")}
    for tag in EUROPEAN:
        assert after[tag].signature != before[tag].signature, tag
        assert after[tag].components["config _european.toml"] != before[tag].components["config _european.toml"]
        assert after[tag].components[f"config {tag}.toml"] == before[tag].components[f"config {tag}.toml"]
    assert after["en"].signature == before["en"].signature
    assert "config _european.toml" not in before["en"].components


def test_a_base_that_extends_a_language_is_refused(tmp_path):
    from pytest_asrbench._shared.config_layers import resolved_config

    (tmp_path / "_mine.toml").write_text('extends = "de"\nsteps = ["nfc"]\n', encoding="utf-8")
    (tmp_path / "de.toml").write_text('language = "de"\nversion = "1.0.0"\nunit = "word"\nsteps = ["nfc"]\n',
                                      encoding="utf-8")
    with pytest.raises(ConfigError, match=r"_mine\.toml: a base config extends only another base"):
        resolved_config(tmp_path / "_mine.toml")


def test_a_lexicon_named_by_a_config_and_its_base_in_one_folder_is_refused(tmp_path):
    from pytest_asrbench._shared.config_layers import resolved_config

    (tmp_path / "words.tsv").write_text("a\tb\n", encoding="utf-8")
    (tmp_path / "_base.toml").write_text('unit = "word"\nsteps = ["nfc"]\n[lexicons]\nwords = "words.tsv"\n',
                                         encoding="utf-8")
    (tmp_path / "xx.toml").write_text('extends = "_base"\nlanguage = "xx"\nversion = "1.0.0"\n'
                                      '[lexicons]\nwords = "words.tsv"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"xx\.toml: lexicon 'words' is also named by the config it extends"):
        resolved_config(tmp_path / "xx.toml")
    (tmp_path / "xx.toml").write_text('extends = "_base"\nlanguage = "xx"\nversion = "1.0.0"\n', encoding="utf-8")
    assert resolved_config(tmp_path / "xx.toml") == {"unit": "word", "steps": ["nfc"], "language": "xx",
                                                     "version": "1.0.0", "lexicons": {"words": "words.tsv"}}
