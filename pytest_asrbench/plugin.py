"""pytest hooks only: options, collection of YAML case files, report header and summary.

Everything else is imported from the stage modules; without ``--asrbench`` no YAML file is
collected and ordinary pytest runs are untouched.
"""

from __future__ import annotations

import re
import signal
import threading
from pathlib import Path

import pytest

from pytest_asrbench.snapshot_layout import is_case_suffix

# The ASR stage's own options and run-record hooks, and the reports' options and summary
# (both import nothing heavy).
pytest_plugins = ["pytest_asrbench.asr.pytest_hooks", "pytest_asrbench.reports.pytest_hooks"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("asrbench", "speech-recognition evaluation cases (pytest-asrbench)")
    group.addoption(
        "--asrbench",
        action="store_true",
        default=False,
        help="collect YAML case files (*.yaml under a folder named by asrbench_case_dirs, or given by path)",
    )
    group.addoption(
        "--asrbench-pending",
        action="store_true",
        default=False,
        help="with --snapshot-update: keep each changed case snapshot beside its recording "
             "(<case>.json.pending) for `asrbench review` instead of writing over it",
    )
    parser.addini("asrbench_snapshot_dir", "folder (relative to rootdir) of recorded case outputs", default="snapshots")
    parser.addini(
        "asrbench_case_dirs",
        "names of folders whose YAML files are case files",
        type="args",
        default=["cases"],
    )
    parser.addini(
        "asrbench_config_dirs",
        "the project's own language-config folders (relative to rootdir), searched in order before the "
        "package's configs; a config there may `extends = \"en\"` a shipped one (configs/README.md)",
        type="args",
        default=[],
    )


def _given_paths(config: pytest.Config) -> list[Path]:
    return [Path(config.invocation_params.dir, arg.split("::")[0]).resolve() for arg in config.args]


#: A case file's top-level ``cases:`` key, at the start of a line (a YAML file of another
#: tool, ``.pre-commit-config.yaml`` or a CI workflow, has none).
_CASES_KEY = re.compile(rb"(?m)^cases[ \t]*:")
_NOT_CASE_FILES = pytest.StashKey[list]()
_CASE_FILES = pytest.StashKey[list]()


def _holds_cases(path: Path) -> bool:
    """Whether ``path`` has a top-level ``cases:`` key (read as bytes: an undecodable case file
    is still collected, and its loader reports the problem)."""
    try:
        return _CASES_KEY.search(path.read_bytes()) is not None
    except OSError:
        return True  # collected, so the loader names the reason it cannot be read


def _is_case_file(file_path: Path, config: pytest.Config) -> bool:
    """A YAML file under a folder named in ``asrbench_case_dirs``, a YAML file given on the
    command line, or a YAML file with a top-level ``cases:`` key under a folder given on the
    command line (``pytest --asrbench .`` included). Other YAML files under a given folder
    (``.pre-commit-config.yaml``) are listed once after collection, never silently dropped."""
    if not is_case_suffix(file_path):
        return False
    if set(config.getini("asrbench_case_dirs")).intersection(file_path.parts[:-1]):
        return True
    resolved = file_path.resolve()
    given = _given_paths(config)
    if resolved in given:
        return True
    if not any(folder in resolved.parents for folder in given):
        return False
    if _holds_cases(resolved):
        return True
    config.stash.setdefault(_NOT_CASE_FILES, []).append(resolved)
    return False


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if not config.getoption("asrbench") or not _is_case_file(file_path, config):
        return None
    from pytest_asrbench.cases.items import CaseFileNode

    config.stash.setdefault(_CASE_FILES, []).append(file_path)
    return CaseFileNode.from_parent(parent, path=file_path)


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    """Tell the ASR stage how many ``asr`` cases will run (for its progress bar)."""
    if not config.getoption("asrbench"):
        return
    from pytest_asrbench.cases.items import case_of

    count = sum(1 for item in items if getattr(case_of(item), "kind", None) == "asr")
    if count:
        from pytest_asrbench.cases.asr_session import get_session

        get_session(config).expected_clips = count


def pytest_report_collectionfinish(config: pytest.Config, items) -> str | list[str] | None:
    """Without ``--asrbench``, a hint when the command line names case files or folders. With
    it, the YAML files under the given folders that were not collected (no ``cases:`` key), and
    a run that found no case file: which folders it searched and which option names case
    folders."""
    if config.getoption("asrbench"):
        return _collection_notes(config)
    folders = set(config.getini("asrbench_case_dirs"))
    for path in _given_paths(config):
        if is_case_suffix(path) or folders.intersection(path.parts) or any(
            (path / name).is_dir() for name in folders
        ):
            return "asrbench: YAML case files are collected only with --asrbench (pytest --asrbench <paths>)"
    return None


def _collection_notes(config: pytest.Config) -> list[str] | None:
    lines = []
    skipped = sorted(set(config.stash.get(_NOT_CASE_FILES, [])))
    if skipped:
        shown = ", ".join(_shown(path, config.rootpath) for path in skipped[:5]) + (", ..." if len(skipped) > 5 else "")
        lines.append(f"asrbench: {len(skipped)} YAML file(s) without a top-level `cases:` key not collected as case "
                     f"files: {shown}")
    if not config.stash.get(_CASE_FILES, []) and not hasattr(config, "workerinput") and \
            not config.pluginmanager.hasplugin("dsession"):
        searched = ", ".join(_shown(path, config.rootpath) or "." for path in _given_paths(config)) or "."
        names = ", ".join(config.getini("asrbench_case_dirs")) or "none"
        lines.append(f"asrbench: no case file found (searched: {searched}); a case file is a .yaml/.yml file with a "
                     f"top-level `cases:` list, given by path, under a given folder, or under a folder named by the "
                     f"asrbench_case_dirs ini option (now: {names}): name your case folder there or on the command "
                     f"line (pytest --asrbench <folder>)")
    return lines or None


def _orphans(config: pytest.Config) -> list[Path]:
    from pytest_asrbench.snapshot_layout import orphan_snapshot_dirs

    folders = [path for path in _given_paths(config) if path.is_dir()]
    return orphan_snapshot_dirs(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots", folders,
                                config.getini("asrbench_case_dirs"))


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    if session.config.getoption("asrbench"):
        from pytest_asrbench.snapshot import take_writes

        take_writes()  # forget writes of an earlier session in this process (pytester)


class _CoverageWatcher:
    """Registered for ``--asrbench`` runs: notes collection errors and the cases that ran to
    their end (teardown reported; under xdist the controller receives every report)."""

    def __init__(self, config: pytest.Config):
        from pytest_asrbench.run_coverage import coverage_of

        self.coverage = coverage_of(config)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.coverage.collection_errors.append(report.nodeid or "<session>")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            self.coverage.finished.add(report.nodeid)


_PREVIOUS_SIGTERM = pytest.StashKey[object]()


def _sigterm_as_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt("SIGTERM")


def _take_sigterm(config: pytest.Config) -> None:
    """Under ``--asrbench``, SIGTERM interrupts the run as Ctrl-C does (pytest's summary, and
    "unused-snapshot check skipped, nothing deleted: the run was interrupted"), instead of
    ending the process without a word. Main process and xdist workers; only the main thread
    may set a handler. The previous handler comes back in :func:`pytest_unconfigure`."""
    if threading.current_thread() is not threading.main_thread():
        return
    config.stash[_PREVIOUS_SIGTERM] = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.getoption("asrbench_pending", False):
        from pytest_asrbench import snapshot as adapter

        adapter.set_pending_mode(False)  # an in-process run (pytester) leaves no mode behind
    previous = config.stash.get(_PREVIOUS_SIGTERM, None)
    if previous is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, previous)
        del config.stash[_PREVIOUS_SIGTERM]


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("asrbench"):
        config.pluginmanager.register(_CoverageWatcher(config), "asrbench-coverage")
        _take_sigterm(config)
    _pending_mode(config)
    _use_project_config_dirs(config)


