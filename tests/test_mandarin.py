"""Mandarin reviewer normalizer: the numeral grammar, the number step and script folding.

The YAML cases in cases/zh/numbers.yaml and cases/zh/script.yaml hold the reviewer examples;
these pin the parts underneath them value by value.
"""

import pytest

from pytest_asrbench import normalize_text
from pytest_asrbench.normalize import registry
from pytest_asrbench.normalize.languages.zh.numerals import digit_string, numeral_value


@pytest.mark.parametrize(("numeral", "value"), [
    ("三", 3), ("两", 2), ("十", 10), ("十五", 15), ("二十", 20), ("一百零一", 101), ("一千零五", 1005),
    ("一千零一十", 1010), ("两百五十", 250), ("三千五", 3500), ("一万二", 12000), ("一亿三", 130000000),
    ("二十三万四千", 234000), ("三亿五千万", 350000000), ("1万2千", 12000), ("12万", 120000), ("兩萬", 20000),
])
def test_numeral_values(numeral, value):
    assert numeral_value(numeral) == value


@pytest.mark.parametrize("numeral", ["万一", "千万", "百", "十十", "百千", "五六十", "三七二十一", "一二", "三千五六", "幺三八"])
def test_words_ranges_and_malformed_numerals_have_no_value(numeral):
    assert numeral_value(numeral) is None


def test_digit_strings_are_read_digit_by_digit():
    assert digit_string("二零一九") == "2019"
    assert digit_string("幺三八〇") == "1380"
    assert digit_string("两千") is None


def test_digit_strings_mix_ascii_digits_and_refuse_other_unicode_digits():
    assert digit_string("二0一9") == "2019"
    assert digit_string("") is None
    # Characters str.isdigit() accepts that are not ASCII digits are not digits of a digit string.
    assert digit_string("二²") is None
    assert digit_string("１二") is None
    assert digit_string("٣") is None


@pytest.mark.parametrize(("text", "expected"), [
    ("¥0050", "50元"), ("¥0", "0元"),
    ("¥" + "9" * 28, "9" * 28 + "元"),
    # Beyond 28 digits the amount keeps Decimal's default precision (28 significant digits).
    ("¥" + "1" * 30, "1" * 28 + "00元"),
])
def test_whole_yuan_in_digits_read_as_their_plain_value(text, expected):
    assert normalize_text(text, "zh") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("三千四百", "3400"), ("二零一九年三月五日", "2019年3月5日"), ("二点七", "2.7"), ("三点五万", "35000"),
    ("百分之十五", "15%"), ("千分之五", "5‰"), ("四分之三", "3/4"), ("三点十分", "3:10"), ("三点半", "3:30"),
    ("三点一刻", "3:15"), ("十点十分十秒", "10:10:10"), ("五块钱", "5元"), ("三块五", "3.5元"),
    ("三元五角二分", "3.52元"), ("五毛钱", "0.5元"), ("¥5", "5元"), ("5 km", "5公里"), ("第二十一", "第21"),
    ("三到五公里", "3到5公里"), ("下午两点", "下午2点"),
])
def test_number_normal_forms(text, expected):
    assert normalize_text(text, "zh") == expected


@pytest.mark.parametrize("text", ["一定", "一些", "一点儿", "一点", "万一", "三七二十一", "十分", "三四个", "九八年",
                                  "星期三", "二十五点", "三到五"])
def test_words_and_ambiguous_forms_keep_their_numerals(text):
    assert normalize_text(text, "zh") == text


@pytest.mark.parametrize("text", ["二十五点", "三点七十分"])
def test_an_hour_or_minute_out_of_range_is_not_a_time(text):
    assert ":" not in normalize_text(text, "zh")


def test_the_number_step_is_idempotent_on_its_own_output():
    for text in ["三点半", "百分之十五", "四分之三", "三块五", "二零一九年", "5 km", "3.5万"]:
        once = normalize_text(text, "zh")
        assert normalize_text(once, "zh") == once


def test_traditional_and_simplified_compare_equal_by_default():
    assert normalize_text("謝謝你們，這裡很好", "zh") == normalize_text("谢谢你们，这里很好", "zh") == "谢谢你们这里很好"


