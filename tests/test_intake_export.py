"""`asrbench add-case` (a reviewer's example appended in the file's own style, run and
recorded; duplicates refused) and `asrbench export sclite` (trn and pra files)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_asrbench.export import sclite
from pytest_asrbench.export.sources import ExportError, Utterance, gather
from pytest_asrbench.intake.add_case import AddCaseError, build_case, derive_id

CASE_FILE = """\
# Hindi rescue cases: reviewers' examples (this comment stays)
language: hi
cases:
  - id: phonetic-number
    kind: score
    reference: "मेरा नंबर बदल गया"
    hypothesis: "मेरा number बदल गया"
    expect: {strict_rate: 0.25, rate: 0.0}   # rescued by the phonetic matcher
"""


def _asrbench(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    return subprocess.run([sys.executable, "-m", "pytest_asrbench.cli", *args, "--root", str(root)], cwd=root,
                          capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    path = tmp_path / "cases" / "hi" / "rescue.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(CASE_FILE, encoding="utf-8")
    return tmp_path


def test_add_case_appends_in_the_files_style_runs_and_records_it(project):
    before = (project / "cases/hi/rescue.yaml").read_text(encoding="utf-8")
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "score", "--reference", "मेरी flight कल है",
                       "--hypothesis", "मेरी fight कल है", "--note", "reviewer: real error",
                       "--file", "cases/hi/rescue.yaml", "--expect-rate", "0.25")
    assert result.returncode == 0, result.stdout + result.stderr
    case_id = derive_id({"kind": "score", "reference": "मेरी flight कल है", "hypothesis": "मेरी fight कल है"})
    assert f"added cases/hi/rescue.yaml::{case_id}" in result.stdout
    after = (project / "cases/hi/rescue.yaml").read_text(encoding="utf-8")
    assert after.startswith(before)  # comments, order and quoting of the file untouched
    assert after[len(before):] == (
        f"  - id: {case_id}\n    kind: score\n    source: reviewer\n    note: \"reviewer: real error\"\n"
        "    reference: \"मेरी flight कल है\"\n    hypothesis: \"मेरी fight कल है\"\n    expect: {rate: 0.25}\n")
    snapshot = json.loads((project / f"snapshots/hi/rescue/{case_id}.json").read_text(encoding="utf-8"))
    assert snapshot["rate"] == 0.25


def test_add_case_refuses_a_duplicate_with_the_existing_id(project):
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "score", "--reference", "मेरा नंबर बदल गया",
                       "--hypothesis", "मेरा number बदल गया")
    assert result.returncode == 2
    assert "'phonetic-number' in cases/hi/rescue.yaml" in result.stderr
    assert not (project / "cases/hi/score.yaml").exists()


def test_add_case_without_a_rate_expects_the_current_one_and_says_so(project):
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "equal", "--text", "ज़रूर", "--text", "जरूर")
    assert result.returncode == 0, result.stderr
    assert (project / "cases/hi/equal.yaml").read_text(encoding="utf-8").startswith("# Reviewers' examples for hi")
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "score", "--reference", "कल मिलते हैं",
                       "--hypothesis", "कल मिलते है")
    assert "is what the example scores now" in result.stdout


def test_add_case_reports_a_failing_case_and_keeps_it(project):
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "score", "--reference", "मेरी flight कल है",
                       "--hypothesis", "मेरी fight कल है", "--expect-rate", "0")
    assert result.returncode == 1
    assert "the case was added but does not pass" in result.stderr


@pytest.mark.parametrize("rate, problem", [("nan", "'nan' is not a rate: give a finite number >= 0"),
                                           ("inf", "'inf' is not a rate: give a finite number >= 0"),
                                           ("-inf", "'-inf' is not a rate"),
                                           ("-0.25", "'-0.25' is negative"),
                                           ("a quarter", "'a quarter' is not a number")])
def test_add_case_refuses_an_expected_rate_that_is_not_a_finite_number_at_least_zero(project, rate, problem, capsys):
    from pytest_asrbench.cli import main

    with pytest.raises(SystemExit) as info:
        main(["add-case", "-l", "hi", "--kind", "score", "--reference", "कल मिलते हैं", "--hypothesis", "आज मिलते हैं",
              f"--expect-rate={rate}", "--no-run", "--root", str(project)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"asrbench add-case: error: argument --expect-rate: {problem}" in err, err
    assert not (project / "cases/hi/score.yaml").exists()


def test_add_case_expects_a_null_rate_for_a_reference_that_normalizes_to_nothing_and_the_case_passes(project):
    result = _asrbench(project, "add-case", "-l", "en", "--kind", "score", "--reference", "...",
                       "--hypothesis", "hello")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "expect rate null: the reference normalizes to nothing" in result.stdout
    assert "expect: {rate: null}" in (project / "cases/en/score.yaml").read_text(encoding="utf-8")
    case_id = derive_id({"kind": "score", "reference": "...", "hypothesis": "hello"})
    assert json.loads((project / f"snapshots/en/score/{case_id}.json").read_text(encoding="utf-8"))["rate"] is None


def test_add_case_refuses_an_expected_rate_for_a_reference_that_normalizes_to_nothing(project):
    result = _asrbench(project, "add-case", "-l", "en", "--kind", "score", "--reference", "...",
                       "--hypothesis", "hello", "--expect-rate", "0.5", "--no-run")
    assert result.returncode == 2
    assert "--expect-rate 0.5: the reference normalizes to nothing, so the case's rate is undefined (null)" in result.stderr
    assert not (project / "cases/en").exists()


@pytest.mark.parametrize("from_root", [True, False])
def test_ctrl_c_after_the_case_is_written_says_it_is_in_the_file_and_how_to_record_it(project, from_root, monkeypatch,
                                                                                      capsys, tmp_path_factory):
    from pytest_asrbench.cli import main
    from pytest_asrbench.intake import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.subprocess, "run", interrupted)
    monkeypatch.chdir(project if from_root else tmp_path_factory.mktemp("elsewhere"))
    assert main(["add-case", "-l", "hi", "--kind", "score", "--reference", "कल मिलते हैं", "--hypothesis",
                 "आज मिलते हैं", "--expect-rate", "0.25", "--root", str(project)]) == 130
    case_id = derive_id({"kind": "score", "reference": "कल मिलते हैं", "hypothesis": "आज मिलते हैं"})
    assert case_id in (project / "cases/hi/score.yaml").read_text(encoding="utf-8")
    err = capsys.readouterr().err
    shown = "cases/hi/score.yaml" if from_root else str(project / "cases/hi/score.yaml")
    where = "" if from_root else f"from {project}, "
    assert err == (f"asrbench add-case: interrupted: the case {case_id!r} is in {shown}, not yet recorded; record it "
                   f"with: {where}pytest --asrbench cases/hi/score.yaml::{case_id} --snapshot-update\n")


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """A team's project: case folder ``checks`` and its own en config ('kubernetes' -> 'k8s'),
    both named by its pyproject.toml, one case already in ``checks``."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\nasrbench_case_dirs = ["checks"]\nasrbench_config_dirs = ["mine"]\n')
    (tmp_path / "mine/en").mkdir(parents=True)
    (tmp_path / "mine/en.toml").write_text('extends = "en"\nversion = "1.0.0"\n[lexicons]\nspelling = "en/spelling.tsv"\n')
    (tmp_path / "mine/en/spelling.tsv").write_text("kubernetes\tk8s\n", encoding="utf-8")
    (tmp_path / "other/en").mkdir(parents=True)
    (tmp_path / "other/en.toml").write_text('extends = "en"\nversion = "1.0.0"\n[lexicons]\nspelling = "en/spelling.tsv"\n')
    (tmp_path / "other/en/spelling.tsv").write_text("docker\tdkr\n", encoding="utf-8")
    (tmp_path / "checks/en").mkdir(parents=True)
    (tmp_path / "checks/en/product.yaml").write_text(
        "language: en\ncases:\n  - id: product\n    kind: equal\n    texts: [Kubernetes, k8s]\n", encoding="utf-8")
    return tmp_path


