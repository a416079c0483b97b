"""The frozen cleanings never move: zh-eval-v1's four profiles and Thai's bench_v1.

Their outputs are compared, as SHA-256 digests, with the outputs recorded before the
reviewer normalizers of zh and th gained numbers and script folding, on two inputs: every
text of the zh and th case files as they were then (kept in ``frozen_digests.json``) and
10,000 strings drawn from a seeded generator that mixes what the cleanings act on (Han in
both scripts, numerals, full-width forms, CJK and ASCII punctuation, Latin of both cases,
Thai letters, marks and digits, spaces and invisible characters).

Re-record only from the code the digests were made with (never after a change of these
profiles): ``PYTHONPATH=<that checkout> python -m tests.test_frozen_profiles`` (from this
repository's root).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tests.digests import RecordedDigests, assert_generator_reaches, case_texts, normalizer
from tests.digests import outputs_digest as digest_of

DIGESTS = RecordedDigests(Path(__file__).with_name("frozen_digests.json"))
#: ``(language, profile)`` of every frozen cleaning checked here.
FROZEN = (("zh", "eval_v1_punct"), ("zh", "eval_v1"), ("zh", "eval_v1_script_simplified"),
          ("zh", "eval_v1_script_traditional"), ("th", "bench_v1"))
RANDOM_SEED = 20261201
RANDOM_COUNT = 10_000

_ALPHABET = (
    "我们去吃饭这里软件下载谢你好世界价格元块钱点分万亿两零一二三四五六七八九十百千"  # Simplified
    "們飯這裡軟體謝萬億兩點塊錢個歲著裏"  # Traditional and Taiwan forms
    "０１２３４５６７８９ＡＢＣａｂｃ！？，．％＃＠＆　￥￠￡"  # full-width forms
    "。、，；：「」《》（）【】…—·"  # CJK punctuation
    "0123456789.,:;!?%-_/$@#&+=()[]\"'"  # ASCII
    "ABCXYZabcxyzÉéßİ"  # Latin
    "กขคงจนมยรลวสหอะาิีึืุูเแโใไ่้๊๋็์ำๆฯ๐๑๒๓๔๕๖๗๘๙"  # Thai
    " \t\n\u200b\u200c\u200d\u00a0\u3000\ufeff"  # spaces and invisible characters
    "①²ﬁｶ㍻\u0301\u0303"  # compatibility forms and combining marks
)


def random_texts(seed: int = RANDOM_SEED, count: int = RANDOM_COUNT) -> list[str]:
    """``count`` strings of 0..24 characters from :data:`_ALPHABET` (``random.Random(seed)``)."""
    rng = random.Random(seed)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(25))) for _ in range(count)]


def outputs_digest(language: str, profile: str, texts: list[str]) -> str:
    """SHA-256 of the JSON list of the profile's outputs for ``texts``."""
    return digest_of(normalizer(language, profile), texts)



@pytest.mark.parametrize(("language", "profile"), FROZEN, ids=[f"{lang}-{profile}" for lang, profile in FROZEN])
def test_frozen_profile_outputs_on_the_recorded_case_texts_do_not_move(language, profile):
    DIGESTS.assert_unmoved("cases", normalizer(language, profile), DIGESTS.case_texts(language, more_than=50),
                           f"{language}:{profile}")


@pytest.mark.parametrize(("language", "profile"), FROZEN, ids=[f"{lang}-{profile}" for lang, profile in FROZEN])
def test_frozen_profile_outputs_on_seeded_random_strings_do_not_move(language, profile):
    DIGESTS.check_input("random", seed=RANDOM_SEED, count=RANDOM_COUNT)
    DIGESTS.assert_unmoved("random", normalizer(language, profile), random_texts(), f"{language}:{profile}")


def test_the_random_strings_reach_what_the_cleanings_change():
    """The generator is not trivially inert: every profile changes many of its strings."""
    texts = random_texts(count=500)
    for language, profile in FROZEN:
        assert_generator_reaches(normalizer(language, profile), texts, changed_more_than=400,
                                 label=(language, profile))


def _record(cases_dir: Path) -> dict:
    texts_by_language = {language: case_texts(cases_dir, language) for language in ("zh", "th")}
    texts = random_texts()
    return {
        "note": "outputs of the frozen profiles, recorded before the zh/th reviewer normalizers changed; never re-record after a change of these profiles",
        "random": {"seed": RANDOM_SEED, "count": RANDOM_COUNT},
        "case_texts": texts_by_language,
        "digests": {
            "cases": {f"{lang}:{profile}": outputs_digest(lang, profile, texts_by_language[lang]) for lang, profile in FROZEN},
            "random": {f"{lang}:{profile}": outputs_digest(lang, profile, texts) for lang, profile in FROZEN},
        },
    }


if __name__ == "__main__":
    import pytest_asrbench

    root = Path(pytest_asrbench.__file__).resolve().parents[1]
    print(f"recording from {root}", file=sys.stderr)
    DIGESTS.write(_record(root / "cases"))
