"""The alignment seam: the compiled aligner gives exactly the alignments and counts that jiwer's
``process_words``/``process_characters`` gave (the implementation it replaced, kept below as the
reference), on every case pair and on seeded random pairs in words and characters (Latin, CJK,
Thai, Devanagari); counts without spans equal the spans' counts; lazily built pair alignments
agree with the pair's counts."""

from __future__ import annotations

import random
from pathlib import Path

import jiwer
import pytest
import yaml

from pytest_asrbench import score
from pytest_asrbench.errors import InputTypeError
from pytest_asrbench.normalize.registry import normalize_text
from pytest_asrbench.scoring.alignment import align, align_counts, align_tokens, char_counts, token_counts
from pytest_asrbench.scoring.result import PairScore

CASES = Path(__file__).resolve().parents[1] / "cases"
RANDOM_PAIRS = 20_000

WORDS = ["the", "cat", "sat", "on", "a", "mat", "7", "25", "ok", "network", "नेटवर्क", "मेरा", "है", "कल",
         "東京", "駅", "です", "今日", "天气", "很好", "สวัสดี", "ครับ", "ราคา", "บาท", "안녕하세요", "네"]
CHARS = "abcxyz 7的了是東京駅ですกขคงัาิ่้มेरानटव 한국어"


def jiwer_alignment(reference: str, hypothesis: str, unit: str) -> list[tuple]:
    """The aligner before the seam called the library itself: jiwer, as ``align`` used it."""
    ref_tokens = reference.split() if unit == "word" else list(reference)
    hyp_tokens = hypothesis.split() if unit == "word" else list(hypothesis)
    if not ref_tokens and not hyp_tokens:
        return []
    if unit == "word":
        output = jiwer.process_words(" ".join(ref_tokens), " ".join(hyp_tokens))
    else:
        output = jiwer.process_characters(reference, hypothesis)
    ref_tokens, hyp_tokens = output.references[0], output.hypotheses[0]
    names = {"replace": "substitute"}
    return [(names.get(chunk.type, chunk.type), tuple(ref_tokens[chunk.ref_start_idx:chunk.ref_end_idx]),
             tuple(hyp_tokens[chunk.hyp_start_idx:chunk.hyp_end_idx]), chunk.ref_start_idx, chunk.hyp_start_idx)
            for chunk in output.alignments[0]]


def spans(alignment) -> list[tuple]:
    return [(op.op, op.reference, op.hypothesis, op.ref_start, op.hyp_start) for op in alignment.ops]


def assert_same_as_jiwer(reference: str, hypothesis: str, unit: str) -> None:
    alignment = align(reference, hypothesis, unit)
    assert spans(alignment) == jiwer_alignment(reference, hypothesis, unit), (reference, hypothesis, unit)
    counts = alignment.counts()
    assert align_counts(reference, hypothesis, unit) == (
        counts.hits, counts.substitutions, counts.deletions, counts.insertions, counts.reference_length)


def case_pairs() -> list[tuple[str, str]]:
    """Normalized (reference, hypothesis) pairs from every case file: each case's reference and
    hypothesis, its text and expected normalization, and each two of its equal texts."""
    pairs = []
    for path in sorted(CASES.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "language" not in data:
            continue
        for case in data.get("cases") or []:
            language = case.get("language", data["language"])
            texts = [case.get(key) for key in ("reference", "hypothesis", "text", "expect")]
            texts += case.get("texts") or []
            texts = [normalize_text(text, language) for text in texts if isinstance(text, str)]
            pairs += [(a, b) for a in texts for b in texts if a is not b]
    return pairs


def random_text(rng: random.Random, unit: str) -> str:
    if unit == "word":
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 20)))


def perturbed(rng: random.Random, text: str, unit: str) -> str:
    tokens = text.split() if unit == "word" else list(text)
    pool = WORDS if unit == "word" else CHARS
    out: list[str] = []
    for token in tokens:
        roll = rng.random()
        if roll < 0.15:
            out.append(rng.choice(pool))
        elif roll < 0.25:
            continue
        elif roll < 0.35:
            out += [token, rng.choice(pool)]
        else:
            out.append(token)
    if rng.random() < 0.1:
        out.insert(rng.randint(0, len(out)), rng.choice(pool))
    return (" " if unit == "word" else "").join(out)


def test_every_case_pair_aligns_as_jiwer_aligned_it_in_words_and_characters():
    pairs = case_pairs()
    assert len(pairs) > 500, "the cases folder should give hundreds of pairs"
    for reference, hypothesis in pairs:
        assert_same_as_jiwer(reference, hypothesis, "word")
        assert_same_as_jiwer(reference, hypothesis, "char")


@pytest.mark.parametrize("unit", ["word", "char"])
def test_seeded_random_pairs_align_as_jiwer_aligned_them(unit):
    rng = random.Random(f"alignment-{unit}")
    for index in range(RANDOM_PAIRS):
        reference = random_text(rng, unit)
        hypothesis = perturbed(rng, reference, unit) if index % 4 else random_text(rng, unit)
        assert_same_as_jiwer(reference, hypothesis, unit)


def test_character_alignment_leaves_out_whitespace_at_the_ends_only():
    alignment = align("  ab c ", "ab  c", "char")
    assert alignment.reference == ("a", "b", " ", "c")
    assert alignment.counts().insertions == 1


def test_char_counts_count_every_character_and_equal_the_token_counts():
    rng = random.Random("char-counts")
    for _ in range(2000):
        reference, hypothesis = random_text(rng, "char"), random_text(rng, "char")
        counts = char_counts(reference, hypothesis)
        assert counts == token_counts(list(reference), list(hypothesis)) == align_tokens(reference, hypothesis).counts()
        assert counts.reference_length == len(reference)
    assert (char_counts(" a", "a ").deletions, char_counts(" a", "a ").insertions) == (1, 1)


def test_words_are_compared_by_equality_not_by_their_hash():
    class Clash(str):
        def __hash__(self) -> int:
            return 1

    counts = token_counts([Clash("a"), Clash("b")], [Clash("b"), Clash("a")])
    assert counts.errors == 2, "two distinct words whose hashes clash are still different words"


def test_empty_sides_give_all_deletions_or_all_insertions():
    assert align_counts("", "", "word") == (0, 0, 0, 0, 0)
    assert align_counts("a b", "", "word") == (0, 0, 2, 0, 2)
    assert align_counts("", "a b c", "word") == (0, 0, 0, 3, 0)
    assert spans(align("", "a", "word")) == [("insert", (), ("a",), 0, 0)]


def test_a_string_against_a_token_list_is_refused():
    with pytest.raises(InputTypeError, match="not a mix"):
        align_tokens("ab", ["a", "b"])


def test_an_unknown_unit_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="'word' or 'char'"):
        align("a", "b", "phone")


def test_a_pair_builds_its_alignment_on_first_read_and_it_agrees_with_its_counts():
    # Thai: no metric view of its reads a pair's alignment (English's compound view and the
    # code-switch view of the European languages read the alignments of pairs with errors, and
    # so build them)
    result = score(["the cat sat on the mat", "今日は"], ["the bat sat on mat", "今日わ"], "th")
    for pair in result.pairs:
        assert pair._alignment is None
        alignment = pair.alignment
        assert pair.alignment is alignment
        assert alignment.counts() == pair.counts
    assert PairScore.of("a b", "a c", "a b", "a c", "word") == PairScore("a b", "a c", "a b", "a c", "word",
                                                                          1, 1, 0, 0, 2)
