"""Input paths of the wrong kind: a folder where a file is read, a file where a folder is read,
a path that does not exist. Each command names the path (and its option) and the kind it
expects, in one line, before any work; never a raw ``[Errno ...]``."""

from __future__ import annotations

import pytest

from pytest_asrbench._shared.input_paths import check_input_paths, input_path_problem
from pytest_asrbench.cli import main
from pytest_asrbench.errors import InputError


@pytest.fixture
def paths(tmp_path, monkeypatch):
    """A folder ``d`` and a file ``f.jsonl`` in ``tmp_path``, which is the current folder."""
    (tmp_path / "d").mkdir()
    (tmp_path / "f.jsonl").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_file_expected_and_a_folder_given_names_both_kinds(paths):
    assert input_path_problem("d", "file", "manifest", "--manifest") == \
        "--manifest d is a folder, where a file is expected: give the path of a manifest"


def test_a_folder_expected_and_a_file_given_names_both_kinds(paths):
    assert input_path_problem("f.jsonl", "folder", "audio folder", "--audio-root") == \
        "--audio-root f.jsonl is a file, where a folder is expected: give the path of an audio folder"


def test_a_missing_path_is_named_with_the_kind_expected_and_the_advice_given(paths):
    assert input_path_problem("nothere.yaml", "file", "case file") == \
        "nothere.yaml: no such file; give the path of a case file"
    assert input_path_problem("refs", "folder", "references folder", "--refs", "build it first") == \
        "--refs refs: no such folder; build it first"


def test_a_dangling_link_is_named_as_such(paths):
    (paths / "link").symlink_to(paths / "gone")
    assert "link: no such file (a link to a missing target)" in input_path_problem("link", "file", "manifest")


def test_paths_of_the_right_kind_pass_and_an_option_not_given_is_skipped(paths):
    assert input_path_problem("f.jsonl", "file", "manifest") is None
    assert input_path_problem("d", "folder", "audio folder") is None
    check_input_paths([("--manifest", "f.jsonl", "file", "manifest", None), ("--x", None, "file", "x", None)],
                      InputError)


def test_the_first_bad_input_is_raised_as_the_command_s_error(paths):
    with pytest.raises(InputError, match="^--audio-root f.jsonl is a file"):
        check_input_paths([("--manifest", "f.jsonl", "file", "manifest", None),
                           ("--audio-root", "f.jsonl", "folder", "audio folder", None),
                           ("--other", "d", "file", "other", None)], InputError)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="kind must be one of file, folder, not 'link'"):
        input_path_problem(".", "link", "x")


@pytest.mark.parametrize("argv, line", [
    (["bench", "score", "--refs", "f.jsonl", "--hyps", "d"],
     "--refs f.jsonl is a file, where a folder is expected: give the path of a references folder"),
    (["bench", "score", "--refs", "nothere", "--hyps", "d"],
     "--refs nothere: no such folder; build it with asrbench refs build --out nothere"),
    (["bench", "score", "--refs", "d", "--hyps", "f.jsonl"], "--hyps f.jsonl is a file, where a folder is expected"),
    (["bench", "score", "--refs", "d", "--hyps", "d", "--compare", "f.jsonl"],
     "--compare f.jsonl is a file, where a folder is expected"),
    (["bench", "run", "--manifest", "d", "--audio-root", "d", "--out", "run.json"],
     "--manifest d is a folder, where a file is expected: give the path of a manifest (JSONL)"),
    (["bench", "run", "--manifest", "nothere.jsonl", "--audio-root", "d", "--out", "run.json"],
     "--manifest nothere.jsonl: no such file; give the path of a manifest (JSONL)"),
    (["bench", "run", "--manifest", "f.jsonl", "--audio-root", "f.jsonl", "--out", "run.json"],
     "--audio-root f.jsonl is a file, where a folder is expected: give the path of an audio folder"),
    (["bench", "run", "--manifest", "f.jsonl", "--audio-root", "d", "--preregistration", "d", "--out", "run.json"],
     "--preregistration d is a folder, where a file is expected"),
    (["asr", "parity", "nothere.yaml"], "nothere.yaml: no such file; give the path of a case file (.yaml)"),
    (["asr", "parity", "d"], "d is a folder, where a file is expected: give the path of a case file (.yaml)"),
    (["asr", "parity", "--manifest", "d", "--audio-root", "d"], "--manifest d is a folder, where a file is expected"),
    (["asr", "parity", "--manifest", "f.jsonl", "--audio-root", "f.jsonl"],
     "--audio-root f.jsonl is a file, where a folder is expected"),
])
def test_each_command_names_an_input_path_of_the_wrong_kind_and_the_kind_it_expects(paths, argv, line, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    command = " ".join(["asrbench", *argv[:2]])
    assert err.startswith(f"{command}: error: {line}") and err.count("\n") == 1, err
    assert "Errno" not in err and not (paths / "run.json").exists()
