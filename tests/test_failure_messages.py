"""What a failing case tells a reviewer: texts, normalized forms, the aligned REF/HYP view
with S/D/I marks, expected and actual values, rescues (Hindi), and normalizer steps."""

from __future__ import annotations

from pathlib import Path

from pytest_asrbench.cases.model import Case
from pytest_asrbench.cases.kinds import get_runner
from pytest_asrbench.cases.registry import RunContext
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.metrics import METRICS
from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.display import display_width, render_alignment

CONTEXT = RunContext(rootpath=Path("."))


def _failures(kind: str, fields: dict, language: str = "en") -> str:
    case = Case("c", kind, language, "stt_wer", fields, Path("a.yaml"), 3)
    return "\n".join(get_runner(kind).run(case, CONTEXT).failures)


def test_a_failing_score_case_shows_everything_a_reviewer_needs():
    message = _failures("score", {"reference": "The cat sat on the mat.", "hypothesis": "the bat sat on mat",
                                  "expect": {"rate": 0.0, "deletions": 1}})
    assert message == "\n".join([
        "stt_wer 33.3% != expected 0.0% (rate 0.3333333333333333, expected 0.0, tolerance 1e-09)",
        "WER 0.3333 (33.33%): 1 substitution(s), 1 deletion(s), 0 insertion(s), 4 hit(s) over 6 reference word(s)"
        f"  [stt_wer {METRICS['stt_wer'].version}, en config {get_config('en').version}]",
        "reference:             'The cat sat on the mat.'",
        "hypothesis:            'the bat sat on mat'",
        "normalized reference:  'the cat sat on the mat'",
        "normalized hypothesis: 'the bat sat on mat'",
        "alignment (words; S substitution, D deletion, I insertion):",
        "  REF: the CAT sat on THE mat",
        "  HYP: the BAT sat on *** mat",
        "           S          D",
    ])


def test_a_passing_score_case_has_no_failures():
    assert _failures("score", {"reference": "a b", "hypothesis": "a c", "expect": {"rate": 0.5}}) == ""


def test_hindi_failure_lists_the_rescues():
    message = _failures("score", {"reference": "मेरा laptop खराब है", "hypothesis": "मेरा लैपटॉप खराब हो",
                                  "expect": {"rate": 0.0}}, "hi")
    assert message.startswith("stt_wer 25.0% != expected 0.0% (rate 0.25, expected 0.0")
    assert "code-switch: strict WER 0.5 (50.00%) before rescue; 1 rescue(s) removed 1 error(s)" in message
    assert "  rescued [phonetic] laptop -> लैपटॉप: लैपटॉप = laptop (consonant key 'lptp')" in message
    # the rescued word is shown as correct and marked R (counted correct), as the rate counts it
    assert "REF: मेरा laptop" in message and "R rescued (counted correct)" in message


def test_corpus_failure_shows_each_pair():
    message = _failures("score", {"reference": ["a b", "c d"], "hypothesis": ["a b", "c"], "expect": {"rate": 0.0}})
    assert "pair 1 of 2 (WER 0 (0.00%)):" in message and "pair 2 of 2 (WER 0.5 (50.00%)):" in message
    assert "    REF: c D\n    HYP: c ***\n           D" in message


def test_aligned_view_marks_insertions_and_pads_columns():
    view = render_alignment(align("the cat sat", "the bat sat down", "word"))
    assert view == "REF: the CAT sat ***\nHYP: the BAT sat DOWN\n         S       I"


def test_aligned_view_counts_wide_characters_twice_and_shows_spaces():
    assert display_width("会议") == 4 and display_width("é") == 1 and display_width("e\u0301") == 1
    view = render_alignment(align("会议 在", "会谈在", "char"))
    assert view.splitlines() == ["REF: 会 议 ␣   在", "HYP: 会 谈 *** 在", "        S  D"]


def test_aligned_view_wraps_long_alignments_into_blocks():
    words = " ".join(f"word{index}" for index in range(40))
    view = render_alignment(align(words, words.replace("word39", "other"), "word"), width=60)
    blocks = view.split("\n\n")
    assert len(blocks) > 3 and all(len(line) <= 60 for line in view.splitlines())
    assert blocks[-1].splitlines()[-1].strip() == "S" and "OTHER" in blocks[-1]


def test_empty_pair_renders():
    assert render_alignment(score("", "", "en").pairs[0].alignment) == "REF: (empty)\nHYP: (empty)"


def test_distinct_failure_names_the_step_that_made_the_texts_one():
    message = _failures("distinct", {"texts": ["Hello!", "hello"]})
    assert message.splitlines()[0] == ("both normalize to 'hello' (one from step 'lowercase'): 'Hello!' and 'hello' "
                                       "should stay different")
    assert "  steps of 'Hello!':" in message and "    * lowercase" in message


def test_normalize_and_equal_failures_show_the_changing_steps():
    message = _failures("normalize", {"text": "Twenty five euros", "expect": "25 euro"})
    lines = message.splitlines()
    assert lines[0] == "normalized '€25' != expected '25 euro' (text 'Twenty five euros')"
    assert lines[1] == "  steps of 'Twenty five euros':"
    assert [line.split()[:2] for line in lines[3:]] == [["*", "number_words"], ["*", "money"]]
    message = _failures("equal", {"texts": ["seven", "eight"]})
    assert message.splitlines()[:3] == ["normalized forms differ: '7' != '8'", "  'seven' -> '7'", "  'eight' -> '8'"]
    assert "  steps of 'seven':" in message and "* number_words" in message
