"""pytest nodes for case files: one ``pytest.Function`` per case, one failing item per broken file."""

from __future__ import annotations

import difflib

import pytest
from _pytest._code.code import ReprFileLocation, TerminalRepr

from pytest_asrbench._shared.failure_reason import message_reason
from pytest_asrbench._shared.paths import from_root
from pytest_asrbench.cases.case_record import case_record, junit_properties
from pytest_asrbench.cases.figures import HEADLINES_WANTED
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.model import Case
from pytest_asrbench.cases.kinds import get_runner
from pytest_asrbench.cases.registry import RunContext, snapshot_rules_of, snapshot_view_of
from pytest_asrbench.errors import AsrbenchError, CaseFileError
from pytest_asrbench.cases.version_gate_session import gated_metric
from pytest_asrbench.run_coverage import coverage_of
from pytest_asrbench.scoring.alignment_view import strip_ansi
from pytest_asrbench.scoring.display import elide
from pytest_asrbench.snapshot.adapter import SNAPSHOT_DIR, SYRUPY_MARKER, Comparison
from pytest_asrbench.snapshot.session import snapshot_session
from pytest_asrbench.snapshot_layout import snapshot_dir

#: The case an item runs.
CASE = pytest.StashKey[Case]()


def case_of(item: pytest.Item) -> Case | None:
    """The case of a case item, ``None`` for any other item."""
    return item.stash.get(CASE, None)


class CaseFailed(AssertionError):
    """A case's expectations or snapshot did not hold."""


# Snapshot folder -> the case file that owns it, for this session.
SNAPSHOT_OWNERS = pytest.StashKey[dict]()


class CaseFileNode(pytest.File):
    """A YAML case file collected under ``--asrbench``."""

    def collect(self):
        loaded = load_case_file(self.path)
        coverage = coverage_of(self.config)
        if loaded.errors:
            coverage.broken.append(self.nodeid)
            yield BrokenCaseFile.from_parent(self, name="<case file error>",
                                             errors=[from_root(str(e), self.config.rootpath) for e in loaded.errors],
                                             reason=from_root(_file_problem(loaded.errors), self.config.rootpath))
            return
        config = self.config
        folder = snapshot_dir(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots", self.path,
                              config.getini("asrbench_case_dirs"))
        owners = config.stash.setdefault(SNAPSHOT_OWNERS, {})
        owner = owners.setdefault(folder, self.path)
        if owner != self.path:
            problem = from_root(f"its snapshot folder {folder} is already used by {owner}; rename one of the two files",
                                config.rootpath)
            yield BrokenCaseFile.from_parent(self, name="<case file error>",
                                             errors=[f"{from_root(str(self.path), config.rootpath)}: {problem}"],
                                             reason=problem)
            return
        items = []
        fixtureinfo = None
        for case in loaded.cases:
            item = CaseItem.from_parent(self, name=case.id, callobj=_case_function(case), fixtureinfo=fixtureinfo)
            # Every case function takes the same fixtures from the same place (this file), so
            # pytest resolves them once per file, as its own parametrization does (it hands one
            # FuncFixtureInfo to every Function it makes): resolving them per case costs about a
            # tenth of a millisecond per item. pytest has no public getter for that object (its
            # public route, parametrizing a Python test function, would change every node id),
            # so the attribute read here is private; without it each item resolves its own
            # (correct, only slower), and tests/test_plugin.py's
            # test_the_cases_of_a_file_share_one_fixture_resolution fails when pytest renames it.
            fixtureinfo = getattr(item, "_fixtureinfo", None)
            item.stash[CASE] = case
            item.stash[SNAPSHOT_DIR] = folder
            # `-k asr`, `-k hi` select by kind and language (as keywords, not markers: a
            # marker named asrbench_* would match every -k expression containing "asr").
            item.extra_keyword_matches.update((case.kind, case.language))
            item.add_marker(SYRUPY_MARKER)  # as syrupy marks an item that snapshots
            items.append(item)
        coverage.add_file(self.path, folder, [case.id for case in loaded.cases], [item.nodeid for item in items],
                          [(gated_metric(case), case.language) for case in loaded.cases])
        yield from items


