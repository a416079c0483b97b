"""The Thai benchmark's reference cleaning th-bench-v1: the original requirements' examples, and its freeze."""

import hashlib
import json

import pytest

pytest.importorskip("pythainlp", reason="the bench extra: pip install -e '.[bench]'")

from pytest_asrbench.bench.errors import BenchDependencyError, UnknownCleaningError  # noqa: E402
from pytest_asrbench.bench.references.cleaning import (  # noqa: E402
    CLEANINGS,
    THAI_BENCHMARK_CLEANING,
    V1_DELETED,
    V1_PYTHAINLP,
    clean_reference,
    clean_th_bench_v1,
)


@pytest.mark.parametrize(("text", "expected"), [
    ("ราคา 22.00 บาท", "ราคา 2200 บาท"),  # the specification: decimal points go with "." (17 FLEURS references)
    ("นำ้", "น้ำ"),  # the specification: pythainlp's normalize puts the misplaced mark right
    ("เเปลก", "แปลก"),  # two sara e -> sara ae
    ("ครับ\u200bผม", "ครับผม"),  # zero-width space removed
    ("Hello, World", "hello world"),  # ASCII punctuation removed, lowercased
    ("จริงหรือ? ใช่!", "จริงหรือ? ใช่!"),  # ? and ! kept
    ("“ข่าว” ‘ด่วน’", "ข่าว ด่วน"),  # curly quotes
    ("ก—ข–ค…", "กขค"),  # em dash, en dash, ellipsis
    ("a-b (c) [d] {e} #1 $2 %3 &4 *5 +6 /7 :8 ;9 <0> =@\\^_`|~'\"", "ab c d e 1 2 3 4 5 6 7 8 9 0"),
    ("  สวัสดี  ครับ  ", "สวัสดี ครับ"),  # ends stripped; pythainlp makes runs of spaces one
    ("", ""),
])
def test_th_bench_v1_follows_the_seed(text, expected):
    assert clean_th_bench_v1(text) == expected
    assert clean_reference(text) == expected


def test_the_benchmark_uses_v1_and_v1_is_registered():
    assert THAI_BENCHMARK_CLEANING == "th-bench-v1"
    assert CLEANINGS["th-bench-v1"] is clean_th_bench_v1


# A frozen cleaning is never edited in place: these pins change only if v1's rules or outputs
# do. Do not update them; add "th-bench-v2" to CLEANINGS instead.
V1_RULES_SHA256 = "a0fa9046d949ca4005628c9efb129e0d35f3e849b8cbf7fe4cbb09012d7f3840"
V1_OUTPUTS_SHA256 = "e8ac9b11129e16a7f80449040466fd2964282a12a4e688757bcea95ab2bc8aff"
FIXED_TEXTS = [
    "ราคา 22.00 บาท", "นำ้ใส", "เเม่", "A.B.C. 3.14%", "“quoted” — text…", "ไม่ๆ ๆ", "๑๒๓ 123",
    "ก\u200bข\u200cค\u200d", "ก่่อน", "Mixed CASE Thai ไทย!", "tab\tand\nnewline", "  ", "กิโล-เมตร", "e.g., i.e.",
]


def _sha(value) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode("utf-8")).hexdigest()


def test_v1_rules_are_frozen():
    assert _sha({"deleted": sorted(V1_DELETED), "steps": ["delete", "lower", "strip", "pythainlp.normalize"],
                 "pythainlp": V1_PYTHAINLP}) == V1_RULES_SHA256


def test_v1_outputs_on_a_fixed_list_are_frozen():
    assert _sha([clean_th_bench_v1(text) for text in FIXED_TEXTS]) == V1_OUTPUTS_SHA256


def test_another_pythainlp_version_is_refused(monkeypatch):
    import pythainlp

    from pytest_asrbench.normalize import registry

    registry._normalizer.cache_clear()  # the profile checks the version when it is built
    monkeypatch.setattr(pythainlp, "__version__", "9.9.9")
    try:
        with pytest.raises(BenchDependencyError, match=r"pythainlp 5\.3\.5, but 9\.9\.9 is installed: pip install 'pythainlp==5\.3\.5'"):
            clean_th_bench_v1("ก")
    finally:
        registry._normalizer.cache_clear()


def test_unknown_version_and_non_text_are_errors():
    with pytest.raises(UnknownCleaningError, match="unknown benchmark cleaning 'th-bench-v0'; known: th-bench-v1"):
        clean_reference("ก", "th-bench-v0")
    with pytest.raises(TypeError, match="takes a str, not bytes"):
        clean_th_bench_v1(b"x")


def test_pythainlp_keeps_the_zero_width_joiner_in_v1():
    """Recorded behaviour of pythainlp 5.3.5's normalize (it removes U+200B and U+200C, not
    U+200D); part of v1, so a release that changes it needs th-bench-v2."""
    assert clean_th_bench_v1("ก\u200bข\u200cค\u200d") == "กขค\u200d"
