"""The reason line pytest's short test summary (``-rf``) gives a failing case after
``FAILED <node id> - ``: what failed first and compactly, so that at 80 columns, where pytest
cuts the line and the node id takes most of it, a reviewer still sees what failed; at 120
columns more of it; on CI (nothing cut) all of it. Every kind of reason: an expectation of
each kind, a snapshot that differs, no snapshot recorded, a strict XPASS, a case file that
cannot be loaded, and the version gate's refusal."""

from __future__ import annotations

import pytest

from pytest_asrbench._shared.failure_reason import distinct_numbers
from pytest_asrbench.cases.kinds.score import check_expectations, mismatch_line
from tests.test_plugin import _signature_file, project, write  # noqa: F401 - the pytester fixture

CASES = """
language: en
cases:
  - id: rate
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on the mat
    expect: {rate: 0.0}
  - id: counts
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on the mat
    expect: {rate: 0.16666666666666666, substitutions: 0}
  - id: bound
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {max_rate: 0.1}
  - id: norm
    kind: normalize
    text: "It's twenty five dollars"
    expect: "it's 25 dollars"
  - id: same
    kind: equal
    texts: ["data base", "database"]
  - id: apart
    kind: distinct
    texts: ["Hello, world", "hello world"]
  - id: kept
    kind: untouched
    texts: ["twenty five"]
  - id: fixed
    kind: equal
    texts: ["hello", "Hello"]
    xfail: capitals were not folded
  - id: drift
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {substitutions: 1}
"""

#: node id -> (the part that must show at 80 columns, the whole reason as CI shows it).
REASONS = {
    "cases/en/a.yaml::rate": (
        "stt_wer 16.7% != expected 0.0%",
        "stt_wer 16.7% != expected 0.0% (rate 0.16666666666666666, expected 0.0, tolerance 1e-09)"),
    "cases/en/a.yaml::counts": ("substitutions 1 != expected 0", "substitutions 1 != expected 0"),
    "cases/en/a.yaml::bound": (
        "stt_wer 33.3% > max 10.0%",
        "stt_wer 33.3% > max 10.0% (rate 0.3333333333333333, max_rate 0.1, tolerance 1e-09)"),
    "cases/en/a.yaml::norm": (
        "normalized 'it is $25' != expected",
        "normalized 'it is $25' != expected \"it's 25 dollars\" (text \"It's twenty five dollars\")"),
    "cases/en/a.yaml::same": (
        "normalized forms differ: 'data base'",
        "normalized forms differ: 'data base' != 'database'"),
    "cases/en/a.yaml::apart": (
        "both normalize to 'hello world'",
        "both normalize to 'hello world' (one from step 'lowercase'): 'Hello, world' and 'hello world' should "
        "stay different"),
    "cases/en/a.yaml::kept": (
        "normalized '25' != expected 'twenty five'",
        "normalized '25' != expected 'twenty five' (text 'twenty five': only its case, punctuation and spacing "
        "may change)"),
    "cases/en/a.yaml::fixed": (
        "[XPASS(strict)] now passes",
        "[XPASS(strict)] now passes: remove `xfail: capitals were not folded` from cases/en/a.yaml:35 (the "
        "known limitation is fixed)"),
    "cases/en/a.yaml::drift": ('snapshot "deletions" 1 -> 0', 'snapshot "deletions" 1 -> 0'),
    "cases/en/b.yaml::new": (
        "no snapshot recorded yet",
        "no snapshot recorded yet: record it with `pytest --asrbench cases/en/b.yaml --snapshot-update` (it is "
        "written to "
        "snapshots/en/b/new.json)"),
    "cases/en/c.yaml::<case file error>": (
        "line 2: case 'orphan'",
        "line 2: case 'orphan' has no language: set 'language' at the top of the file or on the case"),
}


def _summary_lines(result) -> dict[str, str]:
    """The short test summary's ``FAILED`` lines by node id."""
    found = {}
    for line in result.stdout.lines:
        if line.startswith("FAILED "):
            node = line[len("FAILED "):].split(" - ", 1)[0]
            found[node] = line
    return found


def _check_width(lines: dict[str, str], width: int | None, reasons: dict[str, tuple[str, str]]) -> None:
    """Each line holds its reason whole, or cut to ``width`` with pytest's ``...``, and always
    its important part at 80 columns."""
    assert sorted(lines) == sorted(reasons)
    for node, (important, whole) in reasons.items():
        full = f"FAILED {node} - {whole}"
        line = lines[node]
        if width is None or len(full) <= width:
            assert line == full
            continue
        assert len(line) <= width and line.endswith("...") and full.startswith(line[:-3]), (width, line)
        assert f"FAILED {node} - {important}" in line, (width, line)