def test_add_case_writes_to_the_project_s_case_folder_with_its_configs(team):
    result = _asrbench(team, "add-case", "-l", "en", "--kind", "score", "--reference", "deploy kubernetes",
                       "--hypothesis", "deploy k8s")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "expect rate 0.0 is what the example scores now" in result.stdout  # 'kubernetes' is 'k8s' here
    assert "added checks/en/score.yaml::" in result.stdout and "recorded its snapshot" in result.stdout
    assert not (team / "cases").exists()
    again = _asrbench(team, "add-case", "-l", "en", "--kind", "equal", "--text", "k8s", "--text", "Kubernetes")
    assert again.returncode == 2 and "'product' in checks/en/product.yaml" in again.stderr


def test_add_case_runs_the_case_with_the_config_dir_it_was_given(team):
    # 'other' is named only on the command line: the case's pytest run must search it too
    result = _asrbench(team, "add-case", "-l", "en", "--kind", "score", "--reference", "run docker and kubernetes",
                       "--hypothesis", "run dkr and k8s", "--config-dir", str(team / "other"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "expect rate 0.0 is what the example scores now" in result.stdout
    assert "recorded its snapshot" in result.stdout


def test_export_scores_with_the_project_s_configs(team, tmp_path):
    (team / "checks/en/score.yaml").write_text("language: en\ncases:\n  - id: s\n    kind: score\n"
                                               "    reference: deploy kubernetes\n    hypothesis: deploy k8s\n"
                                               "    expect: {rate: 0.0}\n", encoding="utf-8")
    result = _asrbench(team, "export", "sclite", str(team / "checks"), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    pra = (tmp_path / "out/en/stt_wer/alignments.pra").read_text(encoding="utf-8")
    assert ";; Sum: #C 2 #S 0 #D 0 #I 0 N 2 rate 0.0000" in pra, pra


def test_add_case_without_a_rate_expects_the_exact_current_rate_and_the_case_passes(project):
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "score", "--reference", "कल मिलते हैं",
                       "--hypothesis", "आज मिलते हैं")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "expect rate 0.3333333333333333 is what the example scores now" in result.stdout
    assert "expect: {rate: 0.3333333333333333}" in (project / "cases/hi/score.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("rate, written", [(1e-05, "1.0e-05"), (1e300, "1.0e+300"), (0.25, "0.25"), (2.0, "2.0"),
                                           (1.2345678901234568e+17, "1.2345678901234568e+17")])
def test_an_expected_rate_is_written_as_a_number_the_case_loader_reads_back(project, rate, written):
    from pytest_asrbench.cases.loader import load_case_file

    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "score", "--reference", "कल मिलते हैं",
                       "--hypothesis", "आज मिलते हैं", "--expect-rate", repr(rate), "--no-run")
    assert result.returncode == 0, result.stdout + result.stderr
    path = project / "cases/hi/score.yaml"
    assert f"expect: {{rate: {written}}}" in path.read_text(encoding="utf-8")
    assert load_case_file(path).cases[0].fields["expect"]["rate"] == rate


