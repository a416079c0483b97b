"""zh-eval-v1, the frozen cleaning of the Mandarin evaluation protocol, and its four CER views.

The golden table below is the protocol's record: if an edit moves any of its rates, v1 has
changed, which is never allowed (a change is zh-eval-v2, new profiles and steps; see
docs/mandarin.md). Do not update the table to make a test pass.
"""

from fractions import Fraction as F

import pytest

from pytest_asrbench import score
from pytest_asrbench.normalize.languages.zh import eval_v1, script
from pytest_asrbench.normalize.registry import get_config, get_normalizer
from pytest_asrbench.scoring.views.cer_views import VIEW_NAMES

V1_PROFILES = {
    "eval_v1_punct": ["zh_eval_v1_nfc", "zh_eval_v1_width", "zh_eval_v1_latin_case", "zh_eval_v1_whitespace"],
    "eval_v1": ["zh_eval_v1_nfc", "zh_eval_v1_width", "zh_eval_v1_latin_case", "zh_eval_v1_whitespace",
                "zh_eval_v1_punctuation"],
    "eval_v1_script_simplified": ["zh_eval_v1_nfc", "zh_eval_v1_width", "zh_eval_v1_latin_case",
                                  "zh_eval_v1_whitespace", "zh_eval_v1_punctuation", "zh_eval_v1_to_simplified"],
    "eval_v1_script_traditional": ["zh_eval_v1_nfc", "zh_eval_v1_width", "zh_eval_v1_latin_case",
                                   "zh_eval_v1_whitespace", "zh_eval_v1_punctuation", "zh_eval_v1_to_traditional"],
}

# (reference, hypothesis, cer_raw, cer_punct, cer_normalized, cer_script_normalized)
GOLDEN = [
    # Traditional output against a Simplified reference: 们/們, 饭/飯 and the full stop.
    ("我们去吃饭吧。", "我們去吃飯吧", F(3, 7), F(3, 7), F(2, 6), F(0)),
    # Simplified output against a Traditional reference (detected: 謝 and 們 are Traditional).
    ("謝謝你們", "谢谢你们", F(3, 4), F(3, 4), F(3, 4), F(0)),
    # Full-width Latin letters fold to half width, then to lower case.
    ("我用ＡＰＰ。", "我用app。", F(3, 6), F(0), F(0), F(0)),
    ("打开Chrome", "打开chrome", F(1, 8), F(0), F(0), F(0)),
    # Spaces: ASCII and the ideographic space U+3000.
    ("你 好", "你好", F(1, 3), F(0), F(0), F(0)),
    ("你好\u3000世界", "你好世界", F(1, 5), F(0), F(0), F(0)),
    # Punctuation: kept by cer_punct (the full-width comma folds to ","), removed by cer_normalized.
    ("你好，世界！", "你好世界", F(2, 6), F(2, 6), F(0), F(0)),
    ("你好，世界！", "你好,世界!", F(2, 6), F(0), F(0), F(0)),
    # The ideographic full stop is not a width form of "." (it stays under cer_punct).
    ("好。", "好.", F(1, 2), F(1, 2), F(0), F(0)),
    # Numerals are not converted: 2026 and 二零二六 stay four substitutions in every view.
    ("二零二六年", "2026年", F(4, 5), F(4, 5), F(4, 5), F(4, 5)),
    # A real recognition error survives every view.
    ("我爱北京", "我爱南京", F(1, 4), F(1, 4), F(1, 4), F(1, 4)),
    # Full-width digits fold; the yen sign is a symbol, not punctuation (it stays).
    ("价格￥５元", "价格¥5元", F(2, 5), F(0), F(0), F(0)),
    # The percent sign is read aloud (百分之): it stays when punctuation goes.
    ("增长5%。", "增长5", F(2, 5), F(2, 5), F(1, 4), F(1, 4)),
    # A Taiwan-script reference: the Simplified hypothesis goes to Taiwan standard forms.
    ("我們去吃飯吧", "我们去吃饭吧", F(2, 6), F(2, 6), F(2, 6), F(0)),
]


