"""The run's reports end to end (pytester sandboxes) and their parts: the terminal summary per
language with corpus rates against the recording, JUnit properties, the Markdown summary, the
HTML report's content, path checks before the run, and the figures' arithmetic."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pytest_asrbench.reports.formatting import points, text_table
from pytest_asrbench.reports.model import CaseEntry, RunReport, rate_rows
from pytest_asrbench.scoring.metrics import METRICS
from tests.test_plugin import GOOD, project, write  # noqa: F401 - the pytester fixture

DRIFTED = GOOD.replace("hypothesis: the bat sat on mat", "hypothesis: the bat sat on")
XFAIL = """
language: en
cases:
  - id: known
    kind: equal
    texts: ["Dellwood", "Delwood"]
    xfail: two spellings of a name are not folded (a fixture for the xfail count)
"""


def _recorded(project, *extra: str):
    write(project, "cases/en/a.yaml", GOOD)
    for index, text in enumerate(extra):
        write(project, f"cases/en/x{index}.yaml", text)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    write(project, "cases/en/a.yaml", DRIFTED)


def test_summary_shows_outcomes_and_the_rate_change_against_the_recording(project):
    _recorded(project)
    result = project.runpytest("--asrbench", "cases")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.re_match_lines([
        r"-+ asrbench summary -+",
        r"language +cases +passed +failed +xfailed +skipped",
        r"en +3 +2 +1 +0 +0",
        r"corpus rates over the score and asr cases, against the recorded snapshots:",
        r"language +metric +unit +cases +rate +recorded +change +new",
        r"en +stt_wer +WER +1 +50\.00% +33\.33% +\+16\.67 pt +0",
        r"1 failing or changed case\(s\):",
        r"  pair \(cases/en/a\.yaml:7\): failed, output changed, rate 50\.00% \(recorded 33\.33%\)",
    ])


def test_summary_under_xdist_has_the_same_figures(project):
    _recorded(project)
    result = project.runpytest("--asrbench", "cases", "-n", "2")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.re_match_lines([r"en +3 +2 +1 +0 +0", r"en +stt_wer +WER +1 +50\.00% +33\.33% +\+16\.67 pt +0"])


def test_update_compares_with_the_snapshots_it_replaces(project):
    _recorded(project)
    write(project, "cases/en/a.yaml", DRIFTED.replace("rate: 0.3333333333333333, substitutions: 1, deletions: 1",
                                                      "rate: 0.5, substitutions: 1, deletions: 2"))
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(passed=3)
    result.stdout.re_match_lines([r".*against the snapshots as they were before this re-recording:",
                                  r"en +stt_wer +WER +1 +50\.00% +33\.33% +\+16\.67 pt +0",
                                  r"  pair \(cases/en/a\.yaml:7\): passed, output changed.*"])
    again = project.runpytest("--asrbench", "cases")
    again.stdout.re_match_lines([r"en +stt_wer +WER +1 +50\.00% +50\.00% +0\.00 pt +0"])
    assert "failing or changed" not in again.stdout.str()


def test_xfailed_and_new_cases_are_counted(project):
    write(project, "cases/en/a.yaml", GOOD)
    write(project, "cases/en/b.yaml", XFAIL)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(passed=3, xfailed=1)
    result.stdout.re_match_lines([r"en +4 +3 +0 +1 +0", r"en +stt_wer +WER +1 +33\.33% +n/a +new +1"])


def test_each_case_carries_rate_metric_and_version_as_junit_properties(project):
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    project.runpytest("--asrbench", "cases", "--junitxml=out.xml").assert_outcomes(passed=3)
    tree = ET.parse(project.path / "out.xml")
    cases = {case.get("name"): {prop.get("name"): prop.get("value") for prop in case.iter("property")}
             for case in tree.iter("testcase")}
    assert cases["pair"]["metric"] == "stt_wer" and cases["pair"]["version"] == METRICS["stt_wer"].version
    assert float(cases["pair"]["rate"]) == pytest.approx(1 / 3) and cases["pair"]["reference_length"] == "6"
    assert cases["pair"]["language"] == "en" and cases["pair"]["kind"] == "score"
    assert "rate" not in cases["spaces"] and cases["spaces"]["metric"] == "stt_wer"


def test_junit_failure_text_has_no_colour_codes(project, monkeypatch):
    _recorded(project)
    monkeypatch.setenv("FORCE_COLOR", "1")
    project.runpytest("--asrbench", "cases", "--junitxml=out.xml", "--color=yes")
    text = (project.path / "out.xml").read_text(encoding="utf-8")
    assert "REF: the CAT sat on THE MAT" in text and "\x1b" not in text and "#x1B" not in text


def test_html_and_markdown_reports_are_written(project):
    _recorded(project)
    (project.path / "out").mkdir()
    result = project.runpytest("--asrbench", "cases", "--asrbench-report", "out/r.html",
                               "--asrbench-markdown", str(project.path / "summary.md"))
    result.assert_outcomes(passed=2, failed=1)
    # each path as given, or from the current folder when given absolute inside it
    result.stdout.re_match_lines([r"asrbench --asrbench-report: wrote out/r\.html in \d+\.\d+ s$",
                                  r"asrbench --asrbench-markdown: wrote summary\.md in \d+\.\d+ s$"])
    page = (project.path / "out" / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<table id="languages">' in page and '<svg id="rate-chart"' in page
    assert "cases/en/a.yaml::pair" in page and '<td dir="auto" class="D">MAT</td>' in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page must fetch nothing"
    assert "@import" not in page and "url(" not in page
    markdown = (project.path / "summary.md").read_text(encoding="utf-8")
    assert "| en | stt_wer | WER | 1 | 50.00% | 33.33% | +16.67 pt | 0 |" in markdown
    assert "#### `cases/en/a.yaml::pair`" in markdown and "HYP: the BAT sat on *** ***" in markdown


class _FigureKeys:
    """An in-process plugin noting the figure keys of each case record the run reports."""

    def __init__(self):
        self.keys: dict[str, set] = {}

    def pytest_runtest_logreport(self, report):
        record = getattr(report, "asrbench_case", None)
        if report.when == "call" and record and record["figures"]:
            self.keys[report.nodeid.split("::")[-1]] = set(record["figures"])


def test_headline_alignments_are_computed_only_for_a_run_that_writes_a_report(project):
    from pytest_asrbench.cases.figures import FIGURE_KEYS, HEADLINE_KEYS

    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    plain, reported = _FigureKeys(), _FigureKeys()
    project.runpytest("--asrbench", "cases", plugins=[plain]).assert_outcomes(passed=3)
    project.runpytest("--asrbench", "cases", "--asrbench-markdown", "s.md", plugins=[reported]).assert_outcomes(
        passed=3)
    assert plain.keys == {"pair": set(FIGURE_KEYS)}
    assert reported.keys == {"pair": {*FIGURE_KEYS, *HEADLINE_KEYS}}
    assert "Most frequent errors" in (project.path / "s.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("option", ["--asrbench-report", "--asrbench-markdown"])
def test_a_report_path_that_cannot_be_written_stops_the_run_first(project, option):
    write(project, "cases/en/a.yaml", GOOD)
    result = project.runpytest("--asrbench", "cases", option, "missing/r.out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*: {option} missing/r.out: the folder missing does not exist; create it first*"])
    assert not (project.path / "snapshots").exists()


@pytest.mark.parametrize("option", ["--asrbench-report", "--asrbench-markdown", "--asrbench-run-record"])
@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_output_path_is_a_usage_error_not_a_silent_no_report(project, option, empty):
    # `--asrbench-markdown "$GITHUB_STEP_SUMMARY"` with the variable unset: before, the empty
    # value read as the option not given, and the run wrote nothing and said nothing.
    write(project, "cases/en/a.yaml", GOOD)
    result = project.runpytest("--asrbench", "cases", option, empty)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*argument {option}: the path is empty: give a file path*"])
    assert not (project.path / "snapshots").exists()


@pytest.mark.parametrize("second", [["--asrbench-markdown", "out/../r.html"], ["--asrbench-run-record", "r.html"]])
def test_one_path_for_two_outputs_is_refused_before_the_run(project, second):
    write(project, "cases/en/a.yaml", GOOD)
    (project.path / "out").mkdir()
    result = project.runpytest("--asrbench", "cases", "--asrbench-report", "r.html", *second)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--asrbench-report *r.html and {second[0]} *r.html name the same file: "
                                 "the second write would replace the first; give each its own path*"])
    assert not (project.path / "r.html").exists() and not (project.path / "snapshots").exists()


def test_a_report_without_asrbench_is_refused(project):
    result = project.runpytest("--asrbench-report", "r.html")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--asrbench-report reports on YAML cases: add --asrbench*"])


def _entry(nodeid, errors, length, recorded=None, language="en", metric="stt_wer", snapshot="same"):
    figures = {"unit": "word", "rate": errors / length if length else None, "errors": errors,
               "reference_length": length, "pairs": []}
    record = {"language": language, "kind": "score", "metric": metric, "snapshot": snapshot, "figures": figures,
              "recorded": None if recorded is None else {**figures, "errors": recorded,
                                                         "rate": recorded / length if length else None}}
    return CaseEntry(nodeid, "passed", "", record)


def test_corpus_rates_are_micro_averaged_and_changes_compare_recorded_cases_only():
    rows = rate_rows([_entry("a", 1, 10, recorded=1), _entry("b", 3, 30, recorded=0), _entry("c", 5, 10)])
    (row,) = rows
    assert (row.cases, row.errors, row.reference_length) == (3, 9, 50) and row.rate == pytest.approx(9 / 50)
    assert (row.compared, row.new) == (2, 1) and row.recorded == pytest.approx(1 / 40)
    assert row.change == pytest.approx(4 / 40 - 1 / 40)
    empty = rate_rows([_entry("d", 2, 0)])[0]
    assert empty.rate is None and empty.change is None


def test_changes_print_in_signed_percentage_points():
    assert [points(v) for v in (0.0043, -0.125, 0.0, -0.00001, None)] == [
        "+0.43 pt", "-12.50 pt", "0.00 pt", "0.00 pt", "n/a"]
    assert text_table(["name", "n"], [["de", "3"], ["hi", "12"]], indent="") == ["name   n", "de     3", "hi    12"]


def test_the_change_column_says_which_cases_are_new_instead_of_a_change_of_zero():
    from pytest_asrbench.reports.formatting import change_text, rate_cells

    (same,) = rate_rows([_entry("a", 1, 10, recorded=1)])
    (partly,) = rate_rows([_entry("a", 1, 10, recorded=1), _entry("b", 5, 10), _entry("c", 2, 10)])
    (moved,) = rate_rows([_entry("a", 2, 10, recorded=1), _entry("b", 5, 10)])
    (fresh,) = rate_rows([_entry("b", 5, 10)])
    assert [change_text(row) for row in (same, partly, moved, fresh)] == [
        "0.00 pt", "0.00 pt, 2 new", "+10.00 pt, 1 new", "new"]
    lines = text_table(["language", "change"], [["en", rate_cells(row)[6]] for row in (same, partly, fresh)],
                       indent="")
    assert lines == ["language          change", "en               0.00 pt", "en        0.00 pt, 2 new",
                     "en                   new"]  # still a column of figures: right-aligned


def test_an_entry_outcome_is_checked():
    with pytest.raises(ValueError, match="not one of passed, failed, xfailed, skipped"):
        CaseEntry("x", "error", "", {"language": "en", "kind": "score"})


def test_an_entry_without_its_case_record_is_refused_not_given_a_language():
    with pytest.raises(ValueError, match="a case file that could not be loaded is a LoadError"):
        CaseEntry("cases/mydata/bad.yaml::<case file error>", "failed", "", None)


BROKEN = """
language: en
cases:
  - id: typo
    kind: scor
    reference: a
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_case_file_that_fails_to_load_is_a_load_error_of_no_language(project, workers):
    # The broken file sits in a folder whose name is no language: it must not become a row.
    write(project, "cases/en/a.yaml", GOOD)
    write(project, "cases/mydata/bad.yaml", BROKEN)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update", "--asrbench-report", "r.html",
                               "--asrbench-markdown", "s.md", *workers)
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.re_match_lines([
        r"1 case file\(s\) could not be loaded \(counted under no language\):",
        r"  cases/mydata/bad\.yaml$",
        r"    cases/mydata/bad\.yaml:5: case 'typo', field `kind`: unknown kind 'scor': did you mean `score`\? .*",
        r"language +cases +passed +failed +xfailed +skipped",
        r"en +3 +3 +0 +0 +0",
    ])
    rows = re.findall(r"^(\S+) +\d+ +\d+ +\d+ +\d+ +\d+$", result.stdout.str(), flags=re.MULTILINE)
    assert rows == ["en"]
    markdown = (project.path / "s.md").read_text(encoding="utf-8")
    assert "### 1 case file(s) could not be loaded (counted under no language)" in markdown
    assert "- `cases/mydata/bad.yaml`" in markdown and "field `kind`: unknown kind 'scor'" in markdown
    assert "| mydata |" not in markdown and "| en | 3 | 3 | 0 | 0 | 0 |" in markdown
    page = (project.path / "r.html").read_text(encoding="utf-8")
    assert '<section id="load-errors">' in page and "<h3>cases/mydata/bad.yaml</h3>" in page
    assert "field `kind`: unknown kind &#x27;scor&#x27;" in page
    assert 'data-language="mydata"' not in page and "1 case file(s) could not be loaded" in page
    # every output names the file from the run's root, as pytest does: never by its absolute path
    root = str(project.path)
    assert not [line for line in result.stdout.lines if "bad.yaml" in line and root in line]
    assert root not in markdown and root not in page
    assert "\ncases/mydata/bad.yaml:5: case 'typo'" in markdown and "<pre>cases/mydata/bad.yaml:5: case" in page


