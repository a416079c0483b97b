"""The normalizer machinery: config validation, lexicons, registry, fallback, caching, explain."""

from __future__ import annotations

import re

import pytest

from pytest_asrbench import explain, normalize_text
from pytest_asrbench.errors import ConfigError, UnknownLanguageError
from pytest_asrbench.normalize.checks import check_config
from pytest_asrbench.normalize.config import load_config
from pytest_asrbench.normalize.steps import STEPS
from pytest_asrbench.normalize.lexicon import load_lexicon
from pytest_asrbench.normalize.registry import get_normalizer, known_languages

MINIMAL = 'language = "xx"\nversion = "1"\nunit = "word"\nsteps = ["lowercase"]\n'


def test_unknown_language_is_a_value_error_listing_known_languages():
    with pytest.raises(ValueError, match="known languages: .*en"):
        normalize_text("hello", "tlh")
    with pytest.raises(UnknownLanguageError):
        normalize_text("hello", "")


def test_regional_tag_falls_back_to_base_language():
    assert normalize_text("Hello", "en-GB") == normalize_text("Hello", "en")
    assert normalize_text("Hello", "EN_us") == "hello"


def test_non_string_input_is_a_type_error():
    with pytest.raises(TypeError, match="expects a str"):
        normalize_text(None, "en")


def test_normalizer_is_built_once():
    assert get_normalizer("en") is get_normalizer("en")
    assert get_normalizer("en-GB") is get_normalizer("en")


def test_a_language_tag_is_resolved_once_per_tag_as_asked(monkeypatch):
    """resolve_language (get_normalizer, normalize_text, score, the case loader) remembers a
    tag it resolved; the remembered tags are dropped with the other config caches."""
    from pytest_asrbench.normalize import registry

    get_normalizer("en-AU")  # resolved and remembered
    calls: list[str] = []
    real = registry.resolve_tag
    monkeypatch.setattr(registry, "resolve_tag", lambda tag, known: calls.append(tag) or real(tag, known))
    for _ in range(3):
        assert get_normalizer("en-AU") is get_normalizer("en")
    assert calls == []
    # an unknown tag is never remembered: it raises on every call
    for _ in range(2):
        with pytest.raises(UnknownLanguageError):
            get_normalizer("tlh")
    assert calls == ["tlh", "tlh"]
    registry.clear_caches()
    get_normalizer("en-AU")
    assert "en-AU" in calls[2:]  # resolved again after the caches were dropped


def test_explain_lists_every_step_in_order():
    trace = explain("Hello", "en")
    assert trace[0] == ("input", "Hello")
    assert trace[-1][1] == normalize_text("Hello", "en")
    assert [name for name, _ in trace[1:]] == [step.name for step in get_normalizer("en").steps]


def test_every_shipped_config_is_valid_and_builds():
    assert "en" in known_languages()
    for tag in known_languages():
        assert get_normalizer(tag).steps