def _case_function(case: Case):
    """The test function of ``case``'s item (its docstring the case's ``note``). It takes no
    ``snapshot`` fixture: the snapshot session makes the item's one syrupy assertion itself
    (:func:`~pytest_asrbench.snapshot.adapter.case_assertion`), named after the item, that is
    the case id."""

    def run_case(request):
        run(case, request.config, request.node)

    run_case.__doc__ = case.note
    return run_case


def run(case: Case, config, node: pytest.Item) -> None:
    """Run ``case``, compare its output with the snapshot, then check its expectations.

    The snapshot is always compared, so output drift fails even where no ``expect`` names
    it, also for ``xfail`` cases. What is compared is the kind's snapshot view, and how it
    is gated and written is the run's snapshot session's decision under the kind's rules
    (:mod:`pytest_asrbench.cases.registry`, :mod:`pytest_asrbench.snapshot.session`). An
    ``xfail`` case whose expectations now hold fails (strict): promote it by removing its
    ``xfail``. The item ``node`` gets the case's record
    (:mod:`pytest_asrbench.cases.case_record`, for the summary and reports) in its stash and
    its metric, version and rate as JUnit properties.
    """
    context = _run_context(config)
    snapshots = snapshot_session(config)
    runner = get_runner(case.kind)
    try:
        result = runner.run(case, context)
    except AsrbenchError as exc:
        # A deliberate error about the case's content (unknown setting, unreadable audio,
        # lists of different lengths): reported at the case; its snapshot is kept as recorded
        # (compared without writing, so it counts as used).
        _keep_record(node, case, None, config)["snapshot"] = "kept"
        snapshots.keep(node, {"error": str(exc)})
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}): {exc}") from exc
    record = _keep_record(node, case, result, config)
    snapshots.note_rewrites(result.rewritten)
    recording = snapshots.record(node, case, snapshot_view_of(runner, result.output), snapshot_rules_of(runner),
                                 result.pending_rewrite)
    record["snapshot"] = recording.state
    if recording.refusal:
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}):\n{recording.refusal}")
    comparison = recording.comparison
    if comparison.error is not None:
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}): {comparison.error}")
    problems = []
    if not comparison.matched:
        problems.append(_snapshot_problem(comparison, node.path, result.snapshot_hint))
    if case.xfail:
        if result.passed:
            problems.insert(0, f"[XPASS(strict)] now passes: remove `xfail: {case.xfail}` from "
                               f"{case.where('xfail')} (the known limitation is fixed)")
            raise CaseFailed("\n".join(problems))
        if problems:
            raise CaseFailed("\n".join(problems))
        pytest.xfail(case.xfail)
    problems = result.failures + problems
    if problems:
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}):\n" + "\n".join(problems))


RUN_CONTEXT = pytest.StashKey[RunContext]()
#: The record of the case an item ran (:mod:`pytest_asrbench.cases.case_record`).
CASE_RECORD = pytest.StashKey[dict]()


def _keep_record(node, case: Case, result, config) -> dict:
    """The case's record, kept in the item's stash (the report hook hands it on) with its
    JUnit properties on the item; returned so the snapshot state can be filled in."""
    record = case_record(case, result, config.rootpath)
    node.stash[CASE_RECORD] = record
    node.user_properties.extend(junit_properties(record))
    return record


def _run_context(config) -> RunContext:
    """The session's :class:`RunContext`, made once."""
    context = config.stash.get(RUN_CONTEXT, None)
    if context is None:
        snapshots = snapshot_session(config)
        context = RunContext(rootpath=config.rootpath, pytest_config=config, color=_terminal_markup(config),
                             updating=snapshots.updating, adding_fingerprints=snapshots.adding_fingerprints,
                             headlines=config.stash.get(HEADLINES_WANTED, True))
        config.stash[RUN_CONTEXT] = context
    return context


