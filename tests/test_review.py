"""`--asrbench-pending` and `asrbench review`: changes kept beside the recordings, applied only
when accepted, never over a moved recording or past the version gate."""

from __future__ import annotations

import json
import re
import os
import pty
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pytest_asrbench.review.pending import PendingError, find, pending_path, read, stage

CASES = """\
# reviewers' cases: this comment stays
language: en
cases:
  - id: one
    kind: normalize
    text: "Twenty five apples"
    expect: "25 apples"
  - id: two
    kind: score
    reference: "the cat sat"
    hypothesis: "the cat sat"
    expect: {rate: 0.0}
  - id: three
    kind: normalize
    text: "hello"
    expect: "hello"
"""
# The second run: one and two give another output, three is gone (its snapshot unused).
CHANGED = CASES.replace("Twenty five apples", "twenty-five apples").replace(
    'hypothesis: "the cat sat"', 'hypothesis: "the cat sat."').split("  - id: three")[0]


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    return subprocess.run([sys.executable, "-m", "pytest", "--asrbench", "cases", "-p", "no:cacheprovider", "-q", *args],
                          cwd=root, capture_output=True, text=True, env=env, timeout=300)


def _asrbench(root: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_asrbench.cli", *args, "--root", str(root)],
                          capture_output=True, text=True, input=stdin, timeout=300)


def _snapshots(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "snapshots").rglob("*")) if p.is_file()}


@pytest.fixture
def pending_project(tmp_path: Path) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    cases = tmp_path / "cases" / "en" / "t.yaml"
    cases.parent.mkdir(parents=True)
    cases.write_text(CASES, encoding="utf-8")
    assert _pytest(tmp_path, "--snapshot-update").returncode == 0
    cases.write_text(CHANGED, encoding="utf-8")
    return tmp_path


def _run_pending(root: Path) -> subprocess.CompletedProcess:
    before = {k: v for k, v in _snapshots(root).items() if not k.endswith(".pending")}
    result = _pytest(root, "--snapshot-update", "--asrbench-pending")
    assert result.returncode == 0, result.stdout + result.stderr
    after = _snapshots(root)
    assert {k: v for k, v in after.items() if not k.endswith(".pending")} == before  # recordings untouched
    return result


def test_a_pending_run_keeps_every_change_beside_its_recording(pending_project):
    result = _run_pending(pending_project)
    assert "3 change(s) kept for review, recordings untouched" in result.stdout
    assert "pending deletion snapshots/en/t/three.json" in result.stdout
    pending = {change.snapshot.name: change for change in find(pending_project / "snapshots")}
    assert {name: change.action for name, change in pending.items()} == {
        "one.json": "update", "two.json": "update", "three.json": "delete"}
    assert json.loads(pending["one.json"].obtained)["text"] == "twenty-five apples"
    assert (pending_project / "snapshots/en/t/three.json").exists()  # not deleted: pending


def test_pending_needs_snapshot_update(pending_project):
    result = _pytest(pending_project, "--asrbench-pending")
    assert result.returncode == 4
    assert "use it with --asrbench and --snapshot-update" in result.stderr


def test_list_shows_old_and_new_values_and_changes_nothing(pending_project):
    _run_pending(pending_project)
    before = _snapshots(pending_project)
    listed = _asrbench(pending_project, "review", "--list")
    assert listed.returncode == 1  # something is pending
    assert 'text: "Twenty five apples" -> "twenty-five apples"' in listed.stdout
    assert 'pairs[0].hypothesis: "the cat sat" -> "the cat sat."' in listed.stdout
    assert "(cases/en/t.yaml::two)" in listed.stdout
    assert "REF: the cat sat" in listed.stdout  # the new alignment
    assert "3 change(s) pending" in listed.stdout
    assert _snapshots(pending_project) == before


