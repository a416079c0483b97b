"""Snapshot safety: a run that did not see everything deletes nothing; writes are atomic, exact
and listed; case snapshots hold no versions; a read-only snapshot folder says so."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench.run_coverage import RunCoverage
from pytest_asrbench.snapshot import snapshot_file_name
from tests.signals import restore_default_sigint

CASES = """
language: en
cases:
  - id: spaces
    kind: equal
    texts: ["hello world", "Hello,  World!"]
  - id: pair
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {substitutions: 1}
  - id: names
    kind: untouched
    texts: ["Dellwood met Ramirez"]
"""

# A snapshot no case names: a complete --snapshot-update deletes it, nothing else may.
STALE = "snapshots/en/a/gone-case.json"


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch):
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeini("[pytest]\n")
    write(pytester.path, "cases/en/a.yaml", CASES)
    pytester.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    write(pytester.path, STALE, '{"kind": "equal"}\n')
    return pytester


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "snapshots").rglob("*")) if p.is_file()}


@pytest.mark.parametrize("selection, reason", [
    (["-k", "spaces"], "2 of 3 case(s) of the collected case files did not run"),
    (["--deselect", "cases/en/a.yaml::pair"], "1 of 3 case(s) of the collected case files did not run"),
    (["cases/en/a.yaml::names"], "2 of 3 case(s) of the collected case files did not run"),
])
def test_a_selection_deletes_nothing_and_says_why(project, selection, reason):
    before = files(project.path)
    args = ["--asrbench", *selection, "--snapshot-update"]
    result = project.runpytest(*(args if "::" in selection[0] else [args[0], "cases", *args[1:]]))
    assert files(project.path) == before
    result.stdout.fnmatch_lines([f"*unused-snapshot check skipped, nothing deleted: {reason}*"])
    assert "not recommended" not in result.stdout.str()


def test_a_complete_update_deletes_exactly_the_unused_snapshot(project):
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.stdout.fnmatch_lines(["*deleted 1 snapshot file(s) no case id names:*", f"*{STALE}"])
    assert sorted(files(project.path)) == ["snapshots/en/a/names.json", "snapshots/en/a/pair.json",
                                           "snapshots/en/a/spaces.json"]


def test_a_stop_after_a_failure_deletes_nothing(project):
    path = project.path / "cases/en/a.yaml"
    path.write_text(path.read_text().replace("{substitutions: 1}", "{substitutions: 5}")
                    .replace("- id: spaces", "- id: zzz\n    kind: normalize\n    text: a\n    expect: b\n  - id: spaces"),
                    encoding="utf-8")
    before = files(project.path)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update", "-x")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    after = files(project.path)
    assert STALE in after and {k: v for k, v in after.items() if k in before} == before
    result.stdout.fnmatch_lines(["*unused-snapshot check skipped, nothing deleted: the run was interrupted "
                                 "(stopping after 1 failures)*"])


@pytest.mark.parametrize("extra, reason", [
    ([], "the run was interrupted"),
    (["--continue-on-collection-errors"], "1 collection error(s), first in test_broken.py"),
])
def test_a_collection_error_deletes_nothing(project, extra, reason):
    project.makepyfile(test_broken="def broken(:\n")
    before = files(project.path)
    result = project.runpytest("--asrbench", "cases", "test_broken.py", "--snapshot-update", *extra)
    assert files(project.path) == before
    result.stdout.fnmatch_lines([f"*unused-snapshot check skipped, nothing deleted: {reason}*"])


def test_a_broken_case_file_deletes_nothing(project):
    write(project.path, "cases/en/b.yaml", "language: en\ncases:\n  - id: x\n    kind: nope\n")
    before = files(project.path)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    assert files(project.path) == before
    result.stdout.fnmatch_lines(["*unused-snapshot check skipped, nothing deleted: case file cases/en/b.yaml "
                                 "cannot be loaded*"])


def test_under_xdist_the_controller_decides(project):
    kept = project.runpytest("--asrbench", "cases", "-n", "2", "-k", "not pair", "--snapshot-update")
    assert STALE in files(project.path)
    kept.stdout.fnmatch_lines(["*unused-snapshot check skipped, nothing deleted: 1 of 3 case(s)*"])
    done = project.runpytest("--asrbench", "cases", "-n", "2", "--snapshot-update")
    assert STALE not in files(project.path)
    done.stdout.fnmatch_lines(["*deleted 1 snapshot file(s)*", f"*{STALE}"])


IDS = ["time-ten-thirty-pm", "time-seven-pm", "time_seven", "v1.2", "v1.2.3", "1st", "10", "a-b_c.d-2"]


def _id_cases(ids: list[str]) -> str:
    return "language: en\ncases:\n" + "".join(
        f"  - id: \"{case_id}\"\n    kind: normalize\n    text: x\n    expect: x\n" for case_id in ids)


@pytest.mark.parametrize("removed", IDS)
def test_a_deleted_case_is_found_by_its_exact_id(project, removed):
    # Regression: syrupy matched names by their leading identifier ("time"), so deleting
    # time-ten-thirty-pm left its snapshot behind, protected by time-seven-pm.
    path = write(project.path, "cases/en/ids.yaml", _id_cases(IDS))
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3 + len(IDS))
    path.write_text(_id_cases([i for i in IDS if i != removed]), encoding="utf-8")
    plain = project.runpytest("--asrbench", "cases/en/ids.yaml")
    assert plain.ret == pytest.ExitCode.TESTS_FAILED
    plain.stdout.fnmatch_lines(["*unused: 1 snapshot file(s) no case id names*", f"*snapshots/en/ids/{removed}.json"])
    project.runpytest("--asrbench", "cases/en/ids.yaml", "--snapshot-update")
    assert sorted(p.name for p in (project.path / "snapshots/en/ids").iterdir()) == sorted(
        f"{i}.json" for i in IDS if i != removed)


def test_exact_ids_include_unicode_and_follow_syrupys_file_names(tmp_path):
    folder = tmp_path / "snapshots/hi/a"
    folder.mkdir(parents=True)
    ids = ["दो-बजे", "दो-बजे-तीस", "café_1", "a:b"]
    for name in [*ids[:3], "ab", "दो"]:
        (folder / f"{name}.json").write_text("{}", encoding="utf-8")
    coverage = RunCoverage()
    coverage.add_file(tmp_path / "cases/hi/a.yaml", folder, ids, [])
    assert snapshot_file_name("a:b") == "ab.json"  # syrupy drops ':' from file names
    assert [p.name for p in coverage.unused_snapshots()] == ["दो.json"]


def test_update_writes_only_what_changed_and_lists_it(project):
    path = project.path / "cases/en/a.yaml"
    (project.path / STALE).unlink()
    old = time.time() - 3600
    for snapshot in (project.path / "snapshots").rglob("*.json"):
        os.utime(snapshot, (old, old))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (project.path / "snapshots").rglob("*.json")}
    path.write_text(path.read_text().replace("the bat sat on mat", "the bat sat on a mat"), encoding="utf-8")
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.stdout.fnmatch_lines(["*1 snapshot file(s) written:*", "*updated snapshots/en/a/pair.json"])
    changed = [p.name for p, state in before.items() if (p.read_bytes(), p.stat().st_mtime_ns) != state]
    assert changed == ["pair.json"]
    again = project.runpytest("--asrbench", "cases", "--snapshot-update")
    assert "written" not in again.stdout.str()
    assert all((p.read_bytes(), p.stat().st_mtime_ns) == state for p, state in before.items() if p.name != "pair.json")


def test_case_snapshots_hold_no_versions_but_signature_cases_do(project):
    from pytest_asrbench.signatures.compute import compute
    from pytest_asrbench.signatures.version_gate import case_yaml

    write(project.path, "cases/en/signature.yaml", "language: en\ncases:\n" + case_yaml(compute("stt_wer", "en")))
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=4)
    for name in ("spaces", "pair", "names"):
        recorded = json.loads((project.path / f"snapshots/en/a/{name}.json").read_text(encoding="utf-8"))
        assert "version" not in recorded and "config_version" not in recorded
        assert recorded["kind"]
    signature = json.loads((project.path / "snapshots/en/signature/stt_wer-signature.json").read_text(encoding="utf-8"))
    assert set(signature) >= {"version", "config_version"}


@pytest.mark.parametrize("target", ["snapshots/en/a", "snapshots/en/a/pair.json"])
def test_a_read_only_snapshot_names_the_permission_error(project, target):
    path = project.path / "cases/en/a.yaml"
    path.write_text(path.read_text().replace("the bat sat on mat", "the bat sat on a mat"), encoding="utf-8")
    protected = project.path / target
    protected.chmod(0o555 if protected.is_dir() else 0o444)
    try:
        result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    finally:
        protected.chmod(0o755 if protected.is_dir() else 0o644)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([f"*cannot write snapshot *snapshots/en/a/pair.json: Permission denied "
                                 f"(*{target})*make the snapshot folder and its files writable*"])
    assert "record it with" not in result.stdout.str()


def test_write_atomic_honours_the_umask_and_an_existing_mode(tmp_path):
    previous = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new/a.json", b"{}")
    finally:
        os.umask(previous)
    assert (tmp_path / "new/a.json").stat().st_mode & 0o777 == 0o640
    existing = tmp_path / "b.json"
    existing.write_bytes(b"old")
    existing.chmod(0o664)
    write_atomic(existing, b"new")
    assert existing.read_bytes() == b"new" and existing.stat().st_mode & 0o777 == 0o664
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json", "new"]  # no temporary file left


# The child project for the signal test: many case files, and a conftest that sleeps after
# each case and says when the update is under way.
SLOW_CONFTEST = """
import os, time
from pathlib import Path