def _pending_mode(config: pytest.Config) -> None:
    """``--asrbench-pending``: refused without ``--asrbench`` and ``--snapshot-update``."""
    if not config.getoption("asrbench_pending"):
        return
    from pytest_asrbench import snapshot as adapter

    if not config.getoption("asrbench") or not adapter.update_mode(config):
        raise pytest.UsageError("--asrbench-pending keeps the changes of a re-recording for review: use it with "
                                "--asrbench and --snapshot-update (pytest --asrbench cases --snapshot-update "
                                "--asrbench-pending), then run `asrbench review`")
    adapter.set_pending_mode(True)


def _use_project_config_dirs(config: pytest.Config) -> None:
    """The project's own config folders, searched before the package's: the
    ``asrbench_config_dirs`` ini option (relative to rootdir) first, then ASRBENCH_CONFIG_DIRS."""
    from pytest_asrbench._shared.config_layers import ENV_VAR, env_config_dirs, project_config_dirs
    from pytest_asrbench.errors import ConfigError

    ini = [config.rootpath / folder for folder in config.getini("asrbench_config_dirs")]
    env = env_config_dirs()
    if not ini and not env:
        return
    try:
        folders = project_config_dirs(("the asrbench_config_dirs ini option", ini), (f"the {ENV_VAR} variable", env))
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from None
    from pytest_asrbench.normalize.registry import use_config_dirs

    use_config_dirs(folders)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodeready(node) -> None:
    """xdist controller: one more worker whose coverage report is awaited."""
    if node.config.getoption("asrbench"):
        from pytest_asrbench.run_coverage import coverage_of

        coverage_of(node.config).workers += 1


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """xdist controller: merge what a worker collected and wrote, and the signature rewrites
    it held back (patch-only bumps) with the cases the patch rule refused."""
    output = getattr(node, "workeroutput", {})
    payload = output.get("asrbench_coverage")
    if payload is not None:
        from pytest_asrbench.run_coverage import coverage_of

        coverage_of(node.config).merge(payload)
    if output.get("asrbench_deferrals") is not None:
        from pytest_asrbench.cases.signature_gate import deferrals

        deferrals(node.config).merge(output["asrbench_deferrals"])