def _drive(argv: list[str], keys: list[str], cwd: Path) -> str:
    """Run ``argv`` on a pseudo-terminal, pressing each key (no Enter) when the prompt appears."""
    controller, terminal = pty.openpty()
    child = subprocess.Popen([sys.executable, *argv], cwd=cwd, stdin=terminal, stdout=terminal, stderr=terminal,
                             start_new_session=True, close_fds=True)
    os.close(terminal)
    output, pressed = b"", 0
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(controller, 4096)
                except OSError:  # EIO: the child closed its side
                    break
                if not chunk:
                    break
                output += chunk
            elif child.poll() is not None:
                break
            if output.count(b"quit [q]? ") > pressed and pressed < len(keys):
                os.write(controller, keys[pressed].encode())
                pressed += 1
    finally:
        os.close(controller)
        try:  # the child closes the terminal just before it exits: give it time to finish
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
    assert child.wait(timeout=30) == 0, output.decode()
    return output.decode()


def test_review_in_a_terminal_accepting_one_and_rejecting_another_changes_exactly_one(pending_project):
    _run_pending(pending_project)
    before = _snapshots(pending_project)
    # Sorted order: one.json (accept), three.json (skip), two.json (reject).
    shown = _drive(["-m", "pytest_asrbench.cli", "review"], ["a", "s", "r"], pending_project)
    assert "[1/3] update snapshots/en/t/one.json" in shown
    assert "accepted 1, rejected 1, skipped 1" in shown
    after = _snapshots(pending_project)
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    assert changed == {"snapshots/en/t/one.json", "snapshots/en/t/one.json.pending", "snapshots/en/t/two.json.pending"}
    assert json.loads(after["snapshots/en/t/one.json"])["text"] == "twenty-five apples"
    assert "snapshots/en/t/three.json.pending" in after  # skipped: still pending
    assert _pytest(pending_project).returncode == 1  # two was rejected: its case now fails, as it should


def test_a_piped_review_reads_lines_and_end_of_input_quits(pending_project):
    _run_pending(pending_project)
    result = _asrbench(pending_project, "review", stdin="x\na\n")
    assert "unknown key 'x'" in result.stdout
    assert "accepted 1, rejected 0, skipped 2" in result.stdout
    assert len(find(pending_project / "snapshots")) == 2


def test_accept_all_then_a_plain_run_passes(pending_project):
    _run_pending(pending_project)
    result = _asrbench(pending_project, "review", "--accept-all")
    assert result.returncode == 0, result.stderr
    assert "accepted 3, rejected 0, skipped 0" in result.stdout
    assert not (pending_project / "snapshots/en/t/three.json").exists()
    assert find(pending_project / "snapshots") == []
    assert _pytest(pending_project).returncode == 0


def test_reject_all_leaves_every_recording(pending_project):
    _run_pending(pending_project)
    before = {k: v for k, v in _snapshots(pending_project).items() if not k.endswith(".pending")}
    assert _asrbench(pending_project, "review", "--reject-all").returncode == 0
    assert _snapshots(pending_project) == before


def test_a_change_over_a_moved_recording_is_refused(pending_project):
    _run_pending(pending_project)
    recording = pending_project / "snapshots/en/t/one.json"
    recording.write_text(recording.read_text() + " ", encoding="utf-8")  # someone re-recorded since
    result = _asrbench(pending_project, "review", "--accept-all")
    assert result.returncode == 1
    assert "asrbench review: refused: " in result.stderr and "the recording changed after the run" in result.stderr
    assert recording.read_text().endswith(" ")
    assert pending_path(recording).exists()


