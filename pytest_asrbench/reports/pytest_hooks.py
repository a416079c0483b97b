"""pytest hooks of the reports: ``--asrbench-report PATH`` (HTML), ``--asrbench-markdown
PATH`` (CI step summaries) and the terminal summary after every ``--asrbench`` run.

Each case item's record (:mod:`pytest_asrbench.cases.case_record`) rides on its test report
(``report.asrbench_case``), and so do the problems of a case file that could not be loaded
(``report.asrbench_load_errors``), so both reach the xdist controller with the report; there a
:class:`_Collector` keeps one :class:`~pytest_asrbench.reports.model.CaseEntry` per case item
and one :class:`~pytest_asrbench.reports.model.LoadError` per case file that failed to load
(never counted under a language). A case item that stopped before its case made a record (a
setup that failed or skipped, an error the runner did not expect) gets one made from its case,
marked ``no_record`` with the phase and reason, so no case item is dropped from the tables.
Loaded by ``pytest_asrbench/plugin.py`` like the ASR stage's hooks; it imports the
renderers only when a run needs them.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pytest_asrbench._shared.paths import path_option

_COLLECTOR = pytest.StashKey["_Collector"]()
_OPTIONS = {"--asrbench-report": "asrbench_report", "--asrbench-markdown": "asrbench_markdown"}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("asrbench")
    group.addoption("--asrbench-report", metavar="PATH", default=None, type=path_option,
                    help="write a self-contained HTML report of the run to PATH (per-language tables, rate-change "
                         "chart, every failing or changed case with its alignment)")
    group.addoption("--asrbench-markdown", metavar="PATH", default=None, type=path_option,
                    help="write a Markdown summary of the run to PATH (for CI step summaries, e.g. "
                         "$GITHUB_STEP_SUMMARY)")


def _paths(config: pytest.Config) -> list[tuple[str, Path]]:
    return [(option, Path(config.invocation_params.dir) / config.getoption(dest))
            for option, dest in _OPTIONS.items() if config.getoption(dest, None)]


def reports_requested(config: pytest.Config) -> bool:
    """Whether this run writes a report file (``--asrbench-report``, ``--asrbench-markdown``):
    only those read the scoring cases' headline alignments and error tallies, so a run without
    one does not compute them (:class:`~pytest_asrbench.cases.registry.RunContext`). The same
    answer on an xdist worker, which has the controller's options."""
    return bool(_paths(config))


def pytest_configure(config: pytest.Config) -> None:
    """On the controller of an ``--asrbench`` run, collect entries; refuse, before anything
    runs, a report path that cannot be written, one path given to two outputs (a report and
    the Markdown summary, or either and the run record: the later write would replace the
    earlier), or a report option without ``--asrbench``. On every process (xdist workers
    included): whether the scoring cases compute what only the reports read
    (:func:`reports_requested`)."""
    if config.getoption("asrbench"):
        from pytest_asrbench.cases.figures import HEADLINES_WANTED

        config.stash[HEADLINES_WANTED] = reports_requested(config)
    if hasattr(config, "workerinput"):
        return
    paths = _paths(config)
    if not config.getoption("asrbench"):
        if paths:
            option = paths[0][0]
            raise pytest.UsageError(f"{option} reports on YAML cases: add --asrbench "
                                    f"(pytest --asrbench <paths> {option} {config.getoption(_OPTIONS[option])})")
        return
    from pytest_asrbench.reports.write import path_problem, shared_path_problem

    cwd = config.invocation_params.dir
    for option, path in paths:
        problem = path_problem(option, path, cwd)
        if problem:
            raise pytest.UsageError(problem)
    run_record = config.getoption("asrbench_run_record", None)
    outputs = [*paths, *([("--asrbench-run-record", Path(config.invocation_params.dir) / run_record)]
                         if run_record else [])]
    problem = shared_path_problem(outputs, cwd)
    if problem:
        raise pytest.UsageError(problem)
    collector = _Collector(config)
    config.stash[_COLLECTOR] = collector
    config.pluginmanager.register(collector, "asrbench-reports")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    """Put the case's record on each report of a case item, and the problems of a case file
    that could not be loaded on its item's reports (workers included); a run without
    ``--asrbench`` imports nothing for it."""
    report = yield
    if not item.config.getoption("asrbench"):
        return report
    from pytest_asrbench.cases.items import CASE_RECORD, BrokenCaseFile, case_of

    if isinstance(item, BrokenCaseFile):
        report.asrbench_load_errors = list(item.errors)
        return report
    record = item.stash.get(CASE_RECORD, None)
    if record is not None:
        report.asrbench_case = record
    elif (case := case_of(item)) is not None and not report.passed:
        report.asrbench_case = _no_record(case, item.config.rootpath, report)
    return report


def _no_record(case, root: Path, report) -> dict:
    """The record of a case item that stopped before its case made one (a setup that failed
    or skipped, an error the runner did not expect): the case's own fields, no figures, and
    ``no_record``, the reason in one line, so the summary and reports list it rather than
    drop it."""
    from pytest_asrbench.cases.case_record import case_record

    record = case_record(case, None, root)
    record["no_record"] = f"{report.when}: {_reason(report)}"
    return record


