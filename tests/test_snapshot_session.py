"""The snapshot session's seams: it alone reads syrupy's options, kinds declare their snapshot
view and rules (no branch per kind elsewhere), and its report renders what the run did."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_asrbench.cases.kinds import KINDS, get_runner
from pytest_asrbench.cases.registry import SnapshotRules, snapshot_rules_of, snapshot_view_of
from pytest_asrbench.snapshot.report import SnapshotReport, UnusedAction
from pytest_asrbench.snapshot.session import SnapshotSession

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "pytest_asrbench"
SNAPSHOT_PACKAGE = PACKAGE_DIR / "snapshot"
KIND_MODULES = PACKAGE_DIR / "cases" / "kinds"

#: syrupy's options (``config.option`` names): only the snapshot session reads them.
SYRUPY_OPTIONS = ("update_snapshots", "update_new_snapshots_only", "no_cleanup", "disable_unused_snapshots",
                  "warn_unused_snapshots")
#: A comparison of a case kind with a kind name: ``case.kind == "asr"``, ``entry.get("kind") != ...``,
#: ``kind == "score"``.
KIND_BRANCH = re.compile(r"""(?:\.kind|\.get\(\s*["']kind["']\s*\)|\[\s*["']kind["']\s*\]|\bkind)\s*[!=]=\s*["']""")
#: Packages whose ``kind`` is a case kind (elsewhere ``kind`` names other things: a number's
#: kind in ja, a hyphen's in the compound step, a path's).
CASE_PACKAGES = ("cases", "snapshot", "reports", "review", "export", "intake", "plugin.py", "run_coverage.py",
                 "cli.py")
#: Modules that still compare a case kind with a name, each with what it decides; the test
#: below fails once one no longer does, so the entry is removed.
KIND_BRANCHES_LEFT: dict[str, str] = {}


def _python_files(*under: str) -> list[Path]:
    files = []
    for name in under:
        path = PACKAGE_DIR / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE_DIR).as_posix()


def test_only_the_snapshot_package_reads_syrupys_options():
    readers = []
    for path in _python_files("."):
        if SNAPSHOT_PACKAGE in path.parents:
            continue
        text = path.read_text(encoding="utf-8")
        readers += [f"{_relative(path)}: {option}" for option in SYRUPY_OPTIONS if option in text]
    assert not readers, f"ask pytest_asrbench.snapshot.session instead of reading syrupy's options: {readers}"


def _kind_branches() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in _python_files(*CASE_PACKAGES):
        if KIND_MODULES in path.parents:
            continue
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if KIND_BRANCH.search(line)]
        if lines:
            found[_relative(path)] = lines
    return found


def test_no_branch_per_case_kind_outside_the_kind_modules():
    branches = {path: lines for path, lines in _kind_branches().items() if path not in KIND_BRANCHES_LEFT}
    assert not branches, f"a kind declares this on its runner (cases/registry.py) instead: {branches}"


def test_kind_branches_left_are_still_real():
    stale = sorted(set(KIND_BRANCHES_LEFT) - set(_kind_branches()))
    assert not stale, f"no kind branch left in {stale}: remove the entry from KIND_BRANCHES_LEFT"


def test_the_case_items_dispatch_on_no_kind():
    text = (PACKAGE_DIR / "cases" / "items.py").read_text(encoding="utf-8")
    assert not KIND_BRANCH.search(text)
    assert '"signature"' not in text


def test_a_kind_records_its_output_without_versions_by_default():
    runner = get_runner("score")
    output = {"kind": "score", "version": "1.3.4", "config_version": "2.0.0", "rate": 0.5,
              "details": {"version": "kept below the top level"}}
    assert snapshot_view_of(runner, output) == {"kind": "score", "rate": 0.5,
                                                "details": {"version": "kept below the top level"}}
    assert snapshot_rules_of(runner) == SnapshotRules(explains_refusal=False, patch_rule=True, reviewable=True)


def test_the_signature_kind_records_its_versions_and_is_gated_by_its_own_rules():
    runner = get_runner("signature")
    output = {"kind": "signature", "metric": "stt_wer", "language": "en", "version": "1.3.4",
              "config_version": "2.0.0"}
    assert snapshot_view_of(runner, output) == output
    assert snapshot_rules_of(runner) == SnapshotRules(explains_refusal=True, patch_rule=False, reviewable=False,
                                                      records_signature=True)


def test_every_registered_kind_has_valid_snapshot_rules():
    for kind in KINDS:
        assert isinstance(snapshot_rules_of(get_runner(kind)), SnapshotRules)


def test_snapshot_rules_of_the_wrong_type_are_refused():
    runner = SimpleNamespace(kind="odd", snapshot_rules={"reviewable": False})
    with pytest.raises(TypeError, match="case kind 'odd': snapshot_rules must be a SnapshotRules, got dict"):
        snapshot_rules_of(runner)


def _session(**options) -> SnapshotSession:
    return SnapshotSession(SimpleNamespace(option=SimpleNamespace(**options)))


def test_the_session_mode_follows_the_options():
    plain = _session()
    assert (plain.updating, plain.pending, plain.adding_fingerprints) == (False, False, False)
    updating = _session(update_snapshots=True, asrbench_record_fingerprint=True)
    assert (updating.updating, updating.adding_fingerprints) == (True, True)


@pytest.mark.parametrize(("options", "message"), [
    ({"asrbench_record_fingerprint": True}, "--asrbench-record-fingerprint only acts while re-recording"),
    ({"asrbench": True, "asrbench_pending": True}, "--asrbench-pending keeps the changes of a re-recording"),
    ({"update_snapshots": True, "asrbench_pending": True}, "use it with --asrbench and --snapshot-update"),
])
def test_the_session_refuses_options_that_need_an_update(options, message):
    with pytest.raises(pytest.UsageError, match=message):
        _session(**options).check_options()


def test_the_report_lists_writes_then_deletions(tmp_path):
    report = SnapshotReport(
        writes=(("updated", str(tmp_path / "snapshots/en/a/x.json")), ("rewrote", str(tmp_path / "cases/en/s.yaml")),
                ("pending", str(tmp_path / "snapshots/en/a/y.json"))),
        unused_files=(tmp_path / "snapshots/en/a/old.json",), unused_action=UnusedAction.DELETED)
    assert report.lines(tmp_path) == [
        "1 snapshot file(s) and 1 case file(s) (re-recorded signatures) written:",
        "  updated snapshots/en/a/x.json",
        "  rewrote cases/en/s.yaml",
        "1 change(s) kept for review, recordings untouched (accept or reject them with `asrbench review`):",
        "  pending snapshots/en/a/y.json",
        "deleted 1 snapshot file(s) no case id names:",
        "  snapshots/en/a/old.json",
    ]
    assert not report.failed


def test_a_report_failed_by_unused_snapshots_says_so_last(tmp_path):
    report = SnapshotReport(orphan_folders=(tmp_path / "snapshots/en/gone",), unused_action=UnusedAction.FAILED,
                            signatures=("signature of (stt_wer, en) kept as recorded: a case would change",))
    lines = report.lines(tmp_path)
    assert report.failed
    assert lines[0] == "unused: 1 snapshot folder(s) whose case file is gone; re-run with --snapshot-update to " \
                       "delete them:"
    assert lines[-2] == "signature of (stt_wer, en) kept as recorded: a case would change"
    assert lines[-1].startswith("FAILED: 1 unused snapshot file(s)/folder(s): snapshots/en/gone ")


def test_an_incomplete_run_reports_why_nothing_was_checked(tmp_path):
    report = SnapshotReport(skipped="the run was interrupted")
    assert report.lines(tmp_path) == ["unused-snapshot check skipped, nothing deleted: the run was interrupted"]
    assert not report.failed


def test_a_kind_module_imported_again_replaces_its_runner_and_another_class_is_refused():
    from pytest_asrbench.cases import registry

    class Probe:
        kind = "probe-kind"

    Again = type("Probe", (), {"kind": "probe-kind", "__module__": Probe.__module__, "__qualname__": Probe.__qualname__})
    try:
        registry.register(Probe)
        registry.register(Again)  # the same module and class name: a re-import
        assert type(registry.RUNNERS["probe-kind"]) is Again

        class Other:
            kind = "probe-kind"

        with pytest.raises(RuntimeError, match="case kind 'probe-kind' registered twice: by .*Probe and .*Other"):
            registry.register(Other)
    finally:
        registry.RUNNERS.pop("probe-kind", None)


def test_add_case_offers_the_kinds_that_declare_an_intake_form():
    from pytest_asrbench.cases.registry import intake_form_of
    from pytest_asrbench.intake.add_case import KINDS as ADDABLE

    assert ADDABLE == ("equal", "distinct", "untouched", "normalize", "score")
    assert all(intake_form_of(get_runner(kind)) is None for kind in set(KINDS) - set(ADDABLE))


def test_an_intake_form_names_only_known_inputs():
    from pytest_asrbench.cases.registry import IntakeForm

    with pytest.raises(ValueError, match=r"unknown add-case inputs \['audio'\]"):
        IntakeForm(("audio", "reference"))


def test_a_kind_without_exported_pairs_exports_nothing():
    from pytest_asrbench.cases.registry import exported_pairs_of

    def never_read():
        raise AssertionError("a kind that exports nothing reads no snapshot")

    runner = get_runner("equal")
    assert exported_pairs_of(runner, SimpleNamespace(kind="equal"), never_read) == []
