"""Thai: the frozen benchmark profile bench_v1 (th-bench-v1) and the reviewer-case normalizer.

bench_v1 is one implementation shared by the normalizer profile and the benchmark cleaning;
these tests prove both give the same output on the pinned list and the original requirements' examples, and
pin the profile's outputs. The reviewer rules are pinned value by value (the YAML cases in
cases/th/ hold the reviewer examples).
"""

import hashlib
import json

import pytest

from pytest_asrbench import normalize_text
from pytest_asrbench.bench.errors import BenchDependencyError
from pytest_asrbench.bench.references import cleaning
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize import registry
from pytest_asrbench.normalize.languages.th.bench import BENCH_V1_STEPS
from pytest_asrbench.normalize.languages.th.numbers import load_context, numeral_value
from pytest_asrbench.normalize.registry import get_config, get_normalizer

# The original requirements' examples of clean_text (its docstring) and the texts test_cleaning.py pins.
SEED_EXAMPLES = ["ราคา 22.00 บาท", "นำ้", "เเปลก", "ครับ\u200bผม", "“Hello,” — world!", "จริงหรือ? ใช่!"]
PINNED = [
    "ราคา 22.00 บาท", "นำ้ใส", "เเม่", "A.B.C. 3.14%", "“quoted” — text…", "ไม่ๆ ๆ", "๑๒๓ 123",
    "ก\u200bข\u200cค\u200d", "ก่่อน", "Mixed CASE Thai ไทย!", "tab\tand\nnewline", "  ", "กิโล-เมตร", "e.g., i.e.",
]
# Do not update: a change of bench_v1's output is a new profile (bench_v2), never an edit.
BENCH_V1_OUTPUTS_SHA256 = "e8ac9b11129e16a7f80449040466fd2964282a12a4e688757bcea95ab2bc8aff"


def _sha(value) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode("utf-8")).hexdigest()


def test_the_profile_lists_the_frozen_steps():
    assert tuple(get_config("th").profiles["bench_v1"].steps) == BENCH_V1_STEPS


@pytest.mark.parametrize("text", SEED_EXAMPLES + PINNED)
def test_profile_and_benchmark_cleaning_agree(text):
    profile = get_normalizer("th", profile="bench_v1")
    assert profile(text) == cleaning.clean_th_bench_v1(text) == cleaning.clean_reference(text) == cleaning.cleaner()(text)


def test_the_profile_output_on_the_pinned_list_is_frozen():
    profile = get_normalizer("th", profile="bench_v1")
    assert _sha([profile(text) for text in PINNED]) == BENCH_V1_OUTPUTS_SHA256


def test_seed_examples_keep_their_documented_values():
    profile = get_normalizer("th", profile="bench_v1")
    assert [profile(text) for text in SEED_EXAMPLES] == [
        "ราคา 2200 บาท", "น้ำ", "แปลก", "ครับผม", "hello world!", "จริงหรือ? ใช่!"]


def test_an_edited_frozen_profile_is_refused(tmp_path):
    (tmp_path / "th.toml").write_text(
        'extends = "th"\nversion = "9.0.0"\n[profiles.bench_v1]\nsteps = ["lowercase", "th_bench_v1_pythainlp"]\n',
        encoding="utf-8")
    registry.use_config_dirs([tmp_path])
    try:
        with pytest.raises(cleaning.CleaningProfileError,
                           match=r"th-bench-v1 is the frozen profile \[profiles\.bench_v1\].*put a changed cleaning in a new profile"):
            cleaning.clean_th_bench_v1("ก")
    finally:
        registry.use_config_dirs([])


def test_the_pinned_pythainlp_is_checked_when_the_profile_is_built(monkeypatch):
    import pythainlp

    registry._normalizer.cache_clear()
    monkeypatch.setattr(pythainlp, "__version__", "5.4.0")
    try:
        with pytest.raises(BenchDependencyError, match=r"th-bench-v1 \(profile bench_v1\) is defined with pythainlp 5\.3\.5, but 5\.4\.0"):
            cleaning.cleaner()
    finally:
        registry._normalizer.cache_clear()


def test_the_reviewer_normalizer_is_another_profile():
    # the benchmark keeps decimals out and spaces in; the reviewer normalizer the reverse
    assert get_normalizer("th", profile="bench_v1")("ราคา 22.00 บาท") == "ราคา 2200 บาท"
    assert normalize_text("ราคา 22.00 บาท", "th") == "ราคา22.00บาท"


# --- the reviewer-case normalizer, rule by rule -------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("นำ้", "น้ำ"),                      # marks typed in the wrong order (pythainlp normalize)
    ("ก่่อน", "ก่อน"),                    # a doubled tone mark
    ("เเปลก", "แปลก"),                    # two sara e typed for sara ae
    ("ครับ\u200bผม", "ครับผม"),           # zero-width space
    ("๑๒๓", "123"),                       # Thai digits
    ("๓.๑๔", "3.14"),                     # Thai digits, decimal kept
    ("๑,๐๐๐ บาท", "1000บาท"),             # Thai digit groups
    ("เด็กๆ", "เด็กเด็ก"),                 # mai yamok attached
    ("เด็ก ๆ", "เด็กเด็ก"),                # spaced
    ("นกๆๆ", "นกนกนก"),                  # twice
    ("ๆ", "ๆ"),                           # no word before it: kept (pythainlp would drop it)
    ("สามร้อยยี่สิบห้าบาท", "325บาท"),
    ("ยี่สิบเอ็ด", "21"),
    ("หนึ่งร้อยเอ็ด", "101"),
    ("สองคน", "2คน"),                     # one morpheme before a unit
    ("ร้อยบาท", "100บาท"),
    ("สามจุดหนึ่งสี่", "3.14"),            # decimal built digit by digit, not via a float
    ("สองจุดศูนย์", "2.0"),
    ("5 พันบาท", "5000บาท"),              # digits times a multiplier
    ("2.5 ล้านคน", "2500000คน"),
    ("ศูนย์แปดหนึ่ง", "081"),              # spelled digits with a leading zero
    ("หนึ่งสองสาม", "123"),
    ("สองสามวัน", "สองสามวัน"),           # "two or three days": an amount, kept
    ("ร้อยเอ็ด", "ร้อยเอ็ด"),              # the province, a name
    ("แสนดี", "แสนดี"),                   # "very good"
    ("พันแผล", "พันแผล"),                 # "bandage a wound"
    ("ลบ", "ลบ"),                          # "delete": pythainlp reads it as minus zero
])
def test_thai_rules(text, expected):
    assert normalize_text(text, "th") == expected


@pytest.mark.parametrize(("word", "value"), [
    ("ศูนย์", 0), ("สิบเอ็ด", 11), ("ยี่สิบ", 20), ("หนึ่งล้านสองแสน", 1_200_000), ("ล้านล้าน", 10**12),
    ("ยี่", None), ("เอ็ด", None), ("สองสิบ", None), ("สองสาม", None), ("", None), ("ลบห้า", None),
])
def test_numeral_grammar(word, value):
    assert numeral_value(word) == value


def test_an_unknown_number_context_role_is_an_error():
    with pytest.raises(ConfigError, match="'บาท' has role 'units'; use one of unit, marker, name"):
        load_context({"บาท": "units"}, "thai_numbers")