def _reason(report) -> str:
    """The one-line reason of a failed or skipped report (pytest's crash line, the skip reason)."""
    if report.skipped and isinstance(report.longrepr, tuple):
        return f"skipped: {str(report.longrepr[2]).removeprefix('Skipped: ')}"
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.splitlines()[0] if crash.message else "failed"
    text = report.longreprtext.strip().splitlines()
    return text[-1] if text else "failed"


def _crash(report) -> str:
    """pytest's one-line crash message of a failure that is not a case's own message (an error
    the case runner did not expect: its report carries a traceback); empty otherwise (a case's
    failure message is read by :func:`pytest_asrbench.reports.reasons.message_reason`)."""
    crash = getattr(report.longrepr, "reprcrash", None) if report.failed else None
    if crash is None or not crash.message:
        return ""
    return crash.message.splitlines()[0]


def _outcome(report) -> str:
    if report.failed:
        return "failed"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    return "passed"


def _message(report) -> str:
    if report.failed:
        return report.longreprtext
    if hasattr(report, "wasxfail"):
        return f"known limitation (xfail): {report.wasxfail}"
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    return ""


def _summary_width(config: pytest.Config) -> int | None:
    """The width a failing case's line is cut to: the terminal's, as pytest's short test
    summary cuts its lines, except on CI (a ``CI`` or ``BUILD_NUMBER`` variable) or with
    ``-vv``, where pytest cuts nothing either (``None``)."""
    if os.environ.get("CI") or os.environ.get("BUILD_NUMBER") or config.option.verbose >= 2:
        return None
    return config.get_terminal_writer().fullwidth


class _Collector:
    """The controller's entries, one per case item, and what is made of them at the end."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.entries: dict = {}
        self.load_errors: dict = {}
        self.error: str | None = None
        self.written: list[str] = []
        self.partial: str | None = None  # why the run is not whole, settled at session finish

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """The call phase decides an item's outcome; a setup that fails or skips, or a
        teardown that fails, overrides it."""
        if report.when != "call" and report.passed:
            return  # a passing setup or teardown decides nothing
        from pytest_asrbench.reports.model import CaseEntry, LoadError

        problems = getattr(report, "asrbench_load_errors", None)
        if problems is not None:  # a case file that could not be loaded fails its call phase
            path = report.nodeid.split("::")[0]
            self.load_errors[path] = LoadError(path, tuple(problems))
            return
        record = getattr(report, "asrbench_case", None)
        if record is None:
            return  # not a case item (a unit test in the same run)
        self.entries[report.nodeid] = CaseEntry(report.nodeid, _outcome(report), _message(report), record,
                                                _crash(report))

    def report(self):
        from pytest_asrbench import __version__
        from pytest_asrbench.asr.pytest_hooks import unrecorded_asr_lines
        from pytest_asrbench.reports.model import RunReport
        from pytest_asrbench.snapshot.session import snapshot_session

        command = " ".join(["pytest", *self.config.invocation_params.args])
        return RunReport(list(self.entries.values()), unrecorded_asr_lines(self.config),
                         f"pytest-asrbench {__version__} run report", command,
                         snapshot_session(self.config).updating,
                         [self.load_errors[path] for path in sorted(self.load_errors)], self.partial)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Write the report files (after every other session-finish hook, so the ASR stage's
        notes are in); a failing write fails the run, said in one line at the end.

        First it settles whether the run was whole, by the rule that decides whether a run may
        call snapshots unused (:meth:`~pytest_asrbench.run_coverage.RunCoverage.incomplete_reason`:
        interrupted, stopped by ``-x`` or ``--maxfail``, a collection error or a case file that
        did not load, case items left out by ``-k``, ``-m``, a node id, ``--deselect`` or
        ``--lf``), so the reports and the terminal summary after them say "Not a whole run"."""
        from pytest_asrbench.run_coverage import coverage_of

        self.partial = coverage_of(self.config).incomplete_reason(session, session.exitstatus)
        paths = _paths(self.config)
        if not paths:
            return
        from pytest_asrbench.reports.html import render_html
        from pytest_asrbench.reports.markdown import render_markdown
        from pytest_asrbench._shared.paths import shown_path
        from pytest_asrbench.reports.write import ReportWriteError, write_report

        report = self.report()
        renderers = {"--asrbench-report": render_html, "--asrbench-markdown": render_markdown}
        for option, path in paths:
            start = time.perf_counter()
            try:
                write_report(option, path, renderers[option](report), self.config.invocation_params.dir)
            except ReportWriteError as exc:
                self.error = str(exc)
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            else:
                # the time shown is the report's own cost (rendering and writing), which
                # benchmarks/report_cost.py reads beside the wall times of whole runs
                self.written.append(f"{option}: wrote {shown_path(path, self.config.invocation_params.dir)} in "
                                    f"{time.perf_counter() - start:.3f} s")

    def pytest_terminal_summary(self, terminalreporter) -> None:
        from pytest_asrbench.reports.summary import summary_lines

        lines = summary_lines(self.report(), width=_summary_width(self.config))
        if lines:
            terminalreporter.write_sep("-", "asrbench summary")
            for line in lines:
                terminalreporter.write_line(line, red=line.startswith("  ") and ": failed" in line)
        for line in self.written:
            terminalreporter.write_line(f"asrbench {line}")
        if self.error:
            terminalreporter.write_line(f"asrbench: ERROR: {self.error}", red=True)
