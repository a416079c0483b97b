"""Refusals before a run, interruptions and output limits, found by a fresh-user test: each fix pinned.

Run-record paths and option combinations refused at configure time, YAML alias bombs refused
before expansion, SIGTERM reported as an interruption, rewritten case files listed, unused
snapshots named in the last asrbench line, capped failure output, clearer load messages,
upper-case case-file suffixes collected, transcribe checking files before the model loads.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pytest_asrbench.asr.errors import RunRecordError
from pytest_asrbench._shared.paths import output_path_problem
from pytest_asrbench.asr.run_record import write_record
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.display import describe_score, elide
from tests.signals import restore_default_sigint

CASES = """
language: en
cases:
  - id: pair
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {substitutions: 1}
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch):
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeini("[pytest]\n")
    (pytester.path / "cases/en").mkdir(parents=True)
    (pytester.path / "cases/en/a.yaml").write_text(textwrap.dedent(CASES), encoding="utf-8")
    return pytester


def _load(tmp_path: Path, text: str):
    path = tmp_path / "c.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_case_file(path)


# 1 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("given, expected", [
    ("{tmp}", "is a folder; give a file path such as"),
    ("{tmp}/missing/run.json", "does not exist; create it first (mkdir -p"),
    ("/proc/run.json", "cannot create a file in /proc"),
])
def test_a_bad_run_record_path_is_one_usage_error_before_the_run(project, tmp_path, given, expected):
    path = given.format(tmp=tmp_path)
    result = project.runpytest("--asrbench", "cases", "--asrbench-run-record", path)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--asrbench-run-record {path}: *{expected}*"])
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert not (tmp_path / "missing").exists()  # no folder created silently


def test_write_record_fails_with_one_clear_error(tmp_path):
    with pytest.raises(RunRecordError, match=r"cannot write the run record: .* is a folder"):
        write_record({}, tmp_path)
    assert output_path_problem(tmp_path / "run.json") is None
    assert write_record({"a": 1}, tmp_path / "run.json").read_text(encoding="utf-8") == '{\n  "a": 1\n}\n'


# 9 -------------------------------------------------------------------------------------------

def test_record_fingerprint_without_update_is_a_usage_error(project):
    result = project.runpytest("--asrbench", "cases", "--asrbench-record-fingerprint")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--asrbench-record-fingerprint only acts while re-recording: add --snapshot-update*"])


# 2 -------------------------------------------------------------------------------------------

BOMB = "language: en\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['x'] * 9)}]\n"
    for prev, name in zip([None, *"abcdefgh"], "abcdefghi")) + "cases: *i\n"


def test_a_yaml_alias_bomb_fails_fast_at_its_first_anchor(tmp_path):
    assert len(BOMB.encode()) < 500 and BOMB.count("&") == 9  # 9 ** 9 = 387M items if expanded
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    loaded = _load(tmp_path, BOMB)
    assert time.perf_counter() - start < 2
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # KiB: nothing expanded
    assert [str(e) for e in loaded.errors] == [
        f"{tmp_path / 'c.yaml'}:2: YAML anchors and aliases (&a) are not allowed in case files; "
        "write the value out in full where it is used"]


def test_an_ampersand_in_text_is_no_anchor(tmp_path):
    loaded = _load(tmp_path, """
        language: en
        cases:
          - {id: r-and-d, kind: equal, texts: ["R&D *now*", "r&d now"]}
    """)
    assert loaded.errors == [] and len(loaded.cases) == 1


# 3 -------------------------------------------------------------------------------------------

def test_sigterm_interrupts_the_run_and_says_why(tmp_path):
    root = tmp_path / "child"
    (root / "cases/en").mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    for index in range(20):
        (root / f"cases/en/f{index:02d}.yaml").write_text(textwrap.dedent(CASES), encoding="utf-8")
    (root / "conftest.py").write_text(
        "import time\nfrom pathlib import Path\n\ndef pytest_runtest_teardown(item):\n"
        "    Path('started').write_text(item.nodeid)\n    time.sleep(0.1)\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    child = subprocess.Popen([sys.executable, "-m", "pytest", "--asrbench", "cases", "-p", "no:cacheprovider", "-q"],
                             cwd=root, env=env, preexec_fn=restore_default_sigint,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while not (root / "started").exists() and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.02)
    child.send_signal(signal.SIGTERM)
    output, _ = child.communicate(timeout=60)
    assert child.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "KeyboardInterrupt" in output
    assert "unused-snapshot check skipped, nothing deleted: the run was interrupted" in output


def test_the_sigterm_handler_is_restored_after_the_session(project):
    before = signal.getsignal(signal.SIGTERM)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=1)
    assert signal.getsignal(signal.SIGTERM) is before


# 7, 8 ----------------------------------------------------------------------------------------

