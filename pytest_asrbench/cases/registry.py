"""The case-kind registry: what a runner is, what it gets from the run, and the runners by kind.

A kind module (``cases/kinds/<kind>.py``) imports :func:`register` from here; nothing here
imports a kind module, so the registry and its members form no import cycle.

A runner also declares what of its output is recorded and how the version gate treats its
snapshot, through two optional members (defaults in brackets), read only through
:func:`snapshot_view_of` and :func:`snapshot_rules_of`:

- ``snapshot_view(output) -> dict``: what is recorded of ``CaseResult.output`` [all of it
  but :data:`VERSION_FIELDS`, top level];
- ``snapshot_rules``: a :class:`SnapshotRules` [``SnapshotRules()``].

So the case items compare and gate every kind alike, with no branch per kind. Two more
optional members serve the commands around the cases, read through their ``*_of`` helpers:

- ``exported_pairs(case, recorded) -> [ExportedPair, ...]``: the reference/hypothesis pairs
  ``asrbench export sclite`` writes for a case (:func:`exported_pairs_of`) [none];
- ``intake``: an :class:`IntakeForm`, the fields ``asrbench add-case`` asks for
  (:func:`intake_form_of`) [the kind cannot be added from the command line].
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from pytest_asrbench.cases.model import Case, CaseResult


@dataclass(frozen=True)
class RunContext:
    """What a runner may need from the pytest run: its root folder, its config (options),
    whether failure messages may hold ANSI colour (the run's terminal has markup; the item's
    failure report strips them everywhere else, JUnit XML and xdist included), and the
    snapshot session's mode (:mod:`pytest_asrbench.snapshot.session` decides both):
    ``updating`` under ``--snapshot-update``, ``adding_fingerprints`` when this host's kernel
    fingerprint may be added to an ``asr`` recording (``--asrbench-record-fingerprint``).
    ``headlines``: the figures of a scoring case carry their headline alignments and error
    tally (:data:`pytest_asrbench.cases.figures.HEADLINE_KEYS`), which only the run's report
    files read; a run that writes none leaves them out (``False``)."""

    rootpath: Path
    pytest_config: Any = None
    color: bool = False
    updating: bool = False
    adding_fingerprints: bool = False
    headlines: bool = True

    def recorded(self, case: Case) -> Any:
        """The case's recorded snapshot as parsed JSON, or ``None`` when none is recorded (or
        outside pytest). A runner whose output extends its recording (the ``asr`` kind keeps
        one transcript per kernel fingerprint) reads it here.

        Raises:
            AsrbenchError: the snapshot file exists but is not valid JSON (names the file).
        """
        if self.pytest_config is None:
            return None
        from pytest_asrbench.errors import AsrbenchError
        from pytest_asrbench.snapshot_layout import snapshot_dir

        config = self.pytest_config
        folder = snapshot_dir(config.rootpath, config.getini("asrbench_snapshot_dir") or "snapshots", case.file,
                              config.getini("asrbench_case_dirs"))
        path = folder / f"{case.id}.json"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise AsrbenchError(f"{path}: the recorded snapshot is not valid JSON ({exc}); restore it from git "
                                "or delete it and re-record with --snapshot-update") from exc


#: Output fields a case snapshot holds only where a kind says so: versions are checked by the
#: signature cases (and recorded in run records), so a version bump that moves no output
#: rewrites no case snapshot.
VERSION_FIELDS = ("version", "config_version")


@dataclass(frozen=True)
class SnapshotRules:
    """How ``--snapshot-update`` treats a kind's snapshot (the version gate,
    :mod:`pytest_asrbench.signatures.version_gate`).

    ``explains_refusal``: a refused re-recording is explained in full at this case (the
    pair's signature case); other cases point to it. ``patch_rule``: under a patch-only bump
    a recorded output that differs is refused (a new one is recorded). ``reviewable``: in
    pending mode (``--asrbench-pending``) a change is kept for review instead of written.
    """

    explains_refusal: bool = False
    patch_rule: bool = True
    reviewable: bool = True
    #: The case records the signature of its (metric, language): the version gate reads it,
    #: and it may name a metric of a signature provider (the benchmark's ``th_bench_cer``).
    records_signature: bool = False


@dataclass(frozen=True)
class ExportedPair:
    """One reference/hypothesis pair a case exports (raw texts), and where its hypothesis came
    from when that is not the case file itself (``note``, else ``None``)."""

    reference: str
    hypothesis: str
    note: str | None = None


#: The reviewer's inputs ``asrbench add-case`` knows, by the case field each fills:
#: ``reference``/``hypothesis`` (``--reference``/``--hypothesis``), ``text`` (one ``--text``),
#: ``texts`` (``--text`` repeated), ``expect`` (``--expect``, the normalized form) and
#: ``expect_rate`` (``--expect-rate``).
INTAKE_INPUTS = ("reference", "hypothesis", "text", "texts", "expect", "expect_rate")


@dataclass(frozen=True)
class IntakeForm:
    """What ``asrbench add-case`` asks for a kind (:data:`INTAKE_INPUTS` names the inputs).

    ``inputs``: the inputs the kind takes, all required but ``expect_rate``; ``least_texts``:
    how many ``--text`` values a ``texts`` kind needs; ``unordered``: two cases with the same
    texts in another order are the same example; ``rate_now``: a case given no expected rate
    records the rate it scores now (said to the reviewer).

    Raises:
        ValueError: an input is not one of :data:`INTAKE_INPUTS`.
    """

    inputs: tuple[str, ...]
    least_texts: int = 0
    unordered: bool = False
    rate_now: bool = False

    def __post_init__(self) -> None:
        unknown = sorted(set(self.inputs) - set(INTAKE_INPUTS))
        if unknown:
            raise ValueError(f"unknown add-case inputs {unknown}; known: {', '.join(INTAKE_INPUTS)}")


class Runner(Protocol):
    kind: ClassVar[str]

    def run(self, case: Case, context: RunContext) -> CaseResult: ...


def snapshot_view_of(runner: Runner, output: dict[str, Any]) -> dict[str, Any]:
    """What is recorded of ``output`` (a runner's ``CaseResult.output``): the runner's own
    ``snapshot_view``, else all of it but :data:`VERSION_FIELDS` (top level)."""
    view = getattr(runner, "snapshot_view", None)
    if view is not None:
        return view(output)
    return {key: value for key, value in output.items() if key not in VERSION_FIELDS}


def snapshot_rules_of(runner: Runner) -> SnapshotRules:
    """The runner's :class:`SnapshotRules` (its ``snapshot_rules``, else the defaults).

    Raises:
        TypeError: the runner's ``snapshot_rules`` is not a :class:`SnapshotRules`.
    """
    rules = getattr(runner, "snapshot_rules", None)
    if rules is None:
        return SnapshotRules()
    if not isinstance(rules, SnapshotRules):
        raise TypeError(f"case kind {runner.kind!r}: snapshot_rules must be a SnapshotRules, got "
                        f"{type(rules).__name__}")
    return rules


def exported_pairs_of(runner: Runner, case: Case, recorded) -> list[ExportedPair]:
    """The pairs ``case`` exports to sclite (none when its kind exports nothing).

    Args:
        recorded: a callable returning the case's recorded snapshot as parsed JSON (or
            ``None`` when none is recorded); only kinds whose hypothesis is recorded call it.
    """
    pairs = getattr(runner, "exported_pairs", None)
    return [] if pairs is None else list(pairs(case, recorded))


def intake_form_of(runner: Runner) -> IntakeForm | None:
    """The runner's :class:`IntakeForm` (``None``: ``asrbench add-case`` does not offer the kind).

    Raises:
        TypeError: the runner's ``intake`` is not an :class:`IntakeForm`.
    """
    form = getattr(runner, "intake", None)
    if form is not None and not isinstance(form, IntakeForm):
        raise TypeError(f"case kind {runner.kind!r}: intake must be an IntakeForm, got {type(form).__name__}")
    return form


RUNNERS: dict[str, Runner] = {}


def register(cls):
    """Class decorator: register an instance of ``cls`` under ``cls.kind``.

    The same class imported again (its module re-executed, as an in-process pytest run that
    restores ``sys.modules`` does) replaces its earlier instance.

    Raises:
        RuntimeError: a runner of another class is already registered for that kind.
    """
    known = RUNNERS.get(cls.kind)
    if known is not None and (type(known).__module__, type(known).__qualname__) != (cls.__module__, cls.__qualname__):
        raise RuntimeError(f"case kind {cls.kind!r} registered twice: by {type(known).__module__}."
                           f"{type(known).__qualname__} and {cls.__module__}.{cls.__qualname__}")
    RUNNERS[cls.kind] = cls()
    return cls
