"""The Hindi normalizer (configs/hi.toml) and the generic fields it turns on (original requirements: "Hindi")."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import LanguageConfig, load_config
from pytest_asrbench.normalize.lexicon import load_lexicon
from pytest_asrbench.normalize.pipeline import Pipeline, Step
from pytest_asrbench.normalize.registry import configs_dir, get_config, get_lexicons, normalize_text
from pytest_asrbench.normalize.steps import STEPS


def hi(text: str) -> str:
    return normalize_text(text, "hi")


# --- combining marks ---------------------------------------------------------------------


@pytest.mark.parametrize("sentence", [
    "मेरे लैपटॉप में नेटवर्क प्रॉब्लम है",
    "कृपया मेरा अपॉइंटमेंट कन्फर्म कीजिए",
    "क्या आप हिंदी में बात कर सकते हैं?",
    "मैं कल आऊँगा।",
])
def test_a_devanagari_sentence_keeps_its_word_count(sentence):
    assert len(hi(sentence).split()) == len(sentence.split())


# --- folds -------------------------------------------------------------------------------


@pytest.mark.parametrize("a, b", [
    ("ज़रूर", "जरूर"), ("हाँ", "हां"), ("ऑफ़िस", "ऑफिस"), ("फ़्लाइट", "फ्लाइट"), ("बड़ा", "बडा"), ("पढ़ना", "पढना"),
    ("\u095b" + "रूर", "ज\u093c" + "रूर"),  # precomposed and decomposed ज़
])
def test_char_folds(a, b):
    assert hi(a) == hi(b)


def test_fillers_are_written_folded():
    config = get_config("hi")
    for filler in config.fillers:
        assert hi(filler + " घर") == "घर", filler


def test_folds_apply_to_number_words():
    assert hi("पाँच हज़ार") == hi("पांच हजार") == "5000"
    assert hi("दो करोड़") == hi("दो करोड") == "20000000"


# --- numbers -----------------------------------------------------------------------------


def test_every_lexicalized_number_1_to_99_is_in_the_table():
    values = {int(value) for value in get_lexicons("hi")["numbers"].values()}
    assert set(range(0, 100)) <= values


@pytest.mark.parametrize("text, expected", [
    ("सात बजे", "7 बजे"),
    ("पच्चीस मार्च", "25 मार्च"),
    ("निन्यानवे", "99"),
    ("सौ", "100"),
    ("एक सौ एक", "101"),
    ("बारह सौ", "1200"),
    ("दो सौ पचास रुपये", "250 रुपये"),
    ("दो हज़ार पाँच सौ", "2500"),
    ("एक लाख पच्चीस हज़ार", "125000"),
    ("तीन करोड़", "30000000"),
    ("25 हज़ार", "25000"),
    ("25,000", "25000"),
    ("1,00,000", "100000"),
    ("७ बजे", "7 बजे"),
    ("एक दो तीन", "123"),  # three spelled digits are one number (spelled_codes)
    ("एक दो दिन", "1 2 दिन"),  # two stay two numbers ("a day or two")
    ("ढाई सौ", "250"),
    ("डेढ़ लाख", "150000"),
    ("सवा लाख", "125000"),
    ("पौने दो सौ", "175"),
    ("साढ़े तीन हज़ार", "3500"),
    ("साढ़े तीन बजे", "3:30 बजे"),
    ("सवा तीन बजे", "3:15 बजे"),
    ("पौने चार बजे", "3:45 बजे"),
    ("डेढ़ बजे", "1:30 बजे"),
    ("साढ़े तीन घंटे", "3.5 घंटे"),
    ("साढ़े", "साढे"),  # no number after it: a word
    ("007", "007"),  # digits alone are left as written
    ("दो-तीन दिन", "2-3 दिन"),
    ("हज़ार लाख", "1000 100000"),  # a larger multiplier after a smaller one starts a new number
])
def test_number_words(text, expected):
    assert hi(text) == expected


# --- hyphenated compounds ----------------------------------------------------------------


@pytest.mark.parametrize("a, b", [("ई-मेल", "ईमेल"), ("e-mail", "email"), ("ऑन-लाइन", "ऑनलाइन")])
def test_hyphenated_compounds_join(a, b):
    assert hi(a) == hi(b)


@pytest.mark.parametrize("text, expected", [
    ("बार-बार", "बार-बार"), ("धीरे-धीरे", "धीरे-धीरे"),  # reduplication
    ("COVID-19", "covid-19"),  # number
    ("दो-चार", "2-4"),  # number words
])
def test_hyphen_kept(text, expected):
    assert hi(text) == expected


def test_hyphen_next_to_acronym_becomes_a_space():
    # The open form STT writes; a second pass (no capitals left) must not join it.
    assert hi("HR-टीम") == hi("HR टीम") == "hr टीम"
    assert hi(hi("HR-Team")) == hi("HR-Team") == "hr team"


# --- spoken symbols ----------------------------------------------------------------------


@pytest.mark.parametrize("spoken, written", [
    ("A B C डैश एक दो तीन", "ABC-123"),
    ("mag अंडरस्कोर mutual", "mag_mutual"),
    ("mag underscore mutual", "mag_mutual"),
    ("12 स्लैश B", "12/B"),
    ("12 slash B", "12/B"),
    ("X Y डैश 4 4", "XY-44"),
])
def test_spoken_symbols(spoken, written):
    assert hi(spoken) == hi(written)


def test_latin_slash_only_next_to_a_code():
    assert hi("and slash or") == "and slash or"
    assert hi("मैंने slash किया") == "मैंने slash किया"


# --- loanwords ---------------------------------------------------------------------------


@pytest.mark.parametrize("latin, devanagari", [("code", "कोड"), ("january", "जनवरी"), ("business", "बिज़नेस"),
                                              ("Time", "टाइम"), ("email", "ई-मेल")])
def test_loanwords(latin, devanagari):
    assert hi(latin) == hi(devanagari)


# --- lexicon files -----------------------------------------------------------------------


def test_duplicate_lexicon_entry_is_an_error(tmp_path: Path):
    path = tmp_path / "loanwords.tsv"
    path.write_text("code\tकोड\ntime\tटाइम\ncode\tकोड\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"loanwords.tsv:3: duplicate key 'code' \(first on line 1\)"):
        load_lexicon(path)


def test_malformed_lexicon_entry_is_an_error(tmp_path: Path):
    path = tmp_path / "numbers.tsv"
    path.write_text("एक\t1\nदो 2\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"numbers.tsv:2: expected 'key<TAB>value'"):
        load_lexicon(path)


def _pipeline(config: LanguageConfig, lexicons) -> Pipeline:
    return Pipeline(config.language, tuple(Step(name, STEPS[name].build(config, lexicons)) for name in config.steps))


def test_number_words_that_fold_together_must_agree():
    config = get_config("hi")
    with pytest.raises(ConfigError, match="fold to the same word"):
        _pipeline(config, {**get_lexicons("hi"), "numbers": {"हज़ार": "1000", "हजार": "100"}})


def test_non_numeric_number_value_is_an_error():
    config = get_config("hi")
    with pytest.raises(ConfigError, match="expected digits"):
        _pipeline(config, {**get_lexicons("hi"), "numbers": {"एक": "one"}})


def test_missing_lexicon_names_the_line_to_add():
    config = get_config("hi")
    lexicons = {name: table for name, table in get_lexicons("hi").items() if name != "loanwords"}
    with pytest.raises(ConfigError, match=r'loanwords = "<lang>/loanwords.tsv"'):
        _pipeline(config, lexicons)


# --- generic fields change nothing unless turned on --------------------------------------

ENGLISH_SAMPLES = [
    "Hello, World!", "e-mail the HR-Team", "A B C dash 1 2 3", "mag underscore mutual", "12 slash B",
    "and/or", "I'm not sure", "twenty five", "Anmelde-Konto", "co-operate re-enter", "naïve café", "ज़रूर",
    "um, the 7 o'clock flight", "well-known x-ray", "",
]


def test_english_output_unchanged_by_the_generic_fields():
    """English without the fields, with them explicitly empty, and with the fold step listed but empty."""
    path = configs_dir() / "en.toml"
    plain = load_config(path)
    lexicons = get_lexicons("en")
    explicit = plain.model_copy(update={
        "char_folds": {}, "code_switch_languages": [], "code_switch_detection": None, "code_switch_matcher": None,
    })
    with_steps = explicit.model_copy(update={"steps": [*plain.steps, "char_folds"]})
    reference = [normalize_text(text, "en") for text in ENGLISH_SAMPLES]
    for config in (plain, explicit, with_steps):
        assert [_pipeline(config, lexicons)(text) for text in ENGLISH_SAMPLES] == reference


def test_generic_hyphen_step_joins_when_listed():
    config = LanguageConfig(language="xx", version="0", unit="word", steps=["hyphen_compounds"])
    assert _pipeline(config, {})("ई-मेल Anmelde-Konto HR-Team") == "ईमेल AnmeldeKonto HR Team"


def test_hindi_config_is_valid_and_documented():
    config = get_config("hi")
    assert config.code_switch_languages == ["en"] and config.code_switch_matcher == "devanagari_phonetic"
    readme = (configs_dir() / "README.md").read_text(encoding="utf-8")
    for step_name in config.steps:
        assert f"`{step_name}`" in readme, f"configs/README.md does not document the step {step_name!r}"
    assert unicodedata.is_normalized("NFC", hi("ज़रूर"))
