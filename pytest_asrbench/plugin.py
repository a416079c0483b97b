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

from pytest_asrbench._shared.paths import shown_path
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
    """Tell the ASR stage how many cases of a transcribing kind will run (for its progress bar)."""
    if not config.getoption("asrbench"):
        return
    from pytest_asrbench.cases.items import case_of
    from pytest_asrbench.cases.kinds import get_runner

    cases = [case for case in map(case_of, items) if case is not None]
    count = sum(1 for case in cases if getattr(get_runner(case.kind), "transcribes", False))
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
        shown = ", ".join(shown_path(path, config.rootpath) for path in skipped[:5]) + (", ..." if len(skipped) > 5 else "")
        lines.append(f"asrbench: {len(skipped)} YAML file(s) without a top-level `cases:` key not collected as case "
                     f"files: {shown}")
    if not config.stash.get(_CASE_FILES, []) and not hasattr(config, "workerinput") and \
            not config.pluginmanager.hasplugin("dsession"):
        searched = ", ".join(shown_path(path, config.rootpath) or "." for path in _given_paths(config)) or "."
        names = ", ".join(config.getini("asrbench_case_dirs")) or "none"
        lines.append(f"asrbench: no case file found (searched: {searched}); a case file is a .yaml/.yml file with a "
                     f"top-level `cases:` list, given by path, under a given folder, or under a folder named by the "
                     f"asrbench_case_dirs ini option (now: {names}): name your case folder there or on the command "
                     f"line (pytest --asrbench <folder>)")
    return lines or None


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


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
    from pytest_asrbench.snapshot.session import snapshot_session

    snapshot_session(config).close()  # an in-process run (pytester) leaves no mode behind
    previous = config.stash.get(_PREVIOUS_SIGTERM, None)
    if previous is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, previous)
        del config.stash[_PREVIOUS_SIGTERM]


_GROUP_BY_MODEL = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config):
    """Under ``--asrbench -n N`` with no ``--dist`` given, schedule the workers by model group
    (:mod:`pytest_asrbench.xdist_schedule`): each worker loads each model at most once. Runs
    before pytest-xdist's own hook, which turns the unset mode (``no``) into ``load``; an
    explicit ``--dist`` is left as given."""
    option = config.option
    config.stash[_GROUP_BY_MODEL] = bool(
        getattr(option, "asrbench", False) and getattr(option, "numprocesses", None)
        and getattr(option, "dist", None) == "no" and not getattr(option, "distload", False))
    return (yield)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """xdist controller: the model-group scheduler when :func:`pytest_cmdline_main` chose it
    (``None``: xdist's own for the mode given)."""
    if not config.stash.get(_GROUP_BY_MODEL, False):
        return None
    from pytest_asrbench.xdist_schedule import make_scheduler

    return make_scheduler(config, log)


def pytest_configure(config: pytest.Config) -> None:
    from pytest_asrbench._shared.caches import reset_all
    from pytest_asrbench.snapshot.session import snapshot_session

    reset_all()  # an in-process run (pytester) starts from its own options, not an earlier run's state
    snapshots = snapshot_session(config)
    snapshots.check_options()
    if config.getoption("asrbench"):
        if not config.pluginmanager.hasplugin("syrupy"):
            raise pytest.UsageError("--asrbench compares case outputs with their snapshots through syrupy's plugin, "
                                    "which this run does not load: remove `-p no:syrupy`")
        config.pluginmanager.register(_CoverageWatcher(config), "asrbench-coverage")
        _take_sigterm(config)
    snapshots.start()
    _use_project_config_dirs(config)


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
    if node.config.getoption("asrbench"):
        from pytest_asrbench.snapshot.session import snapshot_session

        snapshot_session(node.config).merge_worker(getattr(node, "workeroutput", {}))


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
    from pytest_asrbench.snapshot.session import snapshot_session

    snapshots = snapshot_session(config)
    if _is_worker(config):
        result = yield
        snapshots.send_to_controller(config.workeroutput)
        return result
    with snapshots.around_syrupy_finish(session, exitstatus):
        result = yield
    snapshots.conclude(session, exitstatus, [path for path in _given_paths(config) if path.is_dir()])
    return result



def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    """What the run wrote and deleted (with paths), what is unused, or why that was not checked
    (the snapshot session's :class:`~pytest_asrbench.snapshot.report.SnapshotReport`)."""
    if not config.getoption("asrbench"):
        return
    from pytest_asrbench.snapshot.session import snapshot_session

    report = snapshot_session(config).report
    if report is None:
        return
    lines = report.lines(config.rootpath)
    if report.failed:
        terminalreporter.stats.setdefault("unused snapshot(s)", []).extend(report.unused)
    if lines:
        terminalreporter.write_sep("-", "asrbench snapshots")
        for line in lines:
            terminalreporter.write_line(line, red=bool(report.failed and line is lines[-1]))


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    if not config.getoption("asrbench"):
        return None
    from pytest_asrbench import __version__
    from pytest_asrbench.normalize.registry import get_config, known_languages
    from pytest_asrbench.scoring.metrics import METRICS

    languages = ", ".join(f"{tag} {get_config(tag).version}" for tag in known_languages())
    metrics = ", ".join(f"{metric.name} {metric.version}" for metric in METRICS.values())
    return [f"asrbench {__version__}: languages {languages}; metrics {metrics}"]
