"""The clips that drive a rate of ``asrbench bench score``'s table, named under it: a rate
above 100%, or one that a few clips hold most of (:mod:`pytest_asrbench.scoring.rate_drivers`,
the rule and the lines the run summary and the reports print for cases too).

Each set's row, and the overall one (its clips named ``<set>/<id>``), of the system scored
and, with ``--compare``, of the second system.
"""

from __future__ import annotations

from pytest_asrbench.bench.scoring.corpus import BenchmarkScores, SystemScore
from pytest_asrbench.scoring.rate_drivers import UtteranceErrors, driver_lines, rate_drivers


def _system_lines(subject: str, system: SystemScore, unit: str) -> list[str]:
    drivers = rate_drivers(UtteranceErrors(ident, counts.errors, counts.insertions, counts.reference_length)
                           for ident, counts in system.clip_counts)
    return [] if drivers is None else driver_lines(subject, drivers, unit, "clip")


def driver_lines_of(scores: BenchmarkScores) -> list[str]:
    """The pointer lines of every row of the table (each set, then the overall; ``--compare``'s
    system after the first) whose rate needs one, a blank line before each, and where the
    named clips' texts are; empty when no rate needs one."""
    unit, label = scores.measure.unit, scores.measure.label
    lines: list[str] = []
    for result in (*scores.sets, scores.overall):
        for name, system in (("", result.system), (" (compare)", result.other)):
            if system is None:
                continue
            rate = "n/a" if system.counts.rate is None else f"{system.counts.rate:.2%}"
            found = _system_lines(f"{result.name}{name} {label} {rate}", system, unit)
            lines += ["", *found] if found else []
    if lines:
        lines.append("(each named clip's texts: <folder>/<set>.jsonl, by id)")
    return lines