def test_the_version_gate_refuses_an_accept_once_the_metric_changed_unbumped(pending_project):
    # Record a signature for (stt_wer, en), then make it disagree with the code, as a
    # reverted version bump or an unbumped rule change would.
    root = pending_project
    signature = root / "cases/en/signature.yaml"
    listing = subprocess.run([sys.executable, "-m", "pytest_asrbench.cli", "signature", "-l", "en", "--case"],
                             capture_output=True, text=True, check=True).stdout
    signature.write_text("language: en\ncases:\n" + listing, encoding="utf-8")
    assert _pytest(root, "--snapshot-update", "--asrbench-pending").returncode == 0
    assert find(root / "snapshots/en/signature") == []  # signature re-recordings are never pending
    text = signature.read_text(encoding="utf-8")
    signature.write_text(re.sub(r'signature: "[0-9a-f]{16}"', 'signature: "' + "0" * 16 + '"', text), encoding="utf-8")
    result = _asrbench(root, "review", "--accept-all")
    assert result.returncode == 1
    assert "metric changed without a version bump" in result.stderr, result.stdout + result.stderr
    assert pending_path(root / "snapshots/en/t/one.json").exists(), result.stdout + result.stderr
    assert "accepted 1," in result.stdout  # only the deletion: no case gates it


def test_stage_equal_output_leaves_nothing_pending(tmp_path):
    snapshot = tmp_path / "a.json"
    snapshot.write_bytes(b"{}\n")
    assert stage(snapshot, b'{"x": 1}\n') is True
    assert stage(snapshot, b"{}\n") is False
    assert not pending_path(snapshot).exists()


@pytest.mark.parametrize("content, problem", [
    ("not json", "cannot read the pending change"),
    ('{"asrbench_pending": 2}', "not a pending change of format 1"),
    ('{"asrbench_pending": 1, "action": "move", "recorded_sha256": null, "obtained": "{}"}', "field 'action'"),
    ('{"asrbench_pending": 1, "action": "update", "recorded_sha256": null, "obtained": null}', "field 'obtained'"),
])
def test_a_broken_pending_file_is_refused_with_what_to_do(tmp_path, content, problem):
    path = tmp_path / "a.json.pending"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PendingError, match=problem) as caught:
        read(path)
    assert "run the update with --asrbench-pending again" in str(caught.value)


@pytest.mark.parametrize("obtained, problem", [('"{broken"', "not a snapshot's JSON text"), ('"[1, 2]"', "a JSON object")])
def test_a_pending_file_whose_snapshot_text_is_broken_is_refused(tmp_path, obtained, problem):
    path = tmp_path / "a.json.pending"
    path.write_text('{"asrbench_pending": 1, "action": "create", "recorded_sha256": null, "obtained": %s}' % obtained,
                    encoding="utf-8")
    with pytest.raises(PendingError, match=problem):
        read(path)


def test_a_corrupt_recording_is_named_not_a_traceback(pending_project):
    _run_pending(pending_project)
    (pending_project / "snapshots/en/t/one.json").write_text("{broken", encoding="utf-8")
    result = _asrbench(pending_project, "review", "--list")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "the recording is not a snapshot" in result.stderr


def test_every_broken_pending_file_is_listed_in_one_run(tmp_path):
    folder = tmp_path / "snapshots" / "en" / "t"
    folder.mkdir(parents=True)
    broken = {"a": "not json", "b": '{"asrbench_pending": 2}',
              "c": '{"asrbench_pending": 1, "action": "move", "recorded_sha256": null, "obtained": "{}"}'}
    for name, content in broken.items():
        (folder / f"{name}.json.pending").write_text(content, encoding="utf-8")
    stage(folder / "d.json", b'{"x": 1}\n')  # a good one among them
    with pytest.raises(PendingError) as caught:
        find(tmp_path / "snapshots")
    message = str(caught.value)
    assert message.startswith("3 pending file(s) cannot be used; delete them and run the update with "
                              "--asrbench-pending again")
    assert [line.split(": ")[0].strip() for line in message.splitlines()[1:]] == [
        str(folder / f"{name}.json.pending") for name in "abc"]
    result = _asrbench(tmp_path, "review", "--list")
    assert result.returncode == 2 and all(f"{name}.json.pending: " in result.stderr for name in "abc")


