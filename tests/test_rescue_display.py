"""Rescues as every output shows them: the aligned view marks a rescued region ``R`` (counted
correct, as the headline rate counts it), ``asrbench score`` lists every rescue of a
code-switch or loanword view, and the reports carry both and each language's error summary."""

from __future__ import annotations

import json

import pytest

from pytest_asrbench import score
from pytest_asrbench.cli import main
from pytest_asrbench.scoring.alignment_view import display_width
from pytest_asrbench.scoring.display import describe_rescues, describe_score

SEVEN = ("मेरी फ़्लाइट seven बजे है", "मेरी फ़्लाइट 7 बजे है")


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_a_rescued_region_is_marked_r_and_shown_as_correct(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = run(capsys, "score", "-l", "hi", *SEVEN)
    assert out.startswith("WER 0.00%")
    lines = out.splitlines()
    assert "alignment (words; S substitution, D deletion, I insertion, R rescued (counted correct)):" in lines
    ref = next(line for line in lines if line.startswith("REF: "))
    hyp = next(line for line in lines if line.startswith("HYP: "))
    marks = lines[lines.index(hyp) + 1]
    assert "seven" in ref and "SEVEN" not in ref  # a rescued word is not shown as an error
    assert marks.strip() == "R" and display_width(ref[:ref.index("seven")]) == marks.index("R")  # under seven


def test_a_failure_message_marks_the_rescue_and_keeps_real_errors():
    result = score([SEVEN[0], "मेरी flight कल है"], [SEVEN[1], "मेरी fight कल है"], "hi")
    text = describe_score(result)
    assert "R rescued (counted correct)" in text and "FLIGHT" in text and "SEVEN" not in text
    assert "  pair 1: rescued [english_view] seven -> 7: English view identical on both sides: '7'" in text


@pytest.mark.parametrize("language, reference, hypothesis, line", [
    ("ko", "Zoom 회의가 있어요", "줌 회의가 있어요", "  rescued [loanword] zoom -> 줌: zoom = 줌 (consonant key "),
    ("ko", "Dropbox에 저장했어요", "드롭박스에 저장했어요", "  rescued [loanword] dropbox -> 드롭박스: dropbox = 드롭박스"),
    ("ja", "Figmaで確認します", "フィグマで確認します", "  rescued [loanword] figma -> フィグマ: figma = フィグマ"),
])
def test_loanword_rescues_show_in_the_text_output_as_hindis_do(capsys, language, reference, hypothesis, line):
    out = run(capsys, "score", "-l", language, reference, hypothesis)
    assert out.startswith("CER 0.00%")
    assert any(text.startswith("loanwords (") and "1 rescue(s) removed" in text for text in out.splitlines())
    assert any(text.startswith(line) for text in out.splitlines()), out


def test_rescue_lines_of_a_corpus_name_their_pair_and_are_bounded():
    result = score(["Zoom 회의", "Teams 회의", "회의"], ["줌 회의", "팀즈 회의", "회의"], "ko")
    lines = describe_rescues(result, ids=["u1", "u2", "u3"], limit=1)
    assert lines[1].startswith("  u1: rescued [loanword] zoom -> 줌")
    assert lines[2] == "  … 1 more (--json lists every rescue)"


def test_score_files_print_the_error_summary_in_the_headline_alignment(tmp_path, capsys):
    (tmp_path / "r.txt").write_text(f"{SEVEN[0]}\nमेरी flight कल है\nमेरी flight कल है\nमैं घर जा रहा हूँ\n",
                                    encoding="utf-8")
    (tmp_path / "h.txt").write_text(f"{SEVEN[1]}\nमेरी fight कल है\nमेरी fight कल है\nमैं घर जा रहा\n",
                                    encoding="utf-8")
    out = run(capsys, "score", "-l", "hi", "--references", str(tmp_path / "r.txt"),
              "--hypotheses", str(tmp_path / "h.txt"))
    lines = out.splitlines()
    start = lines.index("most frequent errors (headline alignment, words, at most 10 of each kind):")
    assert lines[start + 1:start + 7] == [
        "  substitutions: 2 (1 distinct)",
        "    2  flight -> fight",
        "  deletions: 1 (1 distinct)",
        "    1  हूं",  # the Hindi rules fold chandrabindu
        "  insertions: 0",
        "worst 3 of 3 utterance(s) with errors:",
    ]
    assert "  1: rescued [english_view] seven -> 7: English view identical on both sides: '7'" in lines


def test_score_files_json_has_the_error_summary_and_the_strict_one(tmp_path, capsys):
    (tmp_path / "r.txt").write_text(f"{SEVEN[0]}\nमेरी flight कल है\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text(f"{SEVEN[1]}\nमेरी fight कल है\n", encoding="utf-8")
    data = json.loads(run(capsys, "score", "-l", "hi", "--references", str(tmp_path / "r.txt"),
                          "--hypotheses", str(tmp_path / "h.txt"), "--json", "--top", "1"))
    assert data["error_summary"]["top"] == 1
    assert data["error_summary"]["substitutions"] == {
        "total": 1, "distinct": 1, "most_frequent": [{"reference": "flight", "hypothesis": "fight", "count": 1}]}
    assert data["strict_error_summary"]["substitutions"]["total"] == 2
    assert data["strict_error_summary"]["substitutions"]["most_frequent"] == [
        {"reference": "flight", "hypothesis": "fight", "count": 1}]  # --top 1 keeps one of the two


def test_score_files_refuse_a_top_below_one(tmp_path, capsys):
    (tmp_path / "r.txt").write_text("a\n", encoding="utf-8")
    assert main(["score", "-l", "en", "--references", str(tmp_path / "r.txt"), "--hypotheses",
                 str(tmp_path / "r.txt"), "--top", "0"]) == 2
    assert "--top must be 1 or more, not 0" in capsys.readouterr().err


def _entry(language: str, references: list[str], hypotheses: list[str], nodeid: str, outcome: str = "failed"):
    from pytest_asrbench.cases.figures import score_figures
    from pytest_asrbench.reports.model import CaseEntry
    from pytest_asrbench.scoring.serialize import score_to_dict

    result = score(references, hypotheses, language)
    record = {"language": language, "kind": "score", "hypothesis_name": "hypothesis", "metric": "stt_wer",
              "version": "x", "snapshot": "same", "figures": score_figures(score_to_dict(result), result),
              "recorded": None, "note": None}
    return CaseEntry(nodeid, outcome, "message", record)


def test_reports_mark_rescues_and_sum_each_languages_error_summary():
    from pytest_asrbench.reports.html import render_html
    from pytest_asrbench.reports.markdown import render_markdown
    from pytest_asrbench.reports.model import RunReport

    report = RunReport([
        _entry("hi", [SEVEN[0], "मेरी flight कल है"], [SEVEN[1], "मेरी fight कल है"], "cases/hi/a.yaml::x"),
        _entry("hi", ["मेरी flight कल है"], ["मेरी fight कल है"], "cases/hi/a.yaml::y", "passed"),
        _entry("en", ["the data base is down"], ["the database is down"], "cases/en/a.yaml::z"),
    ])
    (en, hi) = report.errors()
    assert (hi.language, hi.cases, hi.summary.substitutions) == ("hi", 2, (("flight", "fight", 2),))
    assert en.summary.totals == {"substitutions": 0, "deletions": 0, "insertions": 0}
    markdown = render_markdown(report)
    assert "- hi stt_wer (WER, words, 2 case(s)): 2 substitution(s) (1 distinct), 0 deletion(s), 0 insertion(s)" \
        in markdown
    assert "| substitution | 2 | flight | fight |" in markdown
    assert "pair 1 now (R: rescued, counted correct):" in markdown
    page = render_html(report)
    assert '<section id="errors">' in page and '<td dir="auto" class="R">seven</td>' in page
    assert "<td>substitution</td><td>2</td><td>flight</td><td>fight</td>" in page
    # the English case shows the headline alignment: the compound closed up, no error cell
    assert '<td dir="auto" class="ok">database</td>' in page