SUMMARY = pytest.StashKey[dict]()


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus):
    """Decide, before syrupy finishes, whether this run may call snapshots unused.

    A run that did not see every case (:mod:`pytest_asrbench.run_coverage`) reports and
    deletes nothing: syrupy's unused handling is turned off for it, and so are the case
    snapshots' own checks below. A complete run reports snapshot files no case id names and
    snapshot folders whose case file is gone; ``--snapshot-update`` deletes them. Unused
    snapshots fail a plain run, as syrupy's do, unless ``--snapshot-warn-unused``.
    """
    config = session.config
    if not config.getoption("asrbench"):
        return (yield)
    from pytest_asrbench import snapshot as adapter
    from pytest_asrbench.run_coverage import coverage_of

    coverage = coverage_of(config)
    if _is_worker(config):
        result = yield
        coverage.writes.extend(adapter.take_writes())
        config.workeroutput["asrbench_coverage"] = coverage.payload()
        from pytest_asrbench.cases.signature_gate import deferrals

        config.workeroutput["asrbench_deferrals"] = deferrals(config).payload()
        return result
    reason = coverage.incomplete_reason(session, exitstatus)
    with adapter.unused_detection(config, enabled=reason is None):
        result = yield
    from pytest_asrbench.deferred_signatures import finish_deferred

    kept_signatures = finish_deferred(session, exitstatus, coverage)
    if kept_signatures and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED  # the signature cases passed on this promise
    coverage.writes.extend(adapter.take_writes())
    summary = {"writes": coverage.writes, "skipped": reason, "files": [], "folders": [], "deleted": False,
               "pending_deletion": False, "kept": False, "failed": False, "signatures": kept_signatures}
    if reason is None and not adapter.unused_check_disabled(config):
        summary["files"] = coverage.unused_snapshots()
        summary["folders"] = _orphans(config)
        if adapter.cleanup_allowed(config) and adapter.pending_mode():
            _stage_deletions(summary["files"], summary["folders"])
            coverage.writes.extend(adapter.take_writes())
            summary["pending_deletion"] = True
        elif adapter.cleanup_allowed(config):
            _delete(summary["files"], summary["folders"])
            summary["deleted"] = True
        elif adapter.update_mode(config):
            summary["kept"] = True  # --snapshot-update --snapshot-no-cleanup
        elif (summary["files"] or summary["folders"]) and not adapter.unused_is_warning(config) \
                and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            summary["failed"] = True
    summary["waiting"] = _waiting_for_review(config)
    config.stash[SUMMARY] = summary
    return result


def _waiting_for_review(config: pytest.Config) -> list[Path]:
    """The pending files under the snapshot folder (kept by this or an earlier
    ``--asrbench-pending`` run), counted for the summary; none is read."""
    from pytest_asrbench.review.pending import pending_files

    return pending_files(config.rootpath / (config.getini("asrbench_snapshot_dir") or "snapshots"))


def _review_command(config: pytest.Config) -> str:
    """``asrbench review`` with the options this project needs (a rootdir other than the
    current folder, its own snapshot or case folder names)."""
    words = ["asrbench review"]
    if config.rootpath.resolve() != Path(config.invocation_params.dir).resolve():
        words.append(f"--root {config.rootpath}")
    snapshots = config.getini("asrbench_snapshot_dir") or "snapshots"
    if snapshots != "snapshots":
        words.append(f"--snapshot-dir {snapshots}")
    case_dirs = config.getini("asrbench_case_dirs")
    if list(case_dirs) != ["cases"]:
        words += [f"--case-dir {name}" for name in case_dirs]
    return " ".join(words)