@pytest.mark.parametrize(("fold", "expected"), [("keep", "謝謝你们"), ("traditional", "謝謝你們")])
def test_a_project_config_chooses_the_script_or_keeps_them_apart(tmp_path, fold, expected):
    (tmp_path / "zh.toml").write_text(f'extends = "zh"\nversion = "9.0.0"\n[options.zh_script]\nfold = "{fold}"\n',
                                      encoding="utf-8")
    registry.use_config_dirs([tmp_path])
    try:
        assert normalize_text("謝謝你们", "zh") == expected
    finally:
        registry.use_config_dirs([])


def test_an_unknown_script_fold_is_refused_with_the_choices(tmp_path):
    (tmp_path / "zh.toml").write_text('extends = "zh"\nversion = "9.0.0"\n[options.zh_script]\nfold = "hk"\n',
                                      encoding="utf-8")
    registry.use_config_dirs([tmp_path])
    try:
        with pytest.raises(Exception, match=r"simplified.*traditional.*keep"):
            normalize_text("謝謝", "zh")
    finally:
        registry.use_config_dirs([])


def test_the_raw_view_still_counts_a_script_mismatch():
    from pytest_asrbench import score

    details = score("谢谢你们", "謝謝你們", "zh").details
    assert details["cer_raw"]["rate"] == 0.75
    assert score("谢谢你们", "謝謝你們", "zh").rate == 0.0


def _opencc_cases():
    """Seeded random strings over Han of both scripts and the zh case texts."""
    import random
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_frozen_profiles import random_texts

    rng = random.Random(7)
    han = [chr(code) for code in range(0x4E00, 0x9FFF)]
    texts = ["".join(rng.choice(han) for _ in range(rng.randrange(1, 12))) for _ in range(5_000)]
    return texts + random_texts(count=5_000)


@pytest.mark.parametrize("configuration", ["tw2s", "s2tw"])
def test_a_text_without_an_opencc_key_is_one_opencc_leaves_as_it_is(configuration):
    from pytest_asrbench.normalize.languages.zh.script import converter, trigger_pattern
    from pytest_asrbench.normalize.registry import get_lexicons

    convert = converter(configuration)
    can_change = trigger_pattern(get_lexicons("zh")[f"opencc_{configuration}"])
    skipped = 0
    for text in _opencc_cases():
        if not can_change(text):
            skipped += 1
            assert convert(text) == text, repr(text)
    assert skipped > 1000


@pytest.mark.parametrize("configuration", ["tw2s", "s2tw"])
def test_every_character_opencc_converts_alone_is_in_its_key_table(configuration):
    from pytest_asrbench.normalize.languages.zh.script import converter, trigger_pattern
    from pytest_asrbench.normalize.registry import get_lexicons

    convert = converter(configuration)
    can_change = trigger_pattern(get_lexicons("zh")[f"opencc_{configuration}"])
    chars = [chr(code) for start, end in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)) for code in range(start, end + 1)]
    converted = convert("\n".join(chars)).split("\n")
    missing = [char for char, out in zip(chars, converted) if out != char and not can_change(char)]
    assert missing == []


def test_a_malformed_opencc_key_table_row_is_refused_with_the_fix():
    from pytest_asrbench.errors import ConfigError
    from pytest_asrbench.normalize.languages.zh.script import trigger_pattern

    with pytest.raises(ConfigError, match="scripts/opencc_key_chars.py"):
        trigger_pattern({"U+4E00": "char"})


def test_the_width_shortcut_covers_every_code_point_of_the_width_table():
    from pytest_asrbench.normalize.languages.zh import width
    from pytest_asrbench.normalize.languages.zh.eval_v1 import WIDTH_FOLDS

    assert all(width._WIDE.fullmatch(chr(code)) for code in WIDTH_FOLDS)
    # The step folds what the class finds from a table of the class's code points.
    assert {code for code in range(0x10000) if width._WIDE.fullmatch(chr(code))} == set(width._WIDE_CODES)
    assert normalize_text("我用ＡＰＰ，付了￥５。", "zh") == "我用app付了5元"