def test_an_unused_snapshot_failing_the_run_is_named_last(project):
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=1)
    stale = project.path / "snapshots/en/a/gone.json"
    stale.write_text("{}\n", encoding="utf-8")
    result = project.runpytest("--asrbench", "cases")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = result.stdout.lines
    last = max(i for i, line in enumerate(lines) if line.startswith("FAILED: 1 unused snapshot"))
    assert lines[last] == ("FAILED: 1 unused snapshot file(s)/folder(s): snapshots/en/a/gone.json (pytest --asrbench "
                           "<paths> --snapshot-update deletes them; --snapshot-warn-unused only warns)")
    assert "1 unused snapshot(s)" in lines[-1]  # and pytest's own final line counts it

    kept = project.runpytest("--asrbench", "cases", "--snapshot-update", "--snapshot-no-cleanup")
    assert kept.ret == pytest.ExitCode.OK
    kept.stdout.fnmatch_lines(["unused: 1 snapshot file(s) no case id names; kept because of --snapshot-no-cleanup*"])
    assert "re-run with --snapshot-update to delete them" not in kept.stdout.str()
    assert stale.exists()


# 10 ------------------------------------------------------------------------------------------

def test_a_failure_account_of_a_huge_pair_is_capped():
    words = ["alpha", "beta", "gamma", "delta"]
    reference = " ".join(words[i % 4] for i in range(20000))
    hypothesis = " ".join(words[(i * 7 // 3) % 4] for i in range(20000))
    text = describe_score(score(reference, hypothesis, "en"))
    assert len(text) < 20_000 and max(len(line) for line in text.splitlines()) < 1000
    assert "characters, " in text and "not shown] …" in text
    assert "more error region(s) not shown (the snapshot holds the whole alignment)" in text
    small = describe_score(score("the cat sat on the mat", "the bat sat on mat", "en"))
    assert "not shown" not in small and "REF: the CAT sat on THE mat" in small


def test_elide_keeps_both_ends_and_says_the_length():
    assert elide("x" * 10, 20) == "x" * 10
    assert elide("a" * 10 + "b" * 10, 10) == "aaaaa … [20 characters, 10 not shown] … bbbbb"


# 11 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case, expected", [
    ("{id: a, kind: equal, texts: [a, a], xfail: true}",
     "xfail takes the reason of the known limitation as text, not true/false"),
    ("{id: 'a b', kind: equal, texts: [a, a]}",
     "'a b' is not a valid id: use letters A-Z a-z, digits 0-9, '_', '.' and '-'"),
    ("{id: a, kind: score, reference: a, hypothesis: b, expect: {rat: 1}}",
     "expect.rat: the score has no such value; did you mean `rate`? expectable keys: deletions, errors, hits, "
     "insertions"),
])
def test_load_messages_say_what_to_do(tmp_path, case, expected):
    loaded = _load(tmp_path, f"language: en\ncases:\n  - {case}\n")
    assert len(loaded.errors) == 1 and expected in str(loaded.errors[0]), loaded.errors
    assert "version" not in str(loaded.errors[0]).split("expectable keys:")[-1]


def test_an_empty_case_list_says_a_file_needs_a_case(tmp_path):
    loaded = _load(tmp_path, "language: en\ncases: []\n")
    assert [e.message for e in loaded.errors] == [
        "field `cases`: the case list is empty: a case file needs at least one case under `cases:`"]


def test_check_version_names_a_missing_ref(capsys):
    from pytest_asrbench.cli import main

    assert main(["check-version", "--base", "nonexistent-ref-asrbench"]) == 2
    err = capsys.readouterr().err
    assert "revision 'nonexistent-ref-asrbench' does not exist in the git repository" in err
    assert "git fetch" in err and "rev-parse" not in err
    assert "then --base origin/main" in err


def test_signature_names_a_missing_rev_with_its_own_option(capsys):
    from pytest_asrbench.cli import main

    assert main(["signature", "--rev", "nonexistent-ref-asrbench"]) == 2
    err = capsys.readouterr().err
    assert "revision 'nonexistent-ref-asrbench' does not exist in the git repository" in err
    assert "then --rev origin/main" in err and "--base" not in err


def test_a_read_only_file_system_is_named(monkeypatch, tmp_path):
    import errno

    from pytest_asrbench._shared import atomic

    monkeypatch.setattr(atomic, "_read_only_file_system", lambda path: True)
    with pytest.raises(OSError) as caught:
        atomic.write_atomic(tmp_path / "x.json", b"{}")
    assert caught.value.errno == errno.EROFS


# 12 ------------------------------------------------------------------------------------------

def test_upper_case_suffixes_are_case_files(project):
    (project.path / "cases/en/a.yaml").rename(project.path / "cases/en/b.YAML")
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=1)
    assert (project.path / "snapshots/en/b/pair.json").is_file()
    project.runpytest("--asrbench", "cases").assert_outcomes(passed=1)  # no orphan folder either


# 14 ------------------------------------------------------------------------------------------

def test_transcribe_rejects_unreadable_files_before_loading_the_model(tmp_path, capsys, monkeypatch):
    from pytest_asrbench.asr import session
    from pytest_asrbench.cli import main

    def no_session(*args, **kwargs):
        raise AssertionError("the session (and model) must not be made for unreadable files")

    monkeypatch.setattr(session, "AsrSession", no_session)
    (tmp_path / "empty.wav").write_bytes(b"")
    assert main(["transcribe", "-l", "en", str(tmp_path / "empty.wav"), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "empty.wav: audio file is empty (0 bytes)" in err and f"{tmp_path}: is a directory" in err
    assert "none of the 2 audio file(s) can be read" in err
