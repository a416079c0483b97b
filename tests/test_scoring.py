"""score(): counts, micro-averaged corpus rates, units, empty references, bad input."""

from __future__ import annotations

import pytest

from pytest_asrbench import score
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring.alignment import AlignmentOp, align
from pytest_asrbench.scoring.metrics import METRICS


def test_single_pair_counts_and_rate():
    result = score("the cat sat on the mat", "the bat sat on mat", "en")
    assert (result.hits, result.substitutions, result.deletions, result.insertions) == (4, 1, 1, 0)
    assert result.reference_length == 6
    assert result.rate == pytest.approx(2 / 6, abs=1e-12)
    assert result.unit == "word"
    assert (result.metric, result.version, result.language) == ("stt_wer", METRICS["stt_wer"].version, "en")
    assert result.config_version == get_config("en").version


def test_corpus_rate_is_micro_averaged_not_mean_of_rates():
    result = score(["a b c d e f g h i j", "x"], ["a b c d e f g h i j", "y"], "en")
    # One error over eleven reference words, not the mean of 0.0 and 1.0.
    assert result.rate == pytest.approx(1 / 11, abs=1e-12)
    assert [pair.rate for pair in result.pairs] == [0.0, 1.0]


def test_empty_reference_gives_none_rate_and_insertions():
    result = score("", "hello there", "en")
    assert result.rate is None
    assert result.insertions == 2
    assert result.reference_length == 0


def test_both_empty_is_a_defined_case():
    result = score("   ", "", "en")
    assert result.rate is None
    assert result.errors == 0


def test_empty_turn_inside_a_corpus_counts_its_insertions():
    result = score(["a b", ""], ["a b", "c"], "en")
    assert result.insertions == 1
    assert result.rate == pytest.approx(0.5)


def test_cer_metric_counts_characters():
    result = score("abcd", "abxd", "en", metric="cer")
    assert result.unit == "char"
    assert result.substitutions == 1
    assert result.rate == pytest.approx(0.25)


@pytest.mark.parametrize(
    "reference, hypothesis, error",
    [
        ("a", ["a"], TypeError),
        (["a", "b"], ["a"], ValueError),
        ([], [], ValueError),
        (["a", 3], ["a", "b"], TypeError),
        (b"a", b"a", TypeError),
    ],
)
def test_bad_input_is_a_clear_error(reference, hypothesis, error):
    with pytest.raises(error):
        score(reference, hypothesis, "en")


def test_unknown_metric_names_the_known_ones():
    with pytest.raises(ValueError, match="known metrics: cer, stt_wer"):
        score("a", "a", "en", metric="bleu")


def test_alignment_spans_carry_words():
    alignment = align("a b c", "a x c d", "word")
    ops = [(op.op, op.reference, op.hypothesis) for op in alignment.ops]
    assert ops == [("equal", ("a",), ("a",)), ("substitute", ("b",), ("x",)), ("equal", ("c",), ("c",)),
                   ("insert", (), ("d",))]


def test_alignment_op_validates_itself():
    with pytest.raises(ValueError, match="inconsistent"):
        AlignmentOp("delete", (), ("x",), 0, 0)


@pytest.mark.parametrize("enabled", [True, False])
def test_score_leaves_the_garbage_collector_as_it_found_it(enabled):
    import gc

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        score(["a b", "c"], ["a x", "c"], "en")
        assert gc.isenabled() is enabled
        with pytest.raises(TypeError):
            score(["a", 3], ["a", "b"], "en")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_hypothesis_equal_to_its_reference_is_normalized_once():
    from pytest_asrbench.normalize.registry import get_normalizer
    from pytest_asrbench.scoring.score import _pair_score

    english = get_normalizer("en")
    seen: list[str] = []

    def counting(text: str) -> str:
        seen.append(text)
        return english(text)

    pair = _pair_score("Dr. Smith's at twenty five", "Dr. Smith's at twenty five", counting, "word")
    assert seen == ["Dr. Smith's at twenty five"]
    assert pair.normalized_reference == pair.normalized_hypothesis == english("Dr. Smith's at twenty five")
    assert (pair.hits, pair.errors) == (pair.reference_length, 0)
    seen.clear()
    _pair_score("Dr. Smith", "Dr Smith", counting, "word")
    assert seen == ["Dr Smith", "Dr. Smith"]