def _terminal_markup(config) -> bool:
    """Whether this process writes to a terminal with colour (pytest's own decision:
    ``--color``, ``NO_COLOR``, ``FORCE_COLOR``, a tty). An xdist worker has none."""
    if hasattr(config, "workerinput"):
        return False
    return config.get_terminal_writer().hasmarkup


def _snapshot_problem(comparison: Comparison, case_file, hint: str | None = None) -> str:
    """A readable account of a snapshot mismatch: a unified diff of the two JSON texts; for a
    case with no snapshot yet, the command that records it (``case_file``: the case's file,
    which the failure report writes from the root folder)."""
    if comparison.recorded is None:
        return (f"no snapshot recorded yet: record it with `pytest --asrbench {case_file} --snapshot-update` "
                f"(it is written to {comparison.location})")
    diff = difflib.unified_diff(
        comparison.recorded.splitlines(),
        (comparison.obtained or "").splitlines(),
        fromfile=f"recorded {comparison.location}",
        tofile="obtained now",
        lineterm="",
    )
    advice = hint or ("if intended, bump the metric or language config version and re-record "
                      "(see README, 'Re-recording')")
    lines = [elide(line, MAX_DIFF_LINE) for line in diff]
    if len(lines) > MAX_DIFF_LINES:
        lines = lines[:MAX_DIFF_LINES] + [f"… {len(lines) - MAX_DIFF_LINES} more diff line(s) not shown; "
                                          f"the recorded file is {comparison.location}"]
    return f"output differs from the recorded snapshot; {advice}:\n" + "\n".join(lines)


#: A snapshot diff in a failure shows at most this many lines, each cut to MAX_DIFF_LINE characters.
MAX_DIFF_LINES = 200
MAX_DIFF_LINE = 1000


class CaseItem(pytest.Function):
    """One case: reported at its YAML line, failing with the case's own message (no traceback;
    its paths inside the rootdir written from it, :func:`from_root`)."""

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailed):
            case = self.stash[CASE]
            return CaseFailureRepr(from_root(str(excinfo.value), self.config.rootpath),
                                   from_root(str(self.path), self.config.rootpath), case.line)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        case = self.stash[CASE]
        return self.path, case.line - 1, f"{case.kind} case {case.id}"


class CaseFailureRepr(TerminalRepr):
    """A case's failure message: written with its colours to a terminal that has markup,
    without them anywhere else (``str()`` is what JUnit XML and xdist carry).

    ``reprcrash`` is where pytest's short test summary (``-r``) and JUnit XML's failure message
    read one line: the case's file and line, and the reason line of its message
    (:func:`~pytest_asrbench._shared.failure_reason.message_reason`), so ``FAILED <node id>``
    is followed by ``- rate is 0.5, expected 0.0 ...`` as a Python test's assertion is."""

    def __init__(self, message: str, path: str = "", line: int = 0, reason: str | None = None):
        self.message = message
        self.reprcrash = ReprFileLocation(path, line, message_reason(strip_ansi(message)) if reason is None else reason)

    def toterminal(self, tw) -> None:
        for line in (self.message if tw.hasmarkup else strip_ansi(self.message)).splitlines():
            tw.line(line)

    def __str__(self) -> str:
        return strip_ansi(self.message)


def _file_problem(errors: list[CaseFileError]) -> str:
    """The reason line of a case file that cannot be loaded: its first problem, at its line
    (``line 3: case 'pair' needs the field `expect`: ...``; the item's node id names the file),
    and how many more there are."""
    first = errors[0]
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return (f"line {first.line}: {first.message}" if first.line is not None else first.message) + more


class BrokenCaseFile(pytest.Item):
    """A case file that could not be loaded: fails with every ``path:line: reason``; pytest's
    short test summary gives it ``reason``, its first problem (:func:`_file_problem`)."""

    def __init__(self, *, errors: list[str], reason: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.errors = errors
        self.reason = reason or (errors[0] if errors else "case file cannot be loaded")

    def runtest(self) -> None:
        raise CaseFailed("\n".join(self.errors))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return CaseFailureRepr(f"case file cannot be loaded ({len(self.errors)} problem(s)):\n" + "\n".join(self.errors),
                                   reason=self.reason)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: case file error"
