"""The reviewer normalizers of zh, ja, ko and th give the same outputs as when their digests were recorded.

Speed work on these pipelines (pre-checks that skip a step which cannot change a text,
cached per-word conversions, tables built once) must never move an output. Outputs are
compared, as SHA-256 digests, with the outputs recorded from the code before that work, on
two inputs per language:

* every string value of the language's case files as they were at each recording, the
  earlier recordings' included (kept in ``reviewer_digests.json``, so later case edits never
  weaken the check);
* 20,000 strings from a seeded generator that joins pieces of what the steps act on: words of
  the benchmark corpora (``benchmarks/corpora/<tag>.py``), entries of the language's lexicons
  (``configs/<tag>/*.tsv``), number words, ASCII and native digits, spoken and written
  symbols, Latin of both cases, other scripts, spaces and invisible characters.

A change meant to move an output re-records the digests from the new code (and bumps the
config version by a minor step): ``python -m tests.test_cjk_thai_output_identity``
(from the repository's root).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tests.digests import RecordedDigests, assert_generator_reaches, case_texts, normalizer
from tests.digests import outputs_digest as digest_of

#: A sweep over every case text and thousands of seeded strings: left out of the everyday loop.
pytestmark = pytest.mark.slow

DIGESTS = RecordedDigests(Path(__file__).with_name("reviewer_digests.json"))
ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("zh", "ja", "ko", "th")
RANDOM_SEED = 20261202
RANDOM_COUNT = 20_000
CORPUS_COUNT = 400

#: Number words and symbols of each language, spelled out (the lexicons hold the rest).
_NUMBER_WORDS = {
    "zh": "零 〇 一 二 三 四 五 六 七 八 九 十 百 千 万 亿 两 幺 壹 贰 叁 萬 億 兩 點 点 分之 百分之 第 半 刻 元 块 角 毛 年 月 日 号 点钟 负 正".split(),
    "ja": "零 〇 一 二 三 四 五 六 七 八 九 十 百 千 万 億 兆 点 分の 割 円 ゼロ いち に さん よん し ご ろく なな しち はち きゅう じゅう ひゃく せん まん おく ハイフン アンダーバー スラッシュ パーセント 第".split(),
    "ko": "영 공 일 이 삼 사 오 육 륙 칠 팔 구 십 백 천 만 억 조 하나 둘 셋 넷 다섯 여섯 일곱 여덟 아홉 열 스물 서른 한 두 세 네 점 분의 퍼센트 프로 원 시 분 반 년 월 일 하이픈 언더바 슬래시 대시 번째 제".split(),
    "th": "ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า สิบ ยี่ สิบเอ็ด เอ็ด ร้อย พัน หมื่น แสน ล้าน จุด ร้อยละ เปอร์เซ็นต์ บาท ๆ ฯ ๆ".split(),
}
_SHARED = (
    list("0123456789") + ["12", "2019", "3.5", "1,000", "010-1234-5678", "50%", "3:30", "1/3", "-7", "0.25"]
    + list("０１２３４５６７８９ＡＢＣａｂｃ！？，．％＃＠＆￥") + list("。、，；：「」《》（）【】…—·・ー")
    + list(".,:;!?%-_/$@#&+=()[]\"'℃°") + ["KT", "km", "kg", "App", "WiFi", "GPT-4", "A", "b", "Z", "x", "İ", "é", "ß"]
    + ["๐", "๑", "๒", "๓", "๔", "๕", "๖", "๗", "๘", "๙", "๓.๑๔", "๑,๐๐๐"]
    + ["我们", "這裡", "謝謝", "軟體", "ひらがな", "カタカナ", "한국어", "안녕", "ภาษา", "नमस्ते", "Москва"]
    + [" ", " ", " ", "  ", "\t", "\n", "\u200b", "\u200c", "\u200d", "\u00a0", "\u3000", "\ufeff", "\u0301", "①", "²", "ﬁ", "ｶ"]
)


#: Lexicons no normalizer step reads (the scoring views' own), left out of the random pieces.
_SCORING_LEXICONS = {"loanword_stoplist.tsv"}


def _lexicon_pieces(language: str) -> list[str]:
    """Every cell of ``configs/<language>/*.tsv`` (comments skipped) but the scoring views' lexicons, sorted."""
    pieces: set[str] = set()
    for path in sorted((ROOT / "configs" / language).glob("*.tsv")):
        if path.name in _SCORING_LEXICONS:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                pieces.update(cell for cell in line.split("\t") if cell)
    return sorted(pieces)


def _corpus_pieces(language: str) -> list[str]:
    """Words (space-separated pieces) and short slices of the language's benchmark corpus."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import corpora
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    pieces: set[str] = set()
    for utterance in corpora.load(language)(CORPUS_COUNT, RANDOM_SEED):
        pieces.update(utterance.split(" "))
        for start in range(0, len(utterance), 5):
            pieces.add(utterance[start:start + 7])
    return sorted(pieces)


def random_texts(language: str, seed: int = RANDOM_SEED, count: int = RANDOM_COUNT,
                 number_words: list[str] | None = None) -> list[str]:
    """``count`` strings of 0..12 pieces (corpus words, lexicon cells, number words, shared symbols), ``random.Random``-seeded.

    ``number_words``: the language's number words and symbols (default: this module's table,
    for zh, ja, ko and th; another language's digest test passes its own)."""
    words = _NUMBER_WORDS[language] if number_words is None else number_words
    pools = (_corpus_pieces(language), _lexicon_pieces(language), words, _SHARED)
    rng = random.Random(f"{seed}:{language}")
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(13)):
            pool = pools[rng.randrange(len(pools))]
            parts.append(pool[rng.randrange(len(pool))])
            if rng.random() < 0.4:
                parts.append(" ")
        texts.append("".join(parts))
    return texts


def outputs_digest(language: str, texts: list[str]) -> str:
    """SHA-256 of the JSON list of the reviewer normalizer's outputs for ``texts``."""
    return digest_of(normalizer(language), texts)



@pytest.mark.parametrize("language", LANGUAGES)
def test_reviewer_outputs_on_the_recorded_case_texts_do_not_move(language):
    DIGESTS.assert_unmoved("cases", normalizer(language), DIGESTS.case_texts(language, more_than=50), language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_reviewer_outputs_on_seeded_random_strings_do_not_move(language):
    texts = random_texts(language)
    DIGESTS.check_input("random", texts, seed=RANDOM_SEED, count=RANDOM_COUNT)
    DIGESTS.assert_unmoved("random", normalizer(language), texts, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_random_strings_reach_what_the_reviewer_normalizers_change(language):
    """The generator is not inert: many strings change, and many have a digit in the output (numbers were read)."""
    assert_generator_reaches(normalizer(language), random_texts(language, count=1000), changed_more_than=700,
                             gained_a_digit_more_than=20, label=language)


def _record() -> dict:
    # The case texts recorded before, and those of the case files now: a re-record never
    # drops a text that was checked.
    before = DIGESTS.load()["case_texts"] if DIGESTS.path.exists() else {}
    cases = {language: sorted(set(case_texts(ROOT / "cases", language)) | set(before.get(language, ())))
             for language in LANGUAGES}
    return {
        "note": "outputs of the zh, ja, ko and th reviewer normalizers; re-record only with a change meant to move them",
        "random": {"seed": RANDOM_SEED, "count": RANDOM_COUNT},
        "case_texts": cases,
        "digests": {
            "cases": {language: outputs_digest(language, cases[language]) for language in LANGUAGES},
            "random": {language: outputs_digest(language, random_texts(language)) for language in LANGUAGES},
        },
    }


if __name__ == "__main__":
    DIGESTS.write(_record())