def test_add_case_refuses_an_empty_id_or_text_instead_of_dropping_it(project):
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "equal", "--text", "हाँ", "--text", "हां",
                       "--id", "", "--no-run")
    assert result.returncode == 2 and "--id is empty" in result.stderr
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "equal", "--text", "हाँ", "--text", " ", "--no-run")
    assert result.returncode == 2 and "empty --text value(s) (number 2)" in result.stderr
    assert not (project / "cases/hi/equal.yaml").exists()


@pytest.mark.parametrize("kind, texts, problem", [
    ("distinct", ["a"], "--kind distinct takes exactly 2 --text value(s), not 1"),
    ("distinct", ["a", "b", "c"], "--kind distinct takes exactly 2 --text value(s), not 3"),
    ("equal", ["a"], "--kind equal takes at least 2 --text value(s), not 1"),
])
def test_build_case_states_how_many_texts_a_kind_takes(kind, texts, problem):
    with pytest.raises(AddCaseError, match=re.escape(problem)):
        build_case(kind, texts=texts, reference=None, hypothesis=None, expect=None, expect_rate=None, note=None)


@pytest.mark.parametrize("kind, kwargs, problem", [
    ("score", {"texts": ["x"]}, "takes --reference and --hypothesis"),
    ("normalize", {"texts": ["x"]}, "takes --text and --expect: give --expect"),
    ("normalize", {"texts": ["x", "y"], "expect": "x"}, "takes --text and --expect: give one --text"),
    ("equal", {"texts": ["x"]}, "at least 2 --text"),
    ("distinct", {"texts": ["a", "b"], "expect": "a"}, "--kind distinct takes --text, not --expect"),
    ("signature", {"texts": ["a"]}, "--kind signature cannot be added by add-case; use one of: equal, distinct"),
    ("untouched", {"reference": "a"}, "takes --text, not --reference"),
])
def test_build_case_refuses_fields_a_kind_does_not_take(kind, kwargs, problem):
    fields = {"texts": [], "reference": None, "hypothesis": None, "expect": None, "expect_rate": None, "note": None}
    fields.update(kwargs)
    if kind == "score":
        fields["reference"] = fields["hypothesis"] = None
    with pytest.raises(AddCaseError, match=problem):
        build_case(kind, **fields)