def _delete(files: list[Path], folders: list[Path]) -> None:
    for path in files:
        path.unlink()
    for folder in folders:
        for snapshot in folder.glob("*.json"):
            snapshot.unlink()
        if not any(folder.iterdir()):
            folder.rmdir()


def _stage_deletions(files: list[Path], folders: list[Path]) -> None:
    """Pending mode: each unused snapshot becomes a pending deletion for `asrbench review`."""
    from pytest_asrbench import snapshot as adapter

    for path in [*files, *(snapshot for folder in folders for snapshot in sorted(folder.glob("*.json")))]:
        adapter.stage_deletion(path)


def _shown(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    """What the run wrote and deleted (with paths), what is unused, or why that was not checked."""
    summary = config.stash.get(SUMMARY, None)
    if summary is None:
        return
    root = config.rootpath
    writes = [(action, path) for action, path in summary["writes"] if not action.startswith("pending")]
    pending = [(action, path) for action, path in summary["writes"] if action.startswith("pending")]
    lines = [f"  {action} {_shown(Path(path), root)}" for action, path in writes]
    if lines:
        rewrote = sum(action == "rewrote" for action, _ in writes)
        written = f"{len(writes) - rewrote} snapshot file(s)"
        if rewrote:
            written += f" and {rewrote} case file(s) (re-recorded signatures)"
        lines.insert(0, f"{written} written:")
    review = _review_command(config)
    if pending:
        lines.append(f"{len(pending)} change(s) kept for review, recordings untouched (accept or reject them "
                     f"with `{review}`):")
        lines += [f"  {action} {_shown(Path(path), root)}" for action, path in pending]
    from pytest_asrbench.review.pending import pending_path

    kept_now = {str(pending_path(Path(path))) for _, path in pending}
    earlier = [path for path in summary["waiting"] if str(path) not in kept_now]
    if earlier:
        lines.append(f"{len(earlier)} change(s) kept by an earlier --asrbench-pending run wait for review "
                     f"(`{review} --list` shows them; `{review}` accepts or rejects them)")
    unused = [*summary["files"], *summary["folders"]]
    if unused:
        kinds = [f"{len(summary['files'])} snapshot file(s) no case id names"] if summary["files"] else []
        kinds += [f"{len(summary['folders'])} snapshot folder(s) whose case file is gone"] if summary["folders"] else []
        if summary["deleted"]:
            lines.append(f"deleted {' and '.join(kinds)}:")
        elif summary["pending_deletion"]:
            lines.append(f"unused: {' and '.join(kinds)}; their deletion is kept for review (asrbench review):")
        elif summary["kept"]:
            lines.append(f"unused: {' and '.join(kinds)}; kept because of --snapshot-no-cleanup "
                         "(run --snapshot-update without it to delete them):")
        else:
            lines.append(f"unused: {' and '.join(kinds)}; re-run with --snapshot-update to delete them:")
        lines += [f"  {_shown(path, root)}" for path in unused]
    if summary["skipped"]:
        lines.append(f"unused-snapshot check skipped, nothing deleted: {summary['skipped']}")
    lines += summary["signatures"]  # patch-bumped pairs whose signature was kept, once per pair
    failed = summary["failed"] and unused
    if failed:
        # The run fails for this alone: say so last, near pytest's own final line.
        shown = ", ".join(_shown(path, root) for path in unused[:3]) + (", ..." if len(unused) > 3 else "")
        lines.append(f"FAILED: {len(unused)} unused snapshot file(s)/folder(s): {shown} "
                     "(pytest --asrbench <paths> --snapshot-update deletes them; --snapshot-warn-unused "
                     "only warns)")
        terminalreporter.stats.setdefault("unused snapshot(s)", []).extend(unused)
    if lines:
        terminalreporter.write_sep("-", "asrbench snapshots")
        for line in lines:
            terminalreporter.write_line(line, red=bool(failed and line is lines[-1]))


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    if not config.getoption("asrbench"):
        return None
    from pytest_asrbench import __version__
    from pytest_asrbench.normalize.registry import get_config, known_languages
    from pytest_asrbench.scoring.metrics import METRICS

    languages = ", ".join(f"{tag} {get_config(tag).version}" for tag in known_languages())
    metrics = ", ".join(f"{metric.name} {metric.version}" for metric in METRICS.values())
    return [f"asrbench {__version__}: languages {languages}; metrics {metrics}"]
