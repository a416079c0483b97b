"""The run's error summary (most frequent substitution pairs, deletions, insertions) and the
headline alignments it is counted in: a rescued code-switch region is no error there."""

from __future__ import annotations

import pytest

from pytest_asrbench import score
from pytest_asrbench.errors import InputError
from pytest_asrbench.scoring.error_summary import ErrorTally, error_summary, error_tally
from pytest_asrbench.scoring.headline import HeadlineAlignment, headline_alignments

HINDI_RESCUED = ("मेरी फ़्लाइट seven बजे है", "मेरी फ़्लाइट 7 बजे है")   # rescued: 0%
HINDI_ERROR = ("मेरी flight कल है", "मेरी fight कल है")                  # a real STT error: 25%


def test_entries_are_ranked_by_count_then_text_and_bounded_with_the_totals():
    result = score(["the cat sat on the mat", "a cat and a dog", "the bat ran", "b a"],
                   ["the hat sat on mat", "a hat and a log", "the bat ran off now", "b c"], "en")
    summary = error_summary(result, top=2)
    # cat -> hat twice; then the pairs seen once in code point order (a -> c before dog -> log)
    assert summary.substitutions == (("cat", "hat", 2), ("a", "c", 1))
    assert summary.totals == {"substitutions": 4, "deletions": 1, "insertions": 2}
    assert summary.distinct == {"substitutions": 3, "deletions": 1, "insertions": 2}
    assert summary.deletions == (("the", 1),)
    assert summary.insertions == (("now", 1), ("off", 1))
    assert summary.to_dict()["substitutions"] == {
        "total": 4, "distinct": 3, "most_frequent": [{"reference": "cat", "hypothesis": "hat", "count": 2},
                                                     {"reference": "a", "hypothesis": "c", "count": 1}]}
    # the totals are the score's own counts
    assert (result.substitutions, result.deletions, result.insertions) == (4, 1, 2)


def test_a_rescued_code_switch_region_is_no_error_in_the_summary_but_is_in_the_strict_one():
    result = score([HINDI_RESCUED[0], HINDI_ERROR[0]], [HINDI_RESCUED[1], HINDI_ERROR[1]], "hi")
    assert result.substitutions == 1 and result.details["strict_errors"] == 2
    assert error_summary(result).substitutions == (("flight", "fight", 1),)
    assert error_summary(result, strict=True).substitutions == (("flight", "fight", 1), ("seven", "7", 1))


def test_a_merged_compound_and_korean_spaces_are_no_errors_either():
    compounds = score("the data base is down", "the database is down", "en")
    assert compounds.rate == 0.0 and error_tally(compounds) == ErrorTally()
    assert error_tally(compounds, strict=True).deletions  # the strict alignment splits it
    korean = score("할 수 있다", "할수 있다", "ko")
    assert korean.rate == 0.0 and error_tally(korean) == ErrorTally()


@pytest.mark.parametrize("language, reference, hypothesis", [
    ("hi", "मुझे twenty five मार्च की booking चाहिए", "मुझे 25 मार्च की बुकिंग चाहिए"),
    ("hi", "मेरी flight seven बजे", "मेरी fight 7 बजे"),          # neighbouring errors: one region, kept whole
    ("de", "wir haben eleven Tickets für die Kunden Nummer", "wir haben 11 Tickets für die Kundennummer"),
    ("nl", "mijn code is forty two", "mijn code is 42"),
    ("es", "la reunión es a las nine", "la reunión es a las 9"),
    ("en", "call the data base team", "call the database teams"),
    ("ko", "Zoom 회의가 있어요", "줌 회의가있어요"),
    ("ja", "Figmaで確認します", "フィグマで確認しました"),
    ("zh", "我们明天开会", "我们后天开会"),
    ("th", "สวัสดีครับ", "สวัสดีคะ"),
])
def test_headline_alignments_count_exactly_the_headline_in_every_language(language, reference, hypothesis):
    result = score([reference, reference], [hypothesis, reference], language)
    headlines = headline_alignments(result)  # raises when they disagree with the score
    total = error_tally(result)
    assert sum(total.substitutions.values()) == result.substitutions
    assert sum(total.deletions.values()) == result.deletions
    assert sum(total.insertions.values()) == result.insertions
    assert len(headlines) == 2 and not headlines[1].rescued


def test_a_tally_survives_its_plain_form_and_adds_up():
    result = score(["the cat sat", "a dog"], ["the hat sat on", "dog"], "en")
    tally = error_tally(result)
    assert ErrorTally.from_data(tally.to_data()) == tally
    assert (tally + tally).summary().substitutions == (("cat", "hat", 2),)
    with pytest.raises(InputError, match="an error tally must be"):
        ErrorTally.from_data({"substitutions": [["a", "b"]]})
    with pytest.raises(InputError, match="at least 1 entry"):
        tally.summary(0)


def test_a_rescued_column_outside_the_alignment_is_refused():
    alignment = score("a b", "a c", "en").pairs[0].alignment
    with pytest.raises(ValueError, match=r"rescued column\(s\) \[5\] outside the alignment's 2 column"):
        HeadlineAlignment(alignment, frozenset({5}))