def test_a_derived_id_stays_within_the_id_length_limit():
    from pytest_asrbench.cases.schema import MAX_ID_LENGTH

    case = build_case("equal", texts=["a" * 300 + " " + "b" * 300, "c" * 300 + " " + "d" * 300], reference=None,
                      hypothesis=None, expect=None, expect_rate=None, note=None)
    case_id = derive_id(case)
    assert len(case_id) <= MAX_ID_LENGTH and case_id.startswith("equal-aaa") and case_id.count("-") == 5


def test_ids_are_stable_ascii_and_unique_per_example():
    first = derive_id({"kind": "equal", "texts": ["ज़रूर", "जरूर"]})
    assert first == derive_id({"kind": "equal", "texts": ["ज़रूर", "जरूर"]})
    assert first.startswith("equal-") and first.isascii()
    assert first != derive_id({"kind": "equal", "texts": ["हाँ", "हां"]})


def test_trn_and_pra_hold_our_normalized_tokens_and_counts(tmp_path):
    utterances = [Utterance("en_a-pair", "en", "stt_wer", "The cat sat on the mat.", "the bat sat on"),
                  Utterance("ja_a-ja1", "ja", "cer", "ありがとう", "ありがと")]
    sclite.write(utterances, tmp_path, version="test")
    en, ja = tmp_path / "en" / "stt_wer", tmp_path / "ja" / "cer"
    # cut at the edges of our alignment's spans: hits, a substitution, hits, deletions
    assert (en / "ref.trn").read_text(encoding="utf-8").splitlines() == [
        "the (en_a-pair.s1)", "cat (en_a-pair.s2)", "sat on (en_a-pair.s3)", "the mat (en_a-pair.s4)"]
    assert (en / "hyp.trn").read_text(encoding="utf-8").splitlines() == [
        "the (en_a-pair.s1)", "bat (en_a-pair.s2)", "sat on (en_a-pair.s3)", "(en_a-pair.s4)"]
    assert (ja / "ref.trn").read_text(encoding="utf-8").splitlines() == ["あ り が と (ja_a-ja1.s1)", "う (ja_a-ja1.s2)"]
    pra = (en / "alignments.pra").read_text(encoding="utf-8")
    assert ("id: (en_a-pair)\nScores: (#C #S #D #I) 3 1 2 0\n"
            "REF:  the CAT sat on THE MAT\nHYP:  the BAT sat on *** ***\nEval:     S          D   D\n") in pra
    assert ";; Sum: #C 3 #S 1 #D 2 #I 0 N 6 rate 0.5000" in pra
    assert ";; Sum: #C 4 #S 0 #D 1 #I 0 N 5 rate 0.2000" in (ja / "alignments.pra").read_text(encoding="utf-8")