def _number_texts(count: int, seed: int) -> list[str]:
    """Seeded strings packed with what the number forms read: numerals, digits, the characters
    after a numeral (点 分 元 块 毛 到 ...), counters, kept words, ¥, 第, times of day."""
    import random

    from pytest_asrbench.normalize.languages.zh.numerals import CHINESE_NUMERAL_CHARS
    from pytest_asrbench.normalize.registry import get_lexicons

    lexicons = get_lexicons("zh")
    pieces = (list(CHINESE_NUMERAL_CHARS + "0123456789") * 3 + list("点點.分之元块塊毛角钱錢到至~-—¥￥第半刻钟鐘整秒儿兒 的a")
              + ["上午", "下午", "今天", "百分之", "千分之", "一刻", "三刻", "km", " kg"]
              + list(lexicons["counters"]) + list(lexicons["not_numbers"]) + list(lexicons["units"]))
    rng = random.Random(seed)
    return ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12))) for _ in range(count)]


def test_the_forms_tried_where_a_number_can_start_find_what_the_whole_alternation_finds():
    """zh_numbers tries at each position only the forms that can match after that numeral run
    (the character after it decides); the first that matches must be the one the alternation
    of every form, in order, finds there: same form, same span."""
    from pytest_asrbench.normalize.languages.zh import numbers
    from pytest_asrbench.normalize.registry import get_lexicons

    lexicons = get_lexicons("zh")
    counters, kept = tuple(lexicons["counters"]), tuple(lexicons["not_numbers"])
    forms = numbers._forms(counters, kept)
    whole = numbers._alternation_of(forms, set(forms))
    dispatch, _, trigger, _ = numbers._compile(counters, kept, tuple(lexicons["units"]))
    match_at = dispatch.matcher()
    tried, matched = 0, set()
    for text in _number_texts(20_000, 23):
        for position in range(len(text)):
            start = trigger.match(text, position)
            if start is None:
                continue
            expected = whole.match(text, position)
            found = match_at(text, start)
            assert (found and (found.lastgroup, found.span())) == (expected and (expected.lastgroup, expected.span())), \
                (text, position)
            tried += 1
            matched.add(expected and expected.lastgroup)
    assert tried > 40_000
    assert matched == {None} | {f"_{form}" for form in forms}  # every form was met


def test_a_numeral_the_number_trigger_passes_over_is_one_the_forms_keep_as_written():
    """zh_numbers' trigger passes over a lone numeral out of context (一定, 一些); there the
    alternation of every form must match that one character only and give it back, so going
    on from the next character is what trying the forms would have done."""
    from pytest_asrbench.normalize.languages.zh import numbers
    from pytest_asrbench.normalize.languages.zh.numerals import CHINESE_NUMERAL_CHARS
    from pytest_asrbench.normalize.registry import get_lexicons

    lexicons = get_lexicons("zh")
    counters, kept, units = tuple(lexicons["counters"]), tuple(lexicons["not_numbers"]), dict(lexicons["units"])
    forms = numbers._forms(counters, kept)
    whole = numbers._alternation_of(forms, set(forms))
    trigger = numbers._compile(counters, kept, tuple(units)).trigger
    passed = 0
    for text in _number_texts(20_000, 29) + [f"他{char}定会来{char}" for char in CHINESE_NUMERAL_CHARS]:
        for position, char in enumerate(text):
            if char not in CHINESE_NUMERAL_CHARS or trigger.match(text, position):
                continue
            found = whole.match(text, position)
            assert found is None or (found.end() == position + 1
                                     and numbers._replace(found.lastgroup, found, units) == char), (text, position)
            passed += 1
    assert passed > 10_000


def test_a_text_the_number_steps_trigger_does_not_find_is_one_the_step_leaves_as_it_is():
    """The pipeline skips zh_numbers on a text its trigger does not find: no Chinese numeral
    that can be a number, no digits before a number word or a unit, no ¥ or 第."""
    from pytest_asrbench.normalize.pipeline import trigger_of

    pipeline = registry.get_normalizer("zh")
    (function,) = [step.function for step in pipeline.steps if step.name == "zh_numbers"]
    search = trigger_of(function).search
    skipped = 0
    digits = ["增长了15%", "电话是13912345678", "下午9:15在门口见", "2017年4月14日", "他一定会来", "我们一起去吃饭吧"]
    for text in _number_texts(20_000, 31) + digits + [text + " 5" for text in digits]:
        if search(text) is None:
            skipped += 1
            assert function(text) == text, text
    assert skipped > 3_000
    assert all(search(text) is None for text in digits)
    assert function("5  km") == "5公里" and search("5  km") is not None
