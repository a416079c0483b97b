"""The Japanese language package: its steps alone, its tables' errors, and idempotence on
sentences made of the words its rules react to. Reviewer examples are YAML cases in
cases/ja/; these tests pin the machinery under them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize import normalize_text
from pytest_asrbench.normalize.languages.ja.codes import CodeReader
from pytest_asrbench.normalize.languages.ja.numbers import _exception_pattern, numeral_value
from pytest_asrbench.normalize.languages.ja.script import fold_width
from pytest_asrbench.normalize.registry import build_pipeline, get_config, get_lexicons


@pytest.mark.parametrize(("numeral", "value"), [
    ("二千二十六", 2026), ("三百", 300), ("千", 1000), ("十", 10), ("十一", 11), ("二十", 20),
    ("一万二千", 12000), ("1万2千", 12000), ("2万", 20000), ("三億五千万", 350_000_000),
    ("二〇二六", 2026), ("一一〇", 110), ("百一", 101), ("一兆", 10**12),
])
def test_numeral_values(numeral, value):
    assert numeral_value(numeral) == value


@pytest.mark.parametrize("numeral", ["十十", "百千", "万", "万億", "二十一二", "億万"])
def test_ill_formed_numerals_have_no_value(numeral):
    assert numeral_value(numeral) is None


def test_width_fold_is_the_block_only():
    assert fold_width("ＧＰＳ１") == "GPS1"
    assert fold_width("ｶﾞｲﾄﾞ") == "ガイド"
    assert fold_width("① ㍻ ゟ 々 ぁ") == "① ㍻ ゟ 々 ぁ"
    assert fold_width("") == ""


def _reader() -> CodeReader:
    lexicons = get_lexicons("ja")
    return CodeReader(lexicons["code_letters"], lexicons["code_digits"], lexicons["counters"])


@pytest.mark.parametrize(("text", "expected"), [
    ("イー エム ピー さん", "emp3"),
    ("イーエムピー", "emp"),
    ("番号は イー エム ピー さんです", "番号は emp3です"),
    ("三 一 八 五 ゼロ 四", "318504"),
    ("エムさん", "エムさん"),             # the honorific: no pause before さん
    ("エム さん", "m3"),
    ("ワイワイ", "ワイワイ"),
    ("ピー ピー", "pp"),
    ("アイ", "アイ"),
    ("二三", "二三"),                     # a pair of kanji digits alone may be a range
    ("〇三一", "031"),
    ("abc 123", "abc 123"),              # nothing to convert: left as it is
    ("イー 三つ", "イー 三つ"),            # a digit with its counter is a number
    ("イー 3ページ", "イー 3ページ"),
])
def test_code_reader(text, expected):
    assert _reader()(text) == expected


def test_number_word_rules_are_checked():
    with pytest.raises(ConfigError, match="'number before X|Y'"):
        _exception_pattern({"十分": "number after 後"})
    with pytest.raises(ConfigError, match="十分"):
        _exception_pattern({"十分": "keep before "})


def test_a_missing_lexicon_says_where_to_declare_it():
    config = get_config("ja").model_copy(update={"lexicons": {}})
    from pytest_asrbench.normalize.steps import STEPS
    with pytest.raises(ConfigError, match=r"code_letters = \"<lang>/code_letters.tsv\""):
        STEPS["ja_codes"].build(config, {})


def test_variant_table_must_not_chain():
    from pytest_asrbench.normalize.steps import STEPS
    with pytest.raises(ConfigError, match="must not be a variant itself"):
        STEPS["ja_variants"].build(get_config("ja"), {"variants": {"振り替え": "振替", "振替": "振替え"}})


def test_variants_reach_a_fixed_point():
    normalize = build_pipeline("ja", ["ja_variants"])
    assert normalize("振り替ええーと") == "振替ーと"


def test_loanwords_whole_words_and_several_words():
    normalize = build_pipeline("ja", ["lowercase", "ja_loanwords"])
    assert normalize("service now と jira") == "サービスナウ と ジラ"
    assert normalize("microsoft teams") == "マイクロソフトチームズ"
    assert normalize("jiras ジラフ チームス") == "jiras ジラフ チームズ"


def test_fillers_only_at_a_chunk_start():
    normalize = build_pipeline("ja", ["ja_fillers"])
    assert normalize("えーと口座 なんとか あの人 あの すみません") == "口座 なんとか あの人 すみません"
    assert normalize("えー ええと えーとあのー確認") == "確認"
    assert normalize("えーとあの すみません") == "すみません"   # the rest of the chunk is a filler too


def test_other_languages_cannot_list_the_japanese_steps():
    from pytest_asrbench.normalize.checks import check_config
    config = get_config("en").model_copy(update={"steps": ["ja_codes"]})
    with pytest.raises(ConfigError, match="ja_codes"):
        check_config(config, Path("configs/en.toml"))


JA_WORDS = ("イー エム ピー エー ビー ワイワイ ゼロ マル さん いち に 三 一 八 〇 十 百 千 万 二千二十六 "
            "年 月 日 時 分 円 人 つ 番 線 後 十分 一番 一時 的 三日月 一人 ひとり 二三 何とか 振り替え 合って "
            "confluence Jira ジラ コンフルエンス チームス service now えーと あの まあ うーん なんとか "
            "ＧＰＳ１ ｶﾞｲﾄﾞ 3 12 2026 です の は で").split(" ")
JA_SEPARATORS = st.sampled_from(["", "", " ", "、", "・", "。", "\u3000"])
JA_TEXT = st.lists(st.tuples(st.sampled_from(JA_WORDS), JA_SEPARATORS), max_size=12).map(
    lambda pairs: "".join(word + sep for word, sep in pairs))


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=JA_TEXT)
def test_japanese_rule_words_are_idempotent(text):
    once = normalize_text(text, "ja")
    assert normalize_text(once, "ja") == once
