"""pytest nodes for case files: one ``pytest.Function`` per case, one failing item per broken file."""

from __future__ import annotations

import difflib

import pytest

from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.model import Case
from pytest_asrbench.cases.runners import RunContext, get_runner
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.snapshot import CaseSnapshotExtension, snapshot_dir
from pytest_asrbench.cases.signature_gate import update_refusal


class CaseFailed(AssertionError):
    """A case's expectations or snapshot did not hold."""


# Snapshot folder -> the case file that owns it, for this session.
SNAPSHOT_OWNERS = pytest.StashKey[dict]()


class CaseFileNode(pytest.File):
    """A YAML case file collected under ``--asrbench``."""

    def collect(self):
        loaded = load_case_file(self.path)
        if loaded.errors:
            yield BrokenCaseFile.from_parent(self, name="<case file error>", errors=[str(e) for e in loaded.errors])
            return
        config = self.config
        folder = snapshot_dir(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots", self.path,
                              config.getini("asrbench_case_dirs"))
        owners = config.stash.setdefault(SNAPSHOT_OWNERS, {})
        owner = owners.setdefault(folder, self.path)
        if owner != self.path:
            yield BrokenCaseFile.from_parent(self, name="<case file error>", errors=[
                f"{self.path}: its snapshot folder {folder} is already used by {owner}; rename one of the two files"])
            return
        for case in loaded.cases:
            item = CaseItem.from_parent(self, name=case.id, callobj=_case_function(case))
            item.asrbench_case = case
            item.asrbench_snapshot_dir = folder
            # `-k asr`, `-k hi` select by kind and language (as keywords, not markers: a
            # marker named asrbench_* would match every -k expression containing "asr").
            item.extra_keyword_matches.update((case.kind, case.language))
            yield item


def _case_function(case: Case):
    """A test function taking syrupy's ``snapshot`` fixture, named after the case for syrupy."""

    def run_case(snapshot, request):
        run(case, snapshot, request.config)

    run_case.__name__ = case.id
    run_case.__qualname__ = case.id
    run_case.__module__ = "pytest_asrbench.cases"
    run_case.__doc__ = case.note
    return run_case


def run(case: Case, snapshot, config) -> None:
    """Run ``case``, compare its output with the snapshot, then check its expectations.

    The snapshot is always compared, so output drift fails even where no ``expect`` names
    it, also for ``xfail`` cases. An ``xfail`` case whose expectations now hold fails
    (strict): promote it by removing its ``xfail``.
    """
    context = _run_context(config)
    recorded = snapshot.use_extension(CaseSnapshotExtension)
    try:
        result = get_runner(case.kind).run(case, context)
    except AsrbenchError as exc:
        # A deliberate error about the case's content (unknown setting, unreadable audio,
        # lists of different lengths): reported at the case; its snapshot is kept as recorded.
        _keep_recorded(recorded, {"error": str(exc)})
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}): {exc}") from exc
    refusal = update_refusal(case, config)
    if refusal:
        _keep_recorded(recorded, result.output)
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}):\n{refusal}")
    problems = []
    if not (recorded == result.output):
        problems.append(_snapshot_problem(recorded))
    if case.xfail:
        if result.passed:
            problems.insert(0, f"[XPASS(strict)] known limitation now passes: remove `xfail: {case.xfail}` "
                               f"from {case.where('xfail')}")
            raise CaseFailed("\n".join(problems))
        if problems:
            raise CaseFailed("\n".join(problems))
        pytest.xfail(case.xfail)
    problems = result.failures + problems
    if problems:
        raise CaseFailed(f"{case.where()}: case {case.id!r} ({case.kind}):\n" + "\n".join(problems))


RUN_CONTEXT = pytest.StashKey[RunContext]()


def _run_context(config) -> RunContext:
    """The session's :class:`RunContext`, made once."""
    context = config.stash.get(RUN_CONTEXT, None)
    if context is None:
        context = RunContext(rootpath=config.rootpath, pytest_config=config)
        config.stash[RUN_CONTEXT] = context
    return context


def _keep_recorded(recorded, output) -> None:
    """Compare without writing: under ``--snapshot-update`` the snapshot stays as recorded, and
    it counts as used, so syrupy does not delete it as unused."""
    recorded.update_snapshots = recorded.update_new_snapshots_only = False
    recorded == output  # noqa: B015


def _snapshot_problem(recorded) -> str:
    """A readable account of a snapshot mismatch: a unified diff of the two JSON texts."""
    execution = recorded.executions[max(recorded.executions)]
    if execution.recalled_data is None:
        return (f"no snapshot recorded yet at {execution.snapshot_location}: "
                "record it with `pytest --asrbench <paths> --snapshot-update`")
    diff = difflib.unified_diff(
        str(execution.recalled_data).splitlines(),
        str(execution.asserted_data).splitlines(),
        fromfile=f"recorded {execution.snapshot_location}",
        tofile="obtained now",
        lineterm="",
    )
    return ("output differs from the recorded snapshot; if intended, bump the metric or language "
            "config version and re-record (see README, 'Re-recording'):\n" + "\n".join(diff))


class CaseItem(pytest.Function):
    """One case: reported at its YAML line, failing with the case's own message (no traceback)."""

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        case = self.asrbench_case
        return self.path, case.line - 1, f"{case.kind} case {case.id}"


class BrokenCaseFile(pytest.Item):
    """A case file that could not be loaded: fails with every ``path:line: reason``."""

    def __init__(self, *, errors: list[str], **kwargs):
        super().__init__(**kwargs)
        self.errors = errors

    def runtest(self) -> None:
        raise CaseFailed("\n".join(self.errors))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return f"case file cannot be loaded ({len(self.errors)} problem(s)):\n" + "\n".join(self.errors)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: case file error"
