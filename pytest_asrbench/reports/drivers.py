"""The cases that drive a corpus rate of the reports' rate table
(:mod:`pytest_asrbench.scoring.rate_drivers`: a rate above 100%, or one that a few cases
hold most of), named under the table by every output.

A case's insertions are counted in the alignment the reports show for it
(:mod:`pytest_asrbench.reports.alignments`): its figures' normalized pairs, or their
headline forms when a view changed them, realigned (a recording keeps only error spans).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pytest_asrbench.reports.model import CaseEntry, RateRow, RunReport
from pytest_asrbench.scoring.alignment import align_counts
from pytest_asrbench.scoring.rate_drivers import UNIT_NAMES, RateDrivers, UtteranceErrors, driver_lines, rate_drivers


@dataclass(frozen=True)
class DrivenRate:
    """A row of the rate table and the cases that drive its rate."""

    row: RateRow
    drivers: RateDrivers

    def lines(self) -> list[str]:
        """The heading, then one indented line per named case (the terminal's form:
        :func:`~pytest_asrbench.scoring.rate_drivers.driver_lines`, as ``asrbench bench`` prints it)."""
        rate = "n/a" if self.row.rate is None else f"{self.row.rate:.2%}"
        return driver_lines(f"{self.row.language} {self.row.metric} {self.row.label} {rate}", self.drivers,
                            self.row.unit, "case")

    def heading(self) -> str:
        """``"<language> <metric> <WER|CER> <rate> is driven by ..."``."""
        return self.lines()[0]

    def described(self) -> list[tuple[str, str]]:
        """``(case node id, what it holds)`` per named case."""
        return self.drivers.described(UNIT_NAMES[self.row.unit])


def _insertions(figures: dict[str, Any]) -> int:
    """The insertions of the alignments the reports show for these figures."""
    headline = figures.get("headline") or [None] * len(figures["pairs"])
    total = 0
    for (reference, hypothesis), shown in zip(figures["pairs"], headline):
        if shown is not None:
            reference, hypothesis = shown["reference"], shown["hypothesis"]
        total += align_counts(reference, hypothesis, figures["unit"])[3]
    return total


def _counts(entry: CaseEntry) -> UtteranceErrors:
    figures = entry.figures
    # a column a view rescued counts correct, so the counted errors can be below the shown
    # alignment's insertions: the insertions named are at most the errors counted
    return UtteranceErrors(entry.nodeid, figures["errors"], min(_insertions(figures), figures["errors"]),
                           figures["reference_length"])


def driven_rates(report: RunReport) -> list[DrivenRate]:
    """The rows of ``report.rates()`` whose rate needs a pointer, in the table's order.

    Which cases are named depends on errors and reference lengths only, so insertions are
    counted (a realignment) for the named cases alone."""
    found = []
    for row in report.rates():
        members = {entry.nodeid: entry for entry in report.entries
                   if entry.figures and (entry.language, entry.record["metric"]) == (row.language, row.metric)}
        drivers = rate_drivers(UtteranceErrors(nodeid, entry.figures["errors"], 0, entry.figures["reference_length"])
                               for nodeid, entry in members.items())
        if drivers is not None:
            named = tuple(_counts(members[item.ident]) for item in drivers.named)
            found.append(DrivenRate(row, replace(drivers, named=named)))
    return found