NO_RECORD_CONFTEST = """
import pytest


def pytest_runtest_setup(item):
    if item.name == "spaces":
        raise RuntimeError("the fixture database is unavailable")
    if item.name == "names":
        pytest.skip("no reviewer lexicon on this host")
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_case_item_that_made_no_record_is_counted_and_named_with_its_reason(project, workers):
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    write(project, "conftest.py", NO_RECORD_CONFTEST)
    result = project.runpytest("--asrbench", "cases", "--asrbench-report", "r.html", "--asrbench-markdown", "s.md",
                               *workers)
    result.assert_outcomes(passed=1, skipped=1, errors=1)
    result.stdout.re_match_lines([
        r"en +3 +1 +1 +0 +1",
        r"2 case item\(s\) made no record \(stopped before their case ran or finished; .*",
        r"  cases/en/a\.yaml::spaces: failed, no record \(setup: RuntimeError: the fixture database is unavailable\)",
        r"  cases/en/a\.yaml::names: skipped, no record \(setup: skipped: no reviewer lexicon on this host\)",
    ])
    result.stdout.fnmatch_lines(["  spaces (cases/en/a.yaml:4): failed, no record - setup: RuntimeError: *"])
    markdown = (project.path / "s.md").read_text(encoding="utf-8")
    assert "### 2 case item(s) made no record" in markdown
    assert "- cases/en/a.yaml::names: skipped, no record (setup: skipped: no reviewer lexicon on this host)" in markdown
    assert "| en | 3 | 1 | 1 | 0 | 1 |" in markdown
    page = (project.path / "r.html").read_text(encoding="utf-8")
    assert '<section id="unrecorded">' in page and "RuntimeError: the fixture database is unavailable" in page
    assert page.count("<td>no record</td>") == 2


def test_a_report_without_cases_says_so():
    from pytest_asrbench.reports.html import render_html
    from pytest_asrbench.reports.markdown import render_markdown
    from pytest_asrbench.reports.summary import summary_lines

    report = RunReport()
    assert summary_lines(report) == [] and "No case items ran." in render_markdown(report)
    assert "no score or asr cases in this run" in render_html(report)


def test_a_run_without_asrbench_loads_no_normalizer_or_scorer_for_its_reports(project):
    project.makepyfile(test_a="""
        import sys

        def test_one():
            pass

        def test_two():  # test_one's reports have been made by now
            loaded = [m for m in sys.modules if m.startswith(("pytest_asrbench.normalize", "pytest_asrbench.scoring",
                                                              "pytest_asrbench.cases.items", "pytest_asrbench.reports."))]
            assert loaded == ["pytest_asrbench.reports.pytest_hooks"]
    """)
    project.runpytest_subprocess().assert_outcomes(passed=2)


def test_asr_cases_judged_by_tolerance_are_listed_in_every_output():
    from pytest_asrbench.asr.pytest_hooks import unrecorded_summary
    from pytest_asrbench.reports.html import render_html
    from pytest_asrbench.reports.markdown import render_markdown
    from pytest_asrbench.reports.summary import summary_lines

    here = "x86_64 AuthenticAMD 25/17: avx2 avx512f"
    recorded = "x86_64 GenuineIntel 6/207: avx2 avx512f"
    lines = unrecorded_summary([{"case": "cases/en/asr.yaml::en-01", "host": here,
                                 "why": "no native recording of this host", "recorded": [recorded],
                                 "same_as": [recorded], "ok": True}])
    report = RunReport([_entry("cases/en/asr.yaml::en-01", 0, 6, recorded=0)], lines)
    assert summary_lines(report)[-len(lines):] == lines
    assert lines[0].startswith("1 asr case(s) judged by tolerance, not exactly, on x86_64 AuthenticAMD 25/17 "
                               "(no native recording of this host)")
    assert "  cases/en/asr.yaml::en-01: same transcript as recorded on x86_64 GenuineIntel 6/207" in lines
    assert lines[1] in render_markdown(report) and "x86_64 AuthenticAMD 25/17" in render_html(report)


@pytest.mark.parametrize("reference, hypothesis, whole", [
    ("ไม่ใช่ครับ", "ไม่ไช่คับ", ["ม่", "ช่"]),              # Thai tone marks stay on their consonants
    ("กา", "ก่า", ["ก่"]),                                  # an inserted tone mark joins its consonant's cell
    ("क्षमा करें", "कसमा करे", ["क्ष", "रें"]),             # a conjunct and a vowel sign with its nasal mark
    ("café", "cafe\u0301s", ["e\u0301"]),                    # a combining accent
    ("한국어", "한국", ["한", "국"]),
])
def test_report_alignment_cells_hold_whole_grapheme_clusters(reference, hypothesis, whole):
    import unicodedata

    from pytest_asrbench.reports.alignments import cluster_cells
    from pytest_asrbench.scoring.alignment import align
    from pytest_asrbench.scoring.alignment_view import GAP

    cells = cluster_cells(align(reference, hypothesis, "char"))
    sides = [text for cell in cells for text in (cell.reference, cell.hypothesis) if text != GAP]
    assert not [text for text in sides if unicodedata.category(text[0]).startswith("M")]
    assert "".join(c.reference for c in cells if c.reference != GAP).replace("␣", " ").lower() == reference
    assert "".join(c.hypothesis for c in cells if c.hypothesis != GAP).replace("␣", " ").lower() == hypothesis
    assert all(any(cluster in side.lower() for side in sides) for cluster in whole)


def test_a_cell_joining_two_edits_carries_both_marks():
    from pytest_asrbench.reports.alignments import cluster_cells
    from pytest_asrbench.scoring.alignment import align

    (first, second) = cluster_cells(align("क्षमा", "कसमा", "char"))
    assert (first.reference, first.hypothesis, first.marks, second.marks) == ("क्ष", "कस", "SD", "")


def _asr_entry(now: str, recorded: str) -> CaseEntry:
    def figures(transcript: str, errors: int) -> dict:
        return {"unit": "word", "rate": errors / 4, "errors": errors, "reference_length": 4,
                "pairs": [["please open the door", transcript.lower().rstrip(".")]],
                "written": [["Please open the door.", transcript]]}

    record = {"language": "en", "kind": "asr", "hypothesis_name": "transcript", "metric": "stt_wer", "version": "1.0.0", "snapshot": "changed",
              "figures": figures(now, 1), "recorded": figures(recorded, 0), "note": None}
    return CaseEntry("cases/en/asr.yaml::en-02", "failed", "rate changed", record)


def test_an_asr_case_shows_its_reference_and_both_transcripts_as_written():
    from pytest_asrbench.reports.html import render_html

    page = render_html(RunReport([_asr_entry("Please open the window.", "Please open the door.")]))
    assert "<dt>reference (now)</dt><dd dir=\"auto\">Please open the door.</dd>" in page
    assert "<dt>transcript (now)</dt><dd dir=\"auto\">Please open the window.</dd>" in page
    assert "<dt>transcript (recorded)</dt><dd dir=\"auto\">Please open the door.</dd>" in page


def test_the_page_names_fonts_for_devanagari_hangul_cjk_and_thai_before_the_generic_family():
    from pytest_asrbench.reports.html import render_html

    page = render_html(RunReport([_asr_entry("Please open the window.", "Please open the door.")]))
    stack = re.search(r"body\{font-family:([^;]+);", page).group(1)
    for family in ("'Noto Sans Devanagari'", "'Noto Sans Thai'", "'Noto Sans CJK SC'", "'Noto Sans CJK KR'"):
        assert family in stack
    assert stack.endswith(",sans-serif") and "'Noto Sans Thai'" in re.search(
        r"table\.alignment td,table\.alignment th\{[^}]*font-family:([^;}]+)", page).group(1)
    assert '<article class="case" lang="en"' in page


def test_one_outlier_is_clipped_so_the_other_changes_stay_readable():
    from pytest_asrbench.reports.chart import chart_scale, change_chart

    assert chart_scale([2.37, 0.02, -0.01]) == 0.02 and chart_scale([0.03, 0.02]) == 0.03
    assert chart_scale([]) == 0.01 and chart_scale([0.004]) == 0.01
    rows = rate_rows([_entry("a", 248, 100, recorded=11, language="en"), _entry("b", 4, 100, recorded=2, language="de"),
                      _entry("c", 1, 100, recorded=2, language="fr")])
    svg = change_chart(rows)
    assert "scale ±2.00 pt" in svg and "1 bar(s) past the scale cut at its edge" in svg
    assert svg.count('class="bar clipped"') == 1 and ">+237.00 pt (cut)</text>" in svg
    widths = {match[0]: float(match[1]) for match in re.findall(
        r'data-language="(\w+)">.*?<rect [^>]*width="([0-9.]+)"', svg)}
    assert widths["de"] == pytest.approx(widths["en"]) and widths["fr"] == pytest.approx(widths["de"] / 2)


def test_markdown_tables_left_align_words_and_right_align_figures():
    from pytest_asrbench.reports.formatting import ERROR_HEADERS
    from pytest_asrbench.reports.markdown import _table

    lines = _table(ERROR_HEADERS, [["substitution", "2", "cat", "hat"]], text=frozenset({"reference", "hypothesis"}))
    assert lines[1] == "| --- | ---: | --- | --- |"
    assert _table(["language", "cases", "passed"], [])[1] == "| --- | ---: | ---: |"


def _scored(nodeid: str, reference: str, hypothesis: str) -> CaseEntry:
    from pytest_asrbench.scoring.alignment import align_counts

    _, substitutions, deletions, insertions, length = align_counts(reference, hypothesis, "word")
    errors = substitutions + deletions + insertions
    figures = {"unit": "word", "rate": errors / length, "errors": errors, "reference_length": length,
               "pairs": [[reference, hypothesis]], "written": [[reference, hypothesis]]}
    return CaseEntry(nodeid, "passed", "", {"language": "en", "kind": "asr", "metric": "stt_wer",
                                            "snapshot": "same", "figures": figures, "recorded": figures})


def test_a_rate_driven_by_one_hallucinated_clip_names_it_in_every_output():
    from pytest_asrbench.reports.html import render_html
    from pytest_asrbench.reports.markdown import render_markdown
    from pytest_asrbench.reports.summary import summary_lines

    clean = [_scored(f"cases/en/asr.yaml::c{n}", "the cat sat on the mat", "the cat sat on a mat") for n in range(7)]
    loop = _scored("cases/en/asr.yaml::loop", "thank you", "thank you " + "thank you " * 12)
    report = RunReport(clean + [loop])
    lines = summary_lines(report)
    # 7 substitutions + 24 insertions over 44 words
    assert "en stt_wer WER 70.45% is driven by 1 of 8 case(s), holding 24 of 31 errors (77%); 16.67% without it:" \
        in lines
    assert ("  cases/en/asr.yaml::loop: 24 error(s) over 2 reference words, 24 insertion(s) > 2x its reference length: "
            "the hypothesis is much longer (a hallucination or repetition loop?)") in lines
    assert "(each case's rate and alignment: --asrbench-report PATH)" in lines
    assert "- `cases/en/asr.yaml::loop`: 24 error(s) over 2 reference words" in render_markdown(report)
    page = render_html(report)
    assert '<section id="rate-drivers">' in page and "<code>cases/en/asr.yaml::loop</code>: 24 error(s)" in page
    assert not any("driven by" in line for line in summary_lines(RunReport(clean)))  # spread errors: no pointer


def test_a_case_failure_names_its_files_from_the_root_in_the_output_and_the_reports(project):
    write(project, "cases/en/a.yaml", GOOD)
    result = project.runpytest("--asrbench", "cases", "--asrbench-markdown", "s.md")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["cases/en/a.yaml:7: case 'pair' (score):",
                                 "no snapshot recorded yet: record it with * (it is written to snapshots/en/a/pair.json)"])
    root = str(project.path)
    assert not [line for line in result.stdout.lines if root in line and not line.startswith(("rootdir:", "asrbench --"))]
    assert root not in (project.path / "s.md").read_text(encoding="utf-8")


def _failed(message, record=None, crash=""):
    return CaseEntry("cases/en/a.yaml::pair", "failed", message,
                     {"language": "en", "kind": "score", "id": "pair", "file": "cases/en/a.yaml", "line": 7,
                      **(record or {})}, crash)


SNAPSHOT_DIFF = """cases/en/a.yaml:7: case 'pair' (score):
output differs from the recorded snapshot; if intended, bump the metric or language config version and re-record:
--- recorded snapshots/en/a/pair.json
+++ obtained now
@@ -3,3 +3,3 @@
   "hits": 4,