def test_unknown_config_key_is_an_error(tmp_path):
    path = tmp_path / "xx.toml"
    path.write_text(MINIMAL + 'filers = ["uh"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="filers: Extra inputs are not permitted"):
        load_config(path)


def test_missing_required_key_is_an_error(tmp_path):
    path = tmp_path / "xx.toml"
    path.write_text('language = "xx"\nunit = "word"\nsteps = ["lowercase"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="version: Field required"):
        load_config(path)


def test_bad_toml_is_an_error(tmp_path):
    path = tmp_path / "xx.toml"
    path.write_text("language = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def _checked(tmp_path, text: str):
    path = tmp_path / "xx.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    check_config(config, path)
    return config


SYMBOLS = 'language = "xx"\nversion = "1"\nunit = "word"\nsteps = ["punctuation", "spoken_symbols"]\n'


def test_code_only_symbol_must_be_a_symbol(tmp_path):
    with pytest.raises(ConfigError, match=r"xx.toml: \[options.spoken_symbols\]: code_only: .*not in symbols"):
        _checked(tmp_path, SYMBOLS + '[options.spoken_symbols]\ncode_only = ["slash"]\n')


def test_step_options_are_validated_by_the_steps_model(tmp_path):
    config = _checked(tmp_path, SYMBOLS + '[options.punctuation]\nkeep_symbols = "%"\n'
                      '[options.spoken_symbols.symbols]\ndash = "-"\n')
    lexicons: dict = {}
    punctuation = STEPS["punctuation"].build(config, lexicons)
    assert punctuation("50%, ok!") == "50%  ok "
    assert STEPS["spoken_symbols"].build(config, lexicons)("A dash 1") == "A-1"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        # an unknown key names the file, the table, the key and the keys it has
        ('[options.punctuation]\nkeep_symbol = "%"\n',
         r"xx.toml: \[options.punctuation\]: keep_symbol: Extra inputs are not permitted "
         r"\(the table's keys are: keep_symbols, inner_punctuation, ordinal_dot\)"),
        ('[options.punctuation]\nkeep_symbols = 5\n', r"\[options.punctuation\]: keep_symbols: Input should be a valid string"),
        ('[options.lowercase]\nx = 1\n', r"\[options.lowercase\]: step 'lowercase' takes no options"),
        ('[options.fillerz]\nx = 1\n', r"\[options.fillerz\]: no step is called 'fillerz'"),
        ('[options.brackets]\n', r"\[options.brackets\]: step 'brackets' takes no options"),
    ],
)
def test_bad_option_tables_name_the_file_and_table(tmp_path, table, message):
    with pytest.raises(ConfigError, match=message):
        _checked(tmp_path, SYMBOLS + table)


def test_option_table_of_an_unlisted_step_is_an_error(tmp_path):
    text = 'language = "xx"\nversion = "1"\nunit = "word"\nsteps = ["lowercase"]\n[options.punctuation]\nkeep_symbols = "%"\n'
    with pytest.raises(ConfigError, match=r"\[options.punctuation\]: step 'punctuation' is not listed"):
        _checked(tmp_path, text)


@pytest.mark.parametrize(
    ("line", "now"),
    [
        ('keep_symbols = "%"', r"it is now `keep_symbols` of \[options.punctuation\]"),
        ('spoken_symbols_code_only = ["slash"]', r"it is now `code_only` of \[options.spoken_symbols\]"),
        ("remove_spaces = true", "remove it: listing the `remove_spaces` step turns the rule on"),
        ("join_hyphenated_compounds = true", "remove it: listing the `hyphen_compounds` step turns the rule on"),
    ],
)
def test_a_moved_flat_key_says_where_it_lives_now(tmp_path, line, now):
    with pytest.raises(ConfigError, match=rf"xx.toml: {line.split(' =')[0]}: no longer a top-level key; {now}"):
        _checked(tmp_path, MINIMAL + line + "\n")


def test_unknown_step_names_the_file_and_list(tmp_path):
    text = MINIMAL + '[profiles.p]\nsteps = ["lowercas"]\n'
    with pytest.raises(ConfigError, match=r"xx.toml: profiles.p: unknown step 'lowercas'"):
        _checked(tmp_path, text)


def test_lexicon_reads_tsv_and_skips_comments(tmp_path):
    path = tmp_path / "lex.tsv"
    path.write_text("# comment\n\ncolour\tcolor\ncentre\tcenter\n", encoding="utf-8")
    assert load_lexicon(path) == {"colour": "color", "centre": "center"}


@pytest.mark.parametrize(
    "content, message",
    [
        ("a\tb\na\tc\n", r"lex.tsv:2: duplicate key 'a' \(first on line 1\)"),
        ("a b\n", r"lex.tsv:1: expected 'key<TAB>value' \(one tab\), found 0"),
        ("a\tb\tc\n", r"lex.tsv:1: expected 'key<TAB>value' \(one tab\), found 2"),
        ("\tb\n", r"lex.tsv:1: empty key"),
    ],
)
def test_malformed_lexicon_names_file_and_line(tmp_path, content, message):
    path = tmp_path / "lex.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_lexicon(path)


def test_missing_lexicon_file_says_where_to_fix(tmp_path):
    with pytest.raises(ConfigError, match="lexicon file not found"):
        load_lexicon(tmp_path / "nope.tsv")


@pytest.mark.parametrize("space", ["\t", "\u00a0", "\u2009", "\u200b", "\u3000", "\n"])
def test_any_unicode_whitespace_is_a_word_boundary(space):
    assert normalize_text(f"hello{space}world", "en") == "hello world"


def test_nfc_first():
    assert normalize_text("cafe\u0301", "en") == normalize_text("caf\u00e9", "en")


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("joiner", ["\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff"])
def test_in_word_invisible_characters_are_removed_not_boundaries(language, joiner):
    assert normalize_text(f"क्{joiner}ष", language) == normalize_text("क्ष", language)
    assert len(normalize_text(f"क्{joiner}ष", language).split()) == 1


@pytest.mark.parametrize("language", ["en", "hi", "de", "ja"])
def test_orphan_combining_marks_never_become_words(language):
    # U+FE0F after an emoji, and a combining acute after a removed symbol.
    assert normalize_text("pizza \u2764\ufe0f", language) == normalize_text("pizza", language)
    assert normalize_text("a \u2605\u0301 b", language) == normalize_text("a b", language)


def test_marks_of_a_word_are_kept():
    assert normalize_text("नमस्ते दुनिया", "hi") == "नमस्ते दुनिया"
    assert normalize_text("cafe\u0301", "en") == "caf\u00e9"


# --- steps belong to a language or are generic ---------------------------------------------


@pytest.mark.parametrize(("step_name", "owner"), [("number_words", "en"), ("spelling", "en"), ("hindi_numbers", "hi")])
def test_another_languages_step_is_a_config_error(tmp_path, step_name, owner):
    text = f'language = "de"\nversion = "1"\nunit = "word"\nsteps = ["lowercase", "{step_name}"]\n'
    with pytest.raises(ConfigError, match=rf"xx.toml: steps: step '{step_name}' belongs to language '{owner}' "
                                          rf"and cannot be listed by a 'de' config"):
        _checked(tmp_path, text)


def test_a_code_switch_language_lends_its_steps(tmp_path):
    text = ('language = "hi"\nversion = "1"\nunit = "word"\nsteps = ["hindi_digits", "number_words"]\n'
            'code_switch_languages = ["en"]\ncode_switch_detection = "script"\n')
    assert _checked(tmp_path, text).steps == ["hindi_digits", "number_words"]


def test_language_steps_live_in_their_language_package():
    for name, spec in STEPS.items():
        module = spec.factory.__module__
        if spec.language is None:
            assert module.startswith("pytest_asrbench.normalize.steps."), (name, module)
        else:
            assert module.startswith(f"pytest_asrbench.normalize.languages.{spec.language}."), (name, module)


#: Language packages without number or word rules, and why (no empty modules to fill the shape).
WITHOUT_NUMBER_AND_WORD_RULES = {
    "zh": "zh-eval-v1 converts no numerals and rewrites no words (docs/mandarin.md); its rules are "
          "eval_v1.py (the frozen cleaning) and script.py (OpenCC)",
}


def test_every_language_package_has_the_same_skeleton():
    import importlib
    from pathlib import Path

    import pytest_asrbench.normalize.languages as languages

    for folder in sorted(Path(languages.__file__).parent.iterdir()):
        if not (folder / "__init__.py").is_file():
            continue
        package = importlib.import_module(f"pytest_asrbench.normalize.languages.{folder.name}")
        assert package.LANGUAGE == folder.name
        if folder.name not in WITHOUT_NUMBER_AND_WORD_RULES:
            assert {"numbers.py", "words.py"} <= {path.name for path in folder.glob("*.py")}


# --- numbers know their language's separators -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("hi", "5.3", "5.3"),            # was "5 3"
        ("th", "-3.14", "-3.14"),        # was "314"
        ("de", "0,2 Millionen", "200000"),  # was "0 2 millionen"; the scale is multiplied out
        ("de", "0,2 Liter", "0,2 l"),  # the unit is its symbol (units)
        ("de", "1.000.000", "1000000"),
        ("de", "3.14", "3 14"),          # a dot is not a German decimal separator
        ("fr", "3,5 m", "3,5 m"),
        ("ko", "1,000원", "1000원"),
        ("en", "3.5, 1,000", "3.5 1000"),
        ("en", "-3.14", "minus 3.14"),   # English reads the sign (negative_numbers)
        ("ja", "3.5。", "3.5"),
        ("zh", "−2.5", "-2.5"),          # U+2212 minus sign is written "-"
    ],
)
def test_decimals_and_groups_by_language(language, text, expected):
    assert normalize_text(text, language) == expected


def test_separators_are_read_from_the_config(tmp_path):
    config = _checked(tmp_path, 'language = "xx"\nversion = "1"\nunit = "word"\nsteps = ["digit_groups", "punctuation"]\n'
                                'decimal_separator = ","\ngroup_separator = "."\n')
    pipeline = [STEPS[name].build(config, {}) for name in config.steps]
    text = "1.250,75 und 3.14, 2,"
    for run in pipeline:
        text = run(text)
    assert " ".join(text.split()) == "1250,75 und 3 14 2"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ('decimal_separator = ","\ngroup_separator = ","\n', "group_separator ',' is also the decimal_separator"),
        ('decimal_separator = ""\n', "decimal_separator: String should have at least 1 character"),
        ('group_separator = " "\n', "separator ' ' is a letter, digit or space"),
    ],
)
def test_bad_separators_are_config_errors(tmp_path, fields, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        _checked(tmp_path, MINIMAL + fields)