def pytest_runtest_teardown(item):
    Path("started").write_text(item.nodeid)
    time.sleep(0.05)
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_update_deletes_and_truncates_nothing(tmp_path, signum):
    root = tmp_path / "child"
    (root / "cases/en").mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    for index in range(30):
        write(root, f"cases/en/f{index:02d}.yaml", CASES)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    command = [sys.executable, "-m", "pytest", "--asrbench", "cases", "-p", "no:cacheprovider", "-q"]
    subprocess.run([*command, "--snapshot-update"], cwd=root, env=env, check=True, capture_output=True)
    # Every recorded output is made stale, so the update rewrites each file it reaches.
    for snapshot in (root / "snapshots").rglob("*.json"):
        snapshot.write_text(snapshot.read_text(encoding="utf-8").replace('"kind"', '"stale": true, "kind"'),
                            encoding="utf-8")
    write(root, "snapshots/en/f29/gone-case.json", '{"kind": "equal"}\n')
    before = set(files(root))
    (root / "conftest.py").write_text(SLOW_CONFTEST, encoding="utf-8")
    child = subprocess.Popen([*command, "--snapshot-update"], cwd=root, env=env, preexec_fn=restore_default_sigint,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while not (root / "started").exists() and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.02)
    time.sleep(0.3)  # well into the run: some files rewritten, most not reached
    child.send_signal(signum)
    output, _ = child.communicate(timeout=60)
    after = files(root)
    assert set(after) == before, output
    for name, data in after.items():
        json.loads(data)  # every file whole
    rewritten = [name for name, data in after.items() if b'"stale"' not in data]
    assert rewritten and len(rewritten) < len(after) - 1, output  # the signal came mid-update
    if signum == signal.SIGINT:
        assert "unused-snapshot check skipped, nothing deleted: the run was interrupted" in output
