"""Output paths of ``asrbench bench score`` and ``asrbench refs build``: checked before any work
(one line, exit 2, no folder created), and a write that fails at the end is one line too."""

import errno
from pathlib import Path

import pytest

from pytest_asrbench import cli
from pytest_asrbench.bench import outputs
from pytest_asrbench.bench.references import hub as hub_module

BENCH = Path(__file__).resolve().parents[2] / "cases" / "th" / "benchmark"
SCORE = ["bench", "score", "--refs", str(BENCH / "refs"), "--hyps", str(BENCH / "hyps_a"), "--resamples", "10"]


@pytest.fixture
def no_scoring(monkeypatch):
    """Fail the test if scoring starts: the path check must come first."""
    from pytest_asrbench.bench.scoring import corpus

    def refuse(*args, **kwargs):
        raise AssertionError("scoring started before the output paths were checked")
    monkeypatch.setattr(corpus, "score_benchmark", refuse)


@pytest.mark.parametrize(("option", "given", "expected"), [
    ("--json", "{tmp}", "{tmp} is a folder; give a file path such as {tmp}/scores.json"),
    ("--markdown", "{tmp}", "{tmp} is a folder; give a file path such as {tmp}/scores.md"),
    ("--json", "{tmp}/missing/x.json",
     "the folder {tmp}/missing does not exist; create it first (mkdir -p {tmp}/missing) or give another path"),
    ("--markdown", "/proc/x.md", "cannot create a file in /proc:"),
])
def test_a_bad_score_output_is_one_line_before_any_work(tmp_path, capsys, no_scoring, option, given, expected):
    path = given.format(tmp=tmp_path)
    assert cli.main([*SCORE, option, path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"asrbench bench score: error: {option} {path}: {expected.format(tmp=tmp_path)}")
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert not (tmp_path / "missing").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no probe or temporary file left


def test_json_and_markdown_on_one_file_are_refused(tmp_path, capsys, no_scoring):
    same = str(tmp_path / "scores.json")
    assert cli.main([*SCORE, "--json", same, "--markdown", same]) == 2
    assert capsys.readouterr().err == f"asrbench bench score: error: --markdown {same}: --json names the same file; " \
                                      "give each output its own path\n"


def test_a_write_that_fails_at_the_end_is_one_line(tmp_path, capsys, monkeypatch):
    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(outputs, "write_atomic", full)
    target = tmp_path / "scores.json"
    assert cli.main([*SCORE, "--json", str(target)]) == 2
    captured = capsys.readouterr()
    assert "overall" in captured.out  # the table was printed
    assert captured.err.splitlines()[-1] == f"asrbench bench score: error: --json {target}: cannot write it: No space left on device"
    assert "Traceback" not in captured.err and not target.exists()


def test_good_score_outputs_are_written(tmp_path, capsys):
    assert cli.main([*SCORE, "--json", str(tmp_path / "s.json"), "--markdown", str(tmp_path / "s.md")]) == 0
    assert (tmp_path / "s.json").read_text(encoding="utf-8").startswith("{")
    assert "th_bench_cer" in (tmp_path / "s.md").read_text(encoding="utf-8")


@pytest.fixture
def no_hub(monkeypatch):
    def refuse():
        raise AssertionError("the hub was opened before --out was checked")
    monkeypatch.setattr(hub_module, "HubSource", refuse)


@pytest.mark.parametrize(("given", "expected"), [
    ("{tmp}/file", "{tmp}/file is not a folder; give a folder path (the output files are written inside it)"),
    ("{tmp}/missing/refs",
     "the folder {tmp}/missing does not exist; create it first (mkdir -p {tmp}/missing) or give another path"),
    ("/proc/refs", "cannot create a file in /proc:"),
])
def test_a_bad_refs_out_is_one_line_before_any_download(tmp_path, capsys, no_hub, given, expected):
    (tmp_path / "file").write_text("keep", encoding="utf-8")
    path = given.format(tmp=tmp_path)
    assert cli.main(["refs", "build", "--out", path, "--sets", "fleurs"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"asrbench refs build: error: --out {path}: {expected.format(tmp=tmp_path)}")
    assert captured.err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    assert (tmp_path / "file").read_text(encoding="utf-8") == "keep"


def test_refs_out_is_created_inside_an_existing_folder_only(hub, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(hub_module, "HubSource", lambda: hub.source())
    out = tmp_path / "refs"
    assert cli.main(["refs", "build", "--out", str(out), "--sets", "tv_long"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["tv_long.jsonl", "tv_long.meta.json"]


def test_a_refs_write_that_fails_fails_that_set_in_one_line(hub, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(hub_module, "HubSource", lambda: hub.source())

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(outputs, "write_atomic", full)
    assert cli.main(["refs", "build", "--out", str(tmp_path), "--sets", "tv_long"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (f"asrbench refs build: error: tv_long: --out {tmp_path / 'tv_long.jsonl'}: "
                            "cannot write it: No space left on device\n")
    assert "[1/1] tv_long: FAILED (OutputPathError)" in captured.out
