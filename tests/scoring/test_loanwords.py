"""The Latin/katakana and Latin/Hangul loanword matcher, and the ``loanwords`` view of ja and ko."""

from __future__ import annotations

import random

import pytest

from pytest_asrbench import score
from pytest_asrbench.normalize.registry import get_lexicons
from pytest_asrbench.scoring.views.codeswitch import kana_hangul
from pytest_asrbench.scoring.views.codeswitch.kana_hangul import (
    LoanwordMatcher,
    hangul_first_vowel,
    hangul_key,
    katakana_first_vowel,
    katakana_key,
    latin_keys,
    near_miss,
)
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring.views.codeswitch.loanwords import loanword_view, matcher_for, rescue_pair

# Latin name, katakana, Hangul, and the key both renderings reduce to.
RENDERINGS = [
    ("teams", "チームズ", "팀즈", None),  # チ for t: JMJ; 팀즈: TMJ
    ("outlook", "アウトルック", "아웃룩", "TRK"),
    ("chrome", "クローム", "크롬", "KRM"),
    ("dropbox", "ドロップボックス", "드롭박스", "TRPKS"),
    ("zoom", "ズーム", "줌", "JM"),
    ("figma", "フィグマ", "피그마", "PKM"),
    ("slack", "スラック", "슬랙", "SRK"),
    ("excel", "エクセル", "엑셀", "KSR"),
    ("python", "パイソン", "파이썬", "PSN"),
    ("netflix", "ネットフリックス", "넷플릭스", "NTPRKS"),
    ("docker", "ドッカー", "도커", "TK"),
    ("youtube", "ユーチューブ", "유튜브", None),
]


@pytest.mark.parametrize("latin, katakana, hangul, key", RENDERINGS)
def test_a_latin_name_matches_its_katakana_and_hangul_renderings(latin, katakana, hangul, key):
    for script, word in (("katakana", katakana), ("hangul", hangul)):
        verdict = LoanwordMatcher(script).check(latin, word)
        assert verdict.matched, verdict.reason
        assert verdict.key in latin_keys(latin)
        if key is not None:
            assert verdict.key == key


def test_keys_drop_vowels_and_merge_a_class_across_the_vowel_a_cluster_gets():
    assert katakana_key("ドロップボックス") == "TRPKS"  # プ ボ: one P, as p b in dropbox
    assert hangul_key("드롭박스") == "TRPKS"  # final ㅂ and initial ㅂ: one P
    assert hangul_key("아웃룩") == "TRK"  # a final ㅅ is a t
    assert katakana_key("ツール") == "TSR"  # ツ is ts


def test_first_vowel_skips_the_vowels_a_script_adds_to_a_cluster():
    assert katakana_first_vowel("クローム", 2) == "O"  # ク's u is added to c-h-r
    assert katakana_first_vowel("フィグマ", 1) == "I"  # a small ィ sets the vowel
    assert hangul_first_vowel("크롬") == "O"  # ㅡ is added


@pytest.mark.parametrize("latin, word, script, why", [
    ("apple", "リンゴ", "katakana", "first vowels differ"),  # a translation
    ("apple", "사과", "hangul", "keys differ"),
    ("canva", "キャンバス", "katakana", "keys differ"),
    ("figma", "フィルム", "katakana", "keys differ"),
    ("teams", "팀장", "hangul", "keys differ"),
    ("fagma", "フィグマ", "katakana", "first vowels differ"),
    ("zo", "ズー", "katakana", "fewer than 3 Latin letters"),
    ("uber", "ウーバー", "katakana", "fewer than 2 consonants"),
    ("figma", "ふぃぐま", "katakana", "needs one Latin and one katakana word"),  # hiragana
    ("figma", "フィグマ", "hangul", "needs one Latin and one hangul word"),
])
def test_pairs_that_are_not_renderings_do_not_match(latin, word, script, why):
    verdict = LoanwordMatcher(script).check(latin, word)
    assert not verdict.matched
    assert verdict.reason.startswith(why)


@pytest.mark.parametrize("language, word, latin", [("ko", "소리", "sorry"), ("ko", "말", "mall"), ("ja", "パン", "pan")])
def test_a_stoplisted_native_word_never_matches(language, word, latin):
    matcher, _ = matcher_for(language)
    assert word in get_lexicons(language)["loanword_stoplist"]
    verdict = matcher.check(latin, word)
    assert not verdict.matched and verdict.reason.startswith("stoplist")
    assert LoanwordMatcher(matcher.script.name).check(latin, word).matched  # the stoplist is what stops it


def test_one_differing_consonant_class_is_a_near_miss():
    verdict = LoanwordMatcher("katakana").check("confluence", "コンフュエンス")
    assert not verdict.matched and verdict.distance == 1 and near_miss(verdict)
    assert not near_miss(LoanwordMatcher("katakana").check("apple", "リンゴ"))


def test_an_unknown_matcher_script_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="known: hangul, katakana"):
        LoanwordMatcher("cyrillic")