def test_every_corrupt_recording_is_listed_after_the_changes_that_can_be_shown(pending_project):
    _run_pending(pending_project)
    (pending_project / "snapshots/en/t/one.json").write_text("{broken", encoding="utf-8")
    (pending_project / "snapshots/en/t/two.json").write_text("[1]", encoding="utf-8")
    result = _asrbench(pending_project, "review", "--list")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "snapshots/en/t/three.json" in result.stdout and "3 change(s) pending" in result.stdout
    assert result.stderr.count("the recording is not a snapshot") == 2
    reviewed = _asrbench(pending_project, "review", "--reject-all")
    assert reviewed.returncode == 1 and "accepted 0, rejected 1, skipped 0, refused 2" in reviewed.stdout


def test_a_plain_run_says_how_many_changes_wait_for_review(pending_project):
    _run_pending(pending_project)
    result = _pytest(pending_project)
    assert "3 change(s) kept by an earlier --asrbench-pending run wait for review (`asrbench review --list` " \
           "shows them; `asrbench review` accepts or rejects them)" in result.stdout
    _asrbench(pending_project, "review", "--reject-all")
    assert "wait for review" not in _pytest(pending_project).stdout


@pytest.fixture
def checks_project(tmp_path: Path) -> Path:
    """A project whose case folder is ``checks`` (the asrbench_case_dirs ini option) and whose
    own en config spells 'cat' as 'kat', with a signature case and one change pending."""
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_case_dirs = checks\nasrbench_config_dirs = mine\n")
    (tmp_path / "mine/en").mkdir(parents=True)
    (tmp_path / "mine/en.toml").write_text('extends = "en"\nversion = "1.0.0"\n[lexicons]\nspelling = "en/spelling.tsv"\n')
    (tmp_path / "mine/en/spelling.tsv").write_text("cat\tkat\n", encoding="utf-8")
    cases = tmp_path / "checks/en/t.yaml"
    cases.parent.mkdir(parents=True)
    cases.write_text(CASES, encoding="utf-8")
    listing = subprocess.run([sys.executable, "-m", "pytest_asrbench.cli", "signature", "-l", "en", "--case"],
                             cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    (tmp_path / "checks/en/signature.yaml").write_text("language: en\ncases:\n" + listing, encoding="utf-8")
    run = [sys.executable, "-m", "pytest", "--asrbench", "checks", "-p", "no:cacheprovider", "-q", "--snapshot-update"]
    assert subprocess.run(run, cwd=tmp_path, capture_output=True, text=True).returncode == 0
    cases.write_text(CHANGED, encoding="utf-8")
    assert subprocess.run([*run, "--asrbench-pending"], cwd=tmp_path, capture_output=True, text=True).returncode == 0
    return tmp_path


def test_review_finds_the_cases_and_configs_the_project_s_ini_file_names(checks_project):
    listed = _asrbench(checks_project, "review", "--list")
    assert "(checks/en/t.yaml::two)" in listed.stdout, listed.stdout + listed.stderr
    assert "no case names it" not in listed.stdout.split("delete")[0]
    assert "REF: the kat sat" in listed.stdout  # rescored with the project's config, as the run scored it


def test_review_holds_the_version_gate_of_the_case_folder_the_ini_file_names(checks_project):
    signature = checks_project / "checks/en/signature.yaml"
    text = signature.read_text(encoding="utf-8")
    signature.write_text(re.sub(r'signature: "[0-9a-f]{16}"', 'signature: "' + "0" * 16 + '"', text), encoding="utf-8")
    result = _asrbench(checks_project, "review", "--accept-all")
    assert result.returncode == 1
    assert "metric changed without a version bump" in result.stderr, result.stdout + result.stderr
    assert pending_path(checks_project / "snapshots/en/t/one.json").exists()


def test_review_with_no_change_names_the_project_s_case_folder(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_case_dirs = checks\n")
    result = _asrbench(tmp_path, "review")
    assert result.returncode == 0
    assert "`pytest --asrbench checks --snapshot-update --asrbench-pending`" in result.stdout