def test_the_v1_profiles_list_the_frozen_steps():
    profiles = get_config("zh").profiles
    assert {name: list(profiles[name].steps) for name in V1_PROFILES} == V1_PROFILES
    assert {name: list(steps) for name, steps in eval_v1.PROTOCOL.steps.items()} == V1_PROFILES


def test_the_width_table_is_exactly_the_documented_code_points():
    expected = {code: chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}
    expected[0x3000] = " "
    expected.update(zip(range(0xFFE0, 0xFFE7), "¢£¬¯¦¥₩"))
    assert eval_v1.WIDTH_FOLDS == expected
    assert len(eval_v1.WIDTH_FOLDS) == 102


@pytest.mark.parametrize("text", ["①②", "㍻", "ﬁ", "x²", "ｶﾀｶﾅ", "「引号」《书名》、。", "兀"])
def test_nothing_outside_the_table_is_width_folded(text):
    """Not NFKC: circled digits, squared era names, ligatures, superscripts, half-width kana,
    CJK punctuation and CJK compatibility ideographs are left as they are."""
    assert eval_v1.fold_width(text) == text


def test_latin_case_folding_touches_only_latin_letters():
    assert eval_v1.fold_latin_case("ÉCOLE Straße ΑΒΓ АБВ 中文") == "école straße ΑΒΓ АБВ 中文"


def test_punctuation_removal_keeps_symbols_and_digits():
    assert eval_v1.remove_punctuation("「你好」，3.5%＋$¥…—") == "你好35%＋$¥"  # ＋ is a symbol (Sm)
    assert eval_v1.remove_punctuation("5‰ #1 A&B a@b.c ‱!") == "5‰ #1 A&B a@bc ‱"  # spoken signs stay


@pytest.mark.parametrize(("profile", "text", "expected"), [
    ("eval_v1_punct", "Ｈｅｌｌｏ　ＡＰＰ，謝謝！ 2026年", "helloapp,謝謝!2026年"),
    ("eval_v1", "Ｈｅｌｌｏ　ＡＰＰ，謝謝！ 2026年", "helloapp謝謝2026年"),
    ("eval_v1_script_simplified", "Ｈｅｌｌｏ　ＡＰＰ，謝謝！ 2026年", "helloapp谢谢2026年"),
    ("eval_v1_script_traditional", "我们去吃饭吧", "我們去吃飯吧"),  # s2tw: 吃, not s2t's 喫
    ("eval_v1_script_traditional", "这里着急", "這裡著急"),  # Taiwan forms
    ("eval_v1_script_simplified", "這裡著急，裏面", "这里着急里面"),  # tw2s folds 著 and 裡/裏
    ("eval_v1", "e\u0301", "é"),  # NFC composes
])
def test_profile_outputs(profile, text, expected):
    assert get_normalizer("zh", profile)(text) == expected


@pytest.mark.parametrize(("reference", "hypothesis", "raw", "punct", "normalized", "script_normalized"), GOLDEN)
def test_golden_table_of_v1_rates(reference, hypothesis, raw, punct, normalized, script_normalized):
    details = score(reference, hypothesis, "zh").details
    assert details["cer_protocol"] == "zh-eval-v1"
    rates = {name: details[name]["rate"] for name in VIEW_NAMES}
    assert rates == pytest.approx({"cer_raw": float(raw), "cer_punct": float(punct),
                                   "cer_normalized": float(normalized), "cer_script_normalized": float(script_normalized)},
                                  abs=1e-12)
    assert details["script_conversion"]["ran"] is True


def test_opencc_is_the_pinned_release():
    """The v1 figures are recorded with OpenCC 1.4.2 (pyproject.toml pins it)."""
    assert script.opencc_version() == script.V1_OPENCC