-  "rate": 0.3333333333333333,
+  "rate": 0.5,
   "substitutions": 1"""


@pytest.mark.parametrize("message, crash, reason", [
    ("cases/en/a.yaml:7: case 'pair' (score):\nstt_wer 50.0% != expected 0.0% (rate 0.5, ...)\nWER 0.5 ...",
     "", "stt_wer 50.0% != expected 0.0% (rate 0.5, ...)"),
    ("cases/en/a.yaml:7: case 'pair' (score): unknown engine setting 'beam'\nmore", "",
     "unknown engine setting 'beam'"),
    (SNAPSHOT_DIFF, "", 'snapshot "rate" 0.3333 -> 0.5'),
    ("[XPASS(strict)] now passes: remove `xfail: x` from cases/en/a.yaml:9 (the known limitation is fixed)\nmore", "",
     "[XPASS(strict)] now passes: remove `xfail: x` from cases/en/a.yaml:9 (the known limitation is fixed)"),
    ("Traceback (most recent call last):\n  File ...\nKeyError: 'rate'", "KeyError: 'rate'", "KeyError: 'rate'"),
    ("", "", "failed"),
], ids=["expectation", "could not run", "snapshot diff", "xpass", "unexpected error", "empty"])
def test_a_failing_case_gives_the_first_line_of_why_it_failed(message, crash, reason):
    from pytest_asrbench.reports.reasons import failure_reason

    assert failure_reason(_failed(message, crash=crash)) == reason


def test_a_case_that_made_no_record_gives_its_phase_and_reason_and_a_passing_one_none():
    from pytest_asrbench.reports.reasons import failure_reason

    assert failure_reason(_failed("", {"no_record": "setup: RuntimeError: boom"})) == "setup: RuntimeError: boom"
    changed = CaseEntry("cases/en/a.yaml::pair", "passed", "", {"language": "en", "kind": "score", "snapshot": "changed"})
    assert failure_reason(changed) == ""


def test_a_case_line_names_id_file_line_and_reason_wrapped_and_cut_to_the_width_by_display_cells():
    from pytest_asrbench.reports.summary import case_line, case_lines
    from pytest_asrbench.scoring.alignment_view import display_width

    entry = _failed("cases/en/a.yaml:7: case 'pair' (score):\n'猫が座った' normalizes to '猫が座る', expected x")
    whole = "pair (cases/en/a.yaml:7): failed - '猫が座った' normalizes to '猫が座る', expected x"
    assert case_line(entry) == whole
    assert case_lines(entry) == case_lines(entry, 2 + display_width(whole)) == ["  " + whole]
    for width in (50, 51, 52):  # too narrow for one line: the reason on a second, cut to the width
        head, reason = case_lines(entry, width)
        assert head == "  pair (cases/en/a.yaml:7): failed"
        assert reason.startswith("    - '猫が座った'") and display_width(reason) <= width and reason.endswith("...")
    assert case_lines(entry, 80) == ["  pair (cases/en/a.yaml:7): failed",
                                     "    - '猫が座った' normalizes to '猫が座る', expected x"]
    assert case_lines(entry, 8) == ["  pair (cases/en/a.yaml:7): failed"]  # not even '...' fits
    assert case_line(entry, node_id=False).startswith("cases/en/a.yaml:7: failed - '猫")


def test_every_output_gives_each_failing_case_its_file_line_and_reason(project, monkeypatch):
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)
    _recorded(project)
    write(project, "cases/en/b.yaml", GOOD.replace("rate: 0.3333333333333333", "rate: 0.0"))
    result = project.runpytest("--asrbench", "cases", "--asrbench-report", "r.html", "--asrbench-markdown", "s.md")
    result.assert_outcomes(passed=2, failed=4)  # b.yaml has no recordings yet
    at = next(index for index, line in enumerate(result.stdout.lines) if line.startswith("  pair ("))
    assert result.stdout.lines[at:at + 4] == [  # at 80 columns each reason gets a line of its own, cut to 80 cells
        "  pair (cases/en/a.yaml:7): failed, output changed, rate 50.00% (recorded 33.33%)",
        "    - stt_wer 50.0% != expected 33.3% (rate 0.5, expected 0.3333333333333333,...",
        "  spaces (cases/en/b.yaml:4): failed",
        "    - no snapshot recorded yet: record it with `pytest --asrbench cases/en/b....",
    ]
    assert [len(line) for line in result.stdout.lines[at:at + 4]] == [81, 80, 36, 80]  # a head is never cut
    markdown = (project.path / "s.md").read_text(encoding="utf-8")
    assert ("cases/en/b.yaml:7: failed, rate 33.33% - stt_wer 33.3% != expected 0.0% (rate 0.3333333333333333, "
            "expected 0.0, tolerance 1e-09)" in markdown)
    page = (project.path / "r.html").read_text(encoding="utf-8")
    assert ('<p class="reason"><code>cases/en/b.yaml:7</code>: stt_wer 33.3% != expected 0.0% (rate '
            "0.3333333333333333, expected 0.0, tolerance 1e-09)</p>") in page
    wide = project.runpytest("--asrbench", "cases", "-vv")
    wide.stdout.fnmatch_lines(["  pair (cases/en/b.yaml:7): failed, rate 33.33% - stt_wer 33.3% != expected 0.0% "
                               "(rate 0.3333333333333333, expected 0.0, tolerance 1e-09)"])


def test_pytests_short_summary_and_junit_give_a_failing_case_its_reason_line(project, monkeypatch):
    # pytest's own "FAILED <node id> - <message>" line and JUnit's failure message read the
    # same reason line as the run's summary, not an empty message.
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)
    _recorded(project)
    write(project, "cases/en/b.yaml", GOOD.replace("rate: 0.3333333333333333", "rate: 0.0"))
    project.runpytest("--asrbench", "cases", "--snapshot-update")
    result = project.runpytest("--asrbench", "cases", "-rf", "-vv", "--junitxml=out.xml")
    reason = "stt_wer 33.3% != expected 0.0% (rate 0.3333333333333333, expected 0.0, tolerance 1e-09)"
    result.stdout.fnmatch_lines([f"FAILED cases/en/b.yaml::pair - {reason}"])
    failures = {case.get("name"): case.find("failure") for case in ET.parse(project.path / "out.xml").iter("testcase")}
    assert failures["pair"] is not None
    messages = sorted(failure.get("message") for failure in failures.values() if failure is not None)
    assert reason in messages


def test_pytests_short_summary_gives_a_case_file_that_cannot_be_loaded_its_first_problem(project):
    write(project, "cases/en/broken.yaml", "cases:\n  - id: orphan\n    kind: equal\n    texts: [a, b]\n")
    result = project.runpytest("--asrbench", "cases", "-rf", "-vv")
    result.stdout.fnmatch_lines(["FAILED cases/en/broken.yaml::<case file error> - line 2: case "
                                 "'orphan' has no language*"])


NOT_WHOLE = "Not a whole run: "


def _partial_outputs(project, *args: str, **kwargs) -> tuple[str, str, str]:
    """The terminal output, Markdown summary and HTML report of a run with ``args``."""
    result = project.runpytest("--asrbench", "cases", "--asrbench-markdown", "s.md", "--asrbench-report", "r.html",
                               *args, **kwargs)
    return (result.stdout.str(), (project.path / "s.md").read_text(encoding="utf-8"),
            (project.path / "r.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("args, reason", [
    (["-k", "pair"], "2 of 3 case(s) of the collected case files did not run (a -k, -m, node-id, --deselect or --lf "
                     "selection, or a stop)"),
    (["-k", "pair", "-n", "2"], "2 of 3 case(s) of the collected case files did not run"),
    (["-x"], "the run was interrupted (stopping after 1 failures)"),
])
def test_a_run_that_is_not_whole_says_so_first_in_every_output(project, args, reason):
    _recorded(project)
    terminal, markdown, page = _partial_outputs(project, *args)
    summary = terminal.split("asrbench summary -")[1].splitlines()
    assert summary[1].startswith(NOT_WHOLE + reason), terminal
    assert f"> **{NOT_WHOLE}{reason}" in markdown.split("| language |")[0]
    assert f'<p id="partial" role="note">{NOT_WHOLE}' in page.split('<table id="languages">')[0]


def test_an_interrupted_run_says_so_in_every_output(project):
    _recorded(project)
    write(project, "conftest.py", "def pytest_runtest_call(item):\n"
                                  "    if item.name == 'pair':\n        raise KeyboardInterrupt\n")
    # the inner run's Ctrl-C must not stop this one (pytester re-raises it by default)
    terminal, markdown, page = _partial_outputs(project, no_reraise_ctrlc=True)
    assert f"{NOT_WHOLE}the run was interrupted" in terminal
    assert f"{NOT_WHOLE}the run was interrupted" in markdown and f"{NOT_WHOLE}the run was interrupted" in page


def test_a_whole_run_says_nothing_of_it(project):
    _recorded(project)
    for text in _partial_outputs(project):
        assert NOT_WHOLE not in text and 'id="partial"' not in text


def test_the_reason_a_run_is_not_whole_is_the_first_line_of_each_rendering():
    from pytest_asrbench.reports.html import render_html
    from pytest_asrbench.reports.markdown import render_markdown
    from pytest_asrbench.reports.summary import summary_lines

    report = RunReport([_entry("cases/en/a.yaml::x", 1, 4)], partial="the run was interrupted")
    assert summary_lines(report)[:3] == ["Not a whole run: the run was interrupted", "",
                                         "language  cases  passed  failed  xfailed  skipped"]
    assert "`\n\n> **Not a whole run: the run was interrupted**\n\n| language |" in \
        render_markdown(RunReport(report.entries, command="pytest --asrbench cases", partial=report.partial))
    assert '<p id="partial" role="note">Not a whole run: the run was interrupted</p>' in render_html(report)
    assert summary_lines(RunReport(partial="the run was interrupted")) == ["Not a whole run: the run was interrupted"]