def test_export_from_cases_and_a_run_record(project, tmp_path):
    record = tmp_path / "run.json"
    record.write_text(json.dumps({"schema": "asrbench.run/1", "clips": [
        {"source": "samples/en/en-01.wav", "language": "en", "reference": "hello world", "transcript": "hello word",
         "metric": "stt_wer"},
        {"source": "samples/en/en-02.wav", "language": "en", "reference": None, "transcript": "not a case"}]}))
    found = gather([project / "cases", record], project)
    assert [u.id for u in found] == ["hi_rescue-phonetic_number", "en-en_01"]
    result = _asrbench(project, "export", "sclite", "cases", str(record), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    hindi = tmp_path / "out/hi/stt_wer"
    assert ";; Sum: #C 4 #S 0 #D 0 #I 0 N 4 rate 0.0000" in (hindi / "alignments.pra").read_text(encoding="utf-8")
    assert ";; Sum: #C 3 #S 1 #D 0 #I 0 N 4 rate 0.2500" in (hindi / "strict.alignments.pra").read_text(encoding="utf-8")


def test_export_refuses_what_it_cannot_read(project, tmp_path):
    bad = tmp_path / "other.json"
    bad.write_text('{"schema": "something/1"}')
    with pytest.raises(ExportError, match="not a run record of schema asrbench.run/1"):
        gather([bad], project)
    with pytest.raises(ExportError, match="missing.txt: no such file or folder"):
        gather([tmp_path / "missing.txt"], project)
    (tmp_path / "notes.txt").write_text("not a case")
    with pytest.raises(ExportError, match="not a case file, a folder of case files or a run record"):
        gather([tmp_path / "notes.txt"], project)
    result = _asrbench(project, "export", "sclite", "cases", "--out", str(bad))
    assert result.returncode == 2 and "--out" in result.stderr


@pytest.mark.parametrize("clips, problem", [
    ("x", "'clips' must be a list of clip objects, not str"),
    ([3], "clip 1 is a int, not an object"),
    ([{"language": "en", "reference": "a", "transcript": "b"}], "clip 1 (no source): 'source' is missing"),
    ([{"source": "a.wav", "language": "en", "reference": "a", "transcript": None}],
     "clip 1 (a.wav): 'transcript' is null; it must be text"),  # never exported as the word "None"
    ([{"source": "a.wav", "language": "en", "reference": None, "transcript": None},
      {"source": "b.wav", "language": "en", "reference": "a", "transcript": "b", "metric": 5}],
     "clip 2 (b.wav): 'metric' is 5; it must be text or null"),
    ([{"source": "a.wav", "language": ["en"], "reference": "a", "transcript": "b"}], "'language' is [\"en\"]"),
])
def test_export_names_the_clip_and_field_of_a_run_record_it_cannot_read(tmp_path, clips, problem):
    record = tmp_path / "run.json"
    record.write_text(json.dumps({"schema": "asrbench.run/1", "clips": clips}), encoding="utf-8")
    with pytest.raises(ExportError) as info:
        gather([record], tmp_path)
    assert problem in str(info.value)


@pytest.mark.parametrize("target, problem", [("cases/hi", "is a folder"), ("README.md", "is not a case file"),
                                             ("cases/hi/broken.yaml", "cannot read it as a case file")])
def test_add_case_refuses_a_file_it_cannot_append_to(project, target, problem):
    (project / "README.md").write_text("# not cases\n", encoding="utf-8")
    (project / "cases/hi/broken.yaml").write_text("language: hi\ncases: [\n", encoding="utf-8")
    result = _asrbench(project, "add-case", "-l", "hi", "--kind", "equal", "--text", "हाँ", "--text", "हां",
                       "--file", target, "--no-run")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert problem in result.stderr


REPOSITORY = Path(__file__).resolve().parents[1]


def _documented_add_case_commands() -> list[list[str]]:
    """Each ``asrbench add-case`` example of docs/review.md, its ``\\`` continuations joined."""
    import shlex

    text = (REPOSITORY / "docs" / "review.md").read_text(encoding="utf-8").replace("\\\n", " ")
    return [shlex.split(line)[1:] for line in text.splitlines() if line.strip().startswith("asrbench add-case ")]


def test_the_documented_add_case_examples_add_passing_cases_to_this_repository_s_cases(tmp_path):
    import shutil

    commands = _documented_add_case_commands()
    assert len(commands) == 3
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    for language in sorted({command[command.index("-l") + 1] for command in commands}):
        shutil.copytree(REPOSITORY / "cases" / language, tmp_path / "cases" / language)
    for command in commands:
        result = _asrbench(tmp_path, *command)
        assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}{result.stderr}"
        assert "added cases/" in result.stdout and "recorded its snapshot" in result.stdout


def test_add_case_in_an_unknown_language_names_the_case_file_from_the_project_root(project):
    import contextlib
    import io

    from pytest_asrbench.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["add-case", "-l", "xx", "--kind", "equal", "--text", "a", "--text", "b", "--no-run",
                     "--root", str(project)])
    assert code == 2
    assert err.getvalue().splitlines()[1].startswith("  cases/xx/equal.yaml:2: no normalizer config for language 'xx'")
    assert not (project / "cases/xx").exists()


@pytest.mark.parametrize("argv", [
    ["add-case", "-l", "en", "--kind", "equal", "--text", "a", "--text", "b", "--no-run"],
    ["export", "sclite", "cases", "-o", "out"],
    ["review", "--list"],
])
@pytest.mark.parametrize("root, problem", [("missing", "no such folder"), ("a-file.txt", "is not a folder")])
def test_a_root_that_is_not_a_folder_is_refused_and_nothing_is_created(tmp_path, capsys, argv, root, problem):
    from pytest_asrbench.cli import main

    (tmp_path / "a-file.txt").write_text("x")
    before = sorted(tmp_path.rglob("*"))
    assert main([*argv, "--root", str(tmp_path / root)]) == 2
    assert f"--root {tmp_path / root}: {problem}; give the project's folder" in capsys.readouterr().err
    assert sorted(tmp_path.rglob("*")) == before