@pytest.mark.parametrize("language, reference, hypothesis, strict, latin, rendering", [
    ("ko", "Zoom 회의가 있어요", "줌 회의가 있어요", 0.4, "zoom", "줌"),
    ("ko", "Dropbox에 저장했어요", "드롭박스에 저장했어요", 0.5384615384615384, "dropbox", "드롭박스"),
    ("ja", "Figmaで確認します", "フィグマで確認します", 0.45454545454545453, "figma", "フィグマ"),
])
def test_the_requested_rows_score_zero_and_list_the_rescued_pair(language, reference, hypothesis, strict, latin,
                                                                 rendering):
    assert score(reference, hypothesis, language, metric="cer").rate == pytest.approx(strict)
    result = score(reference, hypothesis, language)
    assert result.rate == 0.0
    rescues = result.details["loanwords"]["rescues"]
    assert [(rescue["side"], rescue["latin"], rescue["rendering"]) for rescue in rescues] == [
        ("reference", latin, rendering)]
    assert result.details["loanwords"]["rescued_errors"] == result.details["loanwords"]["strict_errors"]


def test_the_reference_never_changes_the_hypothesis_writes_the_name_as_it_does():
    latin_reference = rescue_pair("ja", "figmaで確認", "フィグマで確認")
    assert (latin_reference.reference, latin_reference.hypothesis) == ("figmaで確認", "figmaで確認")
    kana_reference = rescue_pair("ja", "フィグマで確認", "figmaで確認")
    assert (kana_reference.reference, kana_reference.hypothesis) == ("フィグマで確認", "フィグマで確認")
    assert kana_reference.rescues[0].side == "hypothesis"


def test_a_latin_word_with_a_digit_next_to_it_is_a_code_and_stays():
    assert rescue_pair("ja", "python3を入れて", "パイソン3を入れて").rescues == ()


def test_a_hangul_word_is_cut_only_before_a_particle_chain():
    assert rescue_pair("ko", "dropbox에서도 봤어요", "드롭박스에서도 봤어요").hypothesis == "dropbox에서도 봤어요"
    assert rescue_pair("ko", "canva로 만들어요", "캔버스로 만들어요").rescues == ()  # 캔버 + 스로 is no particle chain


def test_no_language_without_the_option_is_touched():
    result = score("Figma 회의", "피그마 회의", "zh")
    assert "loanwords" not in result.details


def test_the_cer_metric_has_no_rescue():
    result = score("Figmaで確認します", "フィグマで確認します", "ja", metric="cer")
    assert result.rate > 0 and "loanwords" not in result.details


# Perturbed pairs: the rescue never raises a pair's errors or its rate over the strict score.
_PIECES = {
    "ja": ["Figma", "Chrome", "Teams", "Apple", "Pan", "で", "を", "確認", "します", "フィグマ", "クローム", "チームズ",
           "リンゴ", "パン", "キャンバス", "Canva", "3", "、", "アサナ", "Trello", "トレロ"],
    "ko": ["Zoom", "Dropbox", "Sorry", "Canva", "에", "로", "회의가", "있어요", "줌", "드롭박스", "소리", "캔버스", "캔바",
           "저장했어요", " ", "3", "Slack", "슬랙", "팀즈", "Teams"],
}


@pytest.mark.parametrize("language", ["ja", "ko"])
def test_errors_only_go_down_on_perturbed_pairs(language):
    rng = random.Random(20261202)
    pieces = _PIECES[language]
    rescued = 0
    for _ in range(400):
        reference = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        hypothesis = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        strict = score(reference, hypothesis, language, metric="cer")
        aware = score(reference, hypothesis, language)
        assert aware.errors <= strict.errors, (reference, hypothesis)
        assert (aware.rate or 0.0) <= (strict.rate or 0.0), (reference, hypothesis)
        rescued += bool(aware.details["loanwords"]["rescues"])
    assert rescued >= 5  # the pieces do reach the rescue


def test_the_view_lists_the_same_rescues_whether_or_not_it_remembers_the_rewrite():
    from pytest_asrbench._shared import caches

    references = ["Figmaで確認します", "figmaで確認します", "Chromeを開く"]
    hypotheses = ["フィグマで確認します", "figmaで確認します", "クロームを開く"]
    remembered = score(references, hypotheses, "ja").details["loanwords"]
    caches.reset_from_configs()  # the view's memory of the rewrites is gone: it asks again
    strict = score(references, hypotheses, "ja", metric="cer")
    recomputed = loanword_view(strict, get_config("ja")).details["loanwords"]
    assert [(r["turn"], r["latin"]) for r in remembered["rescues"]] == [(0, "figma"), (2, "chrome")]
    assert remembered["rescues"] == recomputed["rescues"]


def test_a_near_miss_is_listed_for_review_and_stays_an_error():
    result = score("Spotifyを開く", "スポティハイを開く", "ja")  # SPTH against spotify's SPTP
    assert result.rate == score("Spotifyを開く", "スポティハイを開く", "ja", metric="cer").rate
    assert result.details["loanwords"]["near_misses"] == [{"turn": 0, "latin": "spotify", "rendering": "スポティハイ"}]
    assert result.details["loanwords"]["rescues"] == []


def test_the_matcher_remembers_a_bounded_number_of_verdicts():
    matcher = LoanwordMatcher("katakana")
    first = matcher.check("figma", "フィグマ")
    assert matcher.check("figma", "フィグマ") is first  # memoized per pair
    for index in range(kana_hangul.VERDICT_MEMO_SIZE + 10):
        matcher.check(f"name{index}", "フィグマ")
    info = matcher.verdicts.cache_info()
    assert info.maxsize == kana_hangul.VERDICT_MEMO_SIZE
    assert info.currsize == kana_hangul.VERDICT_MEMO_SIZE  # the oldest verdicts were dropped
    assert matcher.check("figma", "フィグマ") == first  # and are computed again alike