@pytest.fixture
def failing(project, monkeypatch):
    """A project whose every case fails, each for another reason."""
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)
    write(project, "cases/en/a.yaml", CASES)
    project.runpytest("--asrbench", "cases", "--snapshot-update")
    write(project, "cases/en/a.yaml", CASES.replace("hypothesis: the bat sat on mat\n    expect: {substitutions: 1}",
                                                     "hypothesis: the bat sat on the mat\n    expect: {substitutions: 1}"))
    write(project, "cases/en/b.yaml", "language: en\ncases:\n  - id: new\n    kind: equal\n    texts: [a, A]\n")
    write(project, "cases/en/c.yaml", "cases:\n  - id: orphan\n    kind: equal\n    texts: [a, b]\n")
    return project


@pytest.mark.parametrize("columns", [80, 120])
def test_a_failing_cases_reason_line_leads_with_what_failed_at_every_width(failing, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    result = failing.runpytest("--asrbench", "cases", "-rf")
    _check_width(_summary_lines(result), columns, REASONS)


def test_on_ci_the_reason_line_is_whole(failing, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("CI", "true")
    result = failing.runpytest("--asrbench", "cases", "-rf")
    _check_width(_summary_lines(result), None, REASONS)


def test_a_version_gate_refusal_leads_with_not_re_recorded(project, monkeypatch):
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)
    write(project, "cases/en/signature.yaml", _signature_file())
    write(project, "cases/en/a.yaml", CASES)
    project.runpytest("--asrbench", "cases", "--snapshot-update")
    path = project.path / "cases/en/signature.yaml"
    text = path.read_text(encoding="utf-8")
    recorded = text.split('signature: "', 1)[1].split('"', 1)[0]
    path.write_text(text.replace(f'signature: "{recorded}"', 'signature: "0000000000000000"'), encoding="utf-8")
    write(project, "cases/en/a.yaml", CASES.replace("hypothesis: the bat sat on mat\n    expect: {substitutions: 1}",
                                                     "hypothesis: the bat sat on the mat\n    expect: {substitutions: 1}"))
    reasons = {
        "cases/en/a.yaml::drift": (
            "not re-recorded: (stt_wer, en) changed",
            "not re-recorded: (stt_wer, en) changed without a version bump; nothing is written for this pair (what "
            "to bump: the signature case at cases/en/signature.yaml:3)"),
        "cases/en/signature.yaml::stt_wer-signature": ("not re-recorded: metric", None),
    }
    for columns in (80, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        lines = _summary_lines(project.runpytest("--asrbench", "cases", "-rf", "--snapshot-update"))
        for node, (important, whole) in reasons.items():
            assert f"FAILED {node} - {important}" in lines[node]
            if whole is not None and len(f"FAILED {node} - {whole}") > columns:
                assert f"FAILED {node} - {whole}".startswith(lines[node][:-3])
    monkeypatch.setenv("CI", "true")
    lines = _summary_lines(project.runpytest("--asrbench", "cases", "-rf", "--snapshot-update"))
    assert lines["cases/en/a.yaml::drift"] == f"FAILED cases/en/a.yaml::drift - {reasons['cases/en/a.yaml::drift'][1]}"
    assert lines["cases/en/signature.yaml::stt_wer-signature"].startswith(
        "FAILED cases/en/signature.yaml::stt_wer-signature - not re-recorded: metric changed without a version bump "
        "(stt_wer, en): bump the version of ")


@pytest.mark.parametrize("first, second, percent, shown", [
    (0.16666666666666666, 0.0, True, ("16.7%", "0.0%")),
    (0.1667, 0.16666666666666666, True, ("16.670%", "16.667%")),
    (0.3333333333333333, 0.5, False, ("0.3333", "0.5")),
    (0.16666666666666666, 0.16666666666666669, False, ("0.16666666666666666", "0.16666666666666669")),
    (352, 350, False, ("352", "350")),
    (1, 1.0, False, ("1", "1.0")),
])
def test_two_numbers_are_written_as_short_as_they_stay_different(first, second, percent, shown):
    assert distinct_numbers(first, second, percent=percent) == shown


def test_an_expectation_line_names_the_figure_its_value_and_the_expected_one_first():
    result = {"metric": "cer", "rate": None, "substitutions": 2, "unit": "char", "details": {"strict_rate": 0.5}}
    assert check_expectations(result, {"rate": 0.1, "substitutions": 2, "unit": "word",
                                       "details.strict_rate": 0.25}, 1e-9) == [
        "cer none (empty reference) != expected 10.0%",
        "unit 'char' != expected 'word'",
        "details.strict_rate 0.5 != expected 0.25 (tolerance 1e-09)",
    ]
    assert check_expectations(result, {"max_rate": 0.1}, 1e-9) == ["cer none (empty reference), expected at most 10.0%"]
    assert mismatch_line("transcript", "good evening", "good morning", 1e-9) == \
        "transcript 'good evening' != expected 'good morning'"
