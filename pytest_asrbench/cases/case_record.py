"""What one case item tells the run summary, the reports and JUnit XML, as plain JSON-able
data (it travels from an xdist worker to the controller on the test report).

A record is ``{"id", "file", "line", "language", "kind", "hypothesis_name", "metric", "version",
"config_version", "snapshot", "figures", "recorded", "note"}``: ``hypothesis_name`` is what
the kind calls its hypothesis (its runner's ``hypothesis_name``: ``"transcript"`` for ``asr``,
else ``"hypothesis"``); ``version`` is the metric's
version in code (``scoring/metrics.py``), ``config_version`` the language config's;
``snapshot`` says how the output compared with its recording: ``"same"``, ``"changed"``
(the recording differs; under ``--snapshot-update`` it was rewritten), ``"new"`` (nothing was
recorded) or ``"kept"`` (the case could not run, its recording was kept), ``None`` before
the comparison; ``figures`` and ``recorded`` are :mod:`pytest_asrbench.cases.figures` dicts
(kinds that score) or ``None``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest_asrbench._shared.caches as caches
from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring.metrics import METRICS



@lru_cache(maxsize=None)
def _relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (both resolved), or as given outside it; one resolution
    per case file and run, not per case."""
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


caches.register(_relative.cache_clear, "cases.case_record._relative")


def _config_version(language: str) -> str | None:
    try:
        return get_config(language).version
    except (AsrbenchError, ValueError):  # an unknown language fails the case itself, with its own message
        return None


def case_record(case: Case, result: CaseResult | None, root: Path) -> dict[str, Any]:
    """The record of ``case`` (``result`` ``None``: it could not run); ``file`` is relative to
    ``root`` (the run's rootdir) where it lies inside it."""
    metric = METRICS.get(case.metric)
    return {
        "id": case.id,
        "file": _relative(case.file, root),
        "line": case.line,
        "language": case.language,
        "kind": case.kind,
        "hypothesis_name": _hypothesis_name(case.kind),
        "metric": case.metric,
        "version": metric.version if metric else None,
        "config_version": _config_version(case.language),
        "snapshot": None,
        "figures": result.figures if result else None,
        "recorded": result.recorded_figures if result else None,
        "note": case.note,
    }


def _hypothesis_name(kind: str) -> str:
    from pytest_asrbench.cases.kinds import get_runner

    return getattr(get_runner(kind), "hypothesis_name", "hypothesis")  # the loader refused unknown kinds


def snapshot_state(recorded: str | None, obtained: str | None) -> str:
    """How an output compared with its recording (JSON texts; ``recorded`` ``None``: none)."""
    if recorded is None:
        return "new"
    return "same" if recorded == obtained else "changed"


def junit_properties(record: dict[str, Any]) -> list[tuple[str, Any]]:
    """The ``(name, value)`` pairs a case item carries as JUnit XML properties
    (``record_property``): ``metric``, ``version`` (the metric's), ``config_version``,
    ``language``, ``kind``, and for kinds that score ``rate`` (``None`` written as ``""``: an
    empty reference), ``errors`` and ``reference_length``."""
    properties = [("metric", record["metric"]), ("version", record["version"] or ""),
                  ("config_version", record["config_version"] or ""), ("language", record["language"]),
                  ("kind", record["kind"])]
    figures = record["figures"]
    if figures:
        properties += [("rate", "" if figures["rate"] is None else figures["rate"]), ("errors", figures["errors"]),
                       ("reference_length", figures["reference_length"])]
    return properties
