"""The aligned REF/HYP view every output shares: columns by display width (CJK, Thai,
combining marks), right-to-left tokens isolated, colour only where wanted, control
characters made visible; and where two renderings of an ``equal`` case grow apart."""

from __future__ import annotations

import io
import re

import pytest

from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.alignment_view import (FSI, GREEN, PDI, RED, RESET, alignment_columns, color_wanted,
                                                    display_width, render_alignment)
from pytest_asrbench.scoring.display import first_divergent_step

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _cells_before(line: str, token: str) -> int:
    return display_width(line[: line.index(token)])


def test_thai_tone_marks_and_vowels_take_no_column():
    # ที่ is one cell (a consonant, a vowel sign and a tone mark); the columns after it line up
    assert display_width("ที่") == 1 and display_width("ภาษาไทย") == 7
    view = render_alignment(align("ที่ นี่ ดี", "ที่ นี้ ดี", "word")).splitlines()
    assert _cells_before(view[0], "ดี") == _cells_before(view[1], "ดี")
    assert view[2].strip() == "S"


def test_devanagari_and_cjk_columns_line_up():
    view = render_alignment(align("मेरी flight कल है", "मेरी fight कल", "word")).splitlines()
    assert _cells_before(view[0], "कल") == _cells_before(view[1], "कल")
    assert _cells_before(view[0], "है") == _cells_before(view[2], "D")
    assert display_width("コンフルエンス") == 14 and display_width("👩\u200d👩\u200d👧") == 2


def test_right_to_left_tokens_are_isolated_and_take_no_extra_width():
    view = render_alignment(align("we said שלום today", "we said שלם today", "word"))
    ref, hyp, marks = view.splitlines()
    assert f"{FSI}שלום{PDI}" in ref and f"{FSI}שלם{PDI}" in hyp
    assert _cells_before(ref, "TODAY" if "TODAY" in ref else "today") == _cells_before(hyp, "today")
    assert marks.strip() == "S" and _cells_before(marks, "S") == _cells_before(ref, FSI)


def test_control_characters_are_shown_escaped():
    columns = alignment_columns(align("a\x07b c", "ab c", "word"))
    assert columns[0].reference == "A\\x07B"
    assert "\x07" not in render_alignment(align("a\x07b c", "ab c", "word"))


def test_colour_marks_errors_and_leaves_the_text_unchanged():
    alignment = align("the cat sat on the mat", "the bat sat on mat", "word")
    plain = render_alignment(alignment)
    coloured = render_alignment(alignment, color=True)
    assert f"{RED}CAT{RESET}" in coloured and f"{GREEN}BAT{RESET}" in coloured
    assert ANSI.sub("", coloured) == plain
    assert "\x1b" not in plain


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("tty", "environ", "wanted"), [
    (True, {"TERM": "xterm-256color"}, True),
    (False, {"TERM": "xterm-256color"}, False),
    (True, {"TERM": "xterm", "NO_COLOR": "1"}, False),
    (True, {"TERM": "dumb"}, False),
    (False, {"FORCE_COLOR": "1"}, True),
    (True, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
    (True, {"NO_COLOR": ""}, True),
])
def test_colour_only_on_a_terminal_and_never_with_no_color(tty, environ, wanted):
    assert color_wanted(_Stream(tty), environ) is wanted


def test_a_width_without_room_for_a_column_is_refused():
    with pytest.raises(ValueError, match="use at least 6"):
        render_alignment(align("a", "b", "word"), width=5)


def test_renderings_grow_apart_at_the_step_that_splits_a_word():
    # de's trace of the reviewer pair "Anmelde-Konto" / "Anmeldekonto" (asrbench explain -l de)
    first = [("input", "Anmelde-Konto"), ("lowercase", "anmelde-konto"), ("punctuation", "anmelde konto"),
             ("collapse_whitespace", "anmelde konto")]
    second = [("input", "Anmeldekonto"), ("lowercase", "anmeldekonto"), ("punctuation", "anmeldekonto"),
              ("collapse_whitespace", "anmeldekonto")]
    assert first_divergent_step(first, second, "word") == ("punctuation", 1, 2)
    # scored by characters the hyphen and the space are one edit each: no step moves them apart
    assert first_divergent_step(first, second, "char") is None


def test_renderings_that_differ_as_written_have_no_divergent_step():
    trace = [("input", "seven o'clock"), ("lowercase", "seven o'clock")]
    other = [("input", "7 o'clock"), ("lowercase", "7 o'clock")]
    assert first_divergent_step(trace, other, "word") is None
    grows = [("input", "ab"), ("split", "a b")]
    assert first_divergent_step(grows, [("input", "ab"), ("split", "ab")], "word") == ("split", 0, 2)


def test_traces_of_different_pipelines_are_refused():
    with pytest.raises(ValueError, match="different pipelines"):
        first_divergent_step([("input", "a"), ("x", "a")], [("input", "a"), ("y", "a")], "word")


def test_a_failing_equal_case_shows_where_the_renderings_part():
    from pathlib import Path

    from pytest_asrbench.cases.kinds import get_runner
    from pytest_asrbench.cases.model import Case
    from pytest_asrbench.cases.registry import RunContext

    case = Case("c", "equal", "en", "stt_wer", {"texts": ["a b c", "a bc"]}, Path("a.yaml"), 3)
    message = "\n".join(get_runner("equal").run(case, RunContext(rootpath=Path("."))).failures)
    assert ("  'a b c' vs 'a bc':\n    REF: a B  C\n    HYP: a BC ***\n           S  D\n"
            "    no step moves them apart (their word distance never grows): they differ as written and no step "
            "brings them together\n") in message
    assert "\x1b" not in message
    coloured = "\n".join(get_runner("equal").run(case, RunContext(rootpath=Path("."), color=True)).failures)
    assert f"{RED}B{RESET}" in coloured


def test_a_failure_report_strips_colour_off_a_terminal():
    from pytest_asrbench.cases.items import CaseFailureRepr

    class Writer:
        def __init__(self, markup):
            self.hasmarkup, self.lines = markup, []

        def line(self, text):
            self.lines.append(text)

    failure = CaseFailureRepr(f"rate is 1\nREF: {RED}A{RESET}")
    assert str(failure) == "rate is 1\nREF: A"
    plain, markup = Writer(False), Writer(True)
    failure.toterminal(plain)
    failure.toterminal(markup)
    assert plain.lines == ["rate is 1", "REF: A"] and markup.lines == ["rate is 1", f"REF: {RED}A{RESET}"]


def test_explain_with_two_texts_names_where_they_part(capsys, monkeypatch):
    from pytest_asrbench.cli import main

    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["explain", "-l", "de", "Anmelde-Konto", "Anmelde-Konto"]) == 0
    assert capsys.readouterr().out.endswith("'Anmelde-Konto' vs 'Anmelde-Konto': the same normalized form\n")
    assert main(["explain", "-l", "en", "cat dog", "catdog"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("steps of 'cat dog':\n") and "steps of 'catdog':\n" in out
    assert "'cat dog' vs 'catdog': different\n  REF: CAT    DOG\n  HYP: CATDOG ***\n       S      D\n" in out
    assert "\x1b" not in out
