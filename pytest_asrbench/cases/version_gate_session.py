"""The version gate inside a pytest session: one :class:`SessionGate` per run, in ``config.stash``.

pytest-facing glue (this and :mod:`.items` are the modules of ``cases/`` that import pytest):
while a run re-records (the snapshot session, :mod:`pytest_asrbench.snapshot.session`, knows
whether it does; nothing here reads the option), the session and the signature case kind ask
here whether the gate lets a case be re-recorded.
"""

from __future__ import annotations

import pytest

from pytest_asrbench.cases.signature_files import project_gate
from pytest_asrbench.signatures.patch_deferrals import Deferrals, PendingRewrite
from pytest_asrbench.signatures.version_gate import SessionGate

GATE_KEY = pytest.StashKey[SessionGate]()
DEFERRALS_KEY = pytest.StashKey[Deferrals]()
_DEFAULT_GATE: list[SessionGate] = []


def session_gate(config: pytest.Config | None) -> SessionGate:
    """The gate of a pytest session (kept in ``config.stash``), or, with ``config=None``,
    one over the installed package's own case folders."""
    if config is None:
        if not _DEFAULT_GATE:
            from pytest_asrbench.signatures.sources import installed_source

            _DEFAULT_GATE.append(project_gate(installed_source().root))
        return _DEFAULT_GATE[0]
    gate = config.stash.get(GATE_KEY, None)
    if gate is None:
        gate = project_gate(config.rootpath, config.getini("asrbench_case_dirs"))
        config.stash[GATE_KEY] = gate
    return gate


def update_refusal(case, config: pytest.Config | None, *, full: bool = False) -> str | None:
    """The reason not to re-record ``case`` (a :class:`~pytest_asrbench.cases.model.Case`) in
    a run that re-records: its (metric, language) signature changed without a version bump,
    or the recorded signatures cannot be read. ``None`` when re-recording is allowed. With
    ``full`` the refusal is explained in full (the pair's signature case); otherwise it points
    to that case. Ask only while re-recording."""
    return session_gate(config).update_refusal(gated_metric(case), case.language, full=full)


def patch_bump_refusal(case, config: pytest.Config | None) -> str | None:
    """In a run that re-records, the reason not to re-record ``case`` *if its output
    changed*: the (metric, language) bump is patch-level only (x.y.Z), which promises that
    no recorded output moves. The caller compares first and refuses only a changed output."""
    return session_gate(config).patch_bump_refusal(gated_metric(case), case.language)


def deferrals(config: pytest.Config) -> Deferrals:
    """This process's patch-bump :class:`~pytest_asrbench.signatures.patch_deferrals.Deferrals`
    (kept in ``config.stash``; an xdist worker sends its own to the controller)."""
    found = config.stash.get(DEFERRALS_KEY, None)
    if found is None:
        found = config.stash[DEFERRALS_KEY] = Deferrals()
    return found


def defer_rewrite(config: pytest.Config, pending: PendingRewrite) -> None:
    """Hold a patch-bumped signature case's re-recording until the end of the run."""
    deferrals(config).defer(pending)


def note_patch_refusal(case, config: pytest.Config) -> None:
    """Note that ``case`` was refused by the patch rule: its pair's signature is then kept."""
    deferrals(config).refuse(gated_metric(case), case.language, case.where())


def gated_metric(case) -> str:
    """The metric whose signature gates ``case``: its kind's own choice when the kind's runner
    has a ``gated_metric(case)`` (the benchmark runner: ``th_bench_cer`` for Thai), else the
    case's ``metric``."""
    from pytest_asrbench.cases.registry import RUNNERS

    choose = getattr(RUNNERS.get(case.kind), "gated_metric", None)
    return choose(case) if choose is not None else case.metric
