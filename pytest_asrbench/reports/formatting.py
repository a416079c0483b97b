"""Figures as the reports print them, one rule for every output: rates as percentages with two
decimals, changes in percentage points with a sign, and plain tables for the terminal."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_asrbench.reports.model import CaseEntry, ErrorRow, RateRow, RunReport


def partial_line(report: RunReport) -> str | None:
    """``"Not a whole run: <reason>"`` for a run that is not whole (interrupted, stopped early,
    case items deselected: :attr:`RunReport.partial`), else ``None``: every output states it
    first, so a subset's tables are not read as the whole suite's."""
    return f"Not a whole run: {report.partial}" if report.partial else None


def load_error_heading(report: RunReport) -> str:
    """The line that introduces the case files the run could not load (every output's)."""
    return f"{len(report.load_errors)} case file(s) could not be loaded (counted under no language):"


def unrecorded_heading(report: RunReport) -> str:
    """The line that introduces the case items that made no record (every output's)."""
    return (f"{len(report.unrecorded())} case item(s) made no record (stopped before their case ran or finished; "
            "counted in the tables with their outcome, without figures):")


def unrecorded_line(entry: CaseEntry) -> str:
    """``"<node id>: <outcome>, no record (<phase>: <reason>)"``."""
    return f"{entry.nodeid}: {entry.outcome}, no record ({entry.no_record})"


def percent(rate: float | None) -> str:
    """``0.125`` -> ``"12.50%"``; ``None`` (no reference words) -> ``"n/a"``."""
    return "n/a" if rate is None else f"{rate:.2%}"


def points(change: float | None) -> str:
    """A rate change in percentage points: ``0.0043`` -> ``"+0.43 pt"``, ``0`` -> ``"0.00 pt"``
    (also for changes that round to zero, so no ``-0.00``), ``None`` (nothing recorded to
    compare with) -> ``"n/a"``."""
    if change is None:
        return "n/a"
    if round(change * 100, 2) == 0:
        return "0.00 pt"
    return f"{change * 100:+.2f} pt"


def change_text(row: RateRow) -> str:
    """The change of a corpus-rate row, saying which of its cases are new (no recording to
    compare with): ``"new"`` when none has a recording, ``"+0.43 pt, 1 new"`` when some are
    new (the change is over the recorded ones only), else :func:`points` (``"0.00 pt"`` then
    means unchanged, never "nothing to compare")."""
    if row.compared == 0:
        return "new"
    return f"{points(row.change)}, {row.new} new" if row.new else points(row.change)


def rate_cells(row: RateRow) -> list[str]:
    """The cells of one corpus-rate row: language, metric, unit label, cases, rate, recorded
    rate, change (:func:`change_text`), and how many cases had no recording."""
    return [row.language, row.metric, row.label, str(row.cases), percent(row.rate), percent(row.recorded),
            change_text(row), str(row.new)]


#: The headers of :func:`rate_cells`.
RATE_HEADERS = ["language", "metric", "unit", "cases", "rate", "recorded", "change", "new"]


#: The headers of :func:`error_cells`.
ERROR_HEADERS = ["error", "count", "reference", "hypothesis"]


def error_heading(row: ErrorRow) -> str:
    """What an error summary covers and its totals: ``de stt_wer (WER, 3 cases): 12
    substitution(s) (9 distinct), 4 deletion(s) (3 distinct), 0 insertion(s)``."""
    totals, distinct = row.summary.totals, row.summary.distinct
    parts = [f"{totals[kind]} {kind[:-1]}(s)" + (f" ({distinct[kind]} distinct)" if totals[kind] else "")
             for kind in ("substitutions", "deletions", "insertions")]
    unit = "word" if row.unit == "word" else "character"
    untallied = f"; {row.untallied} case(s) without a tally, not counted" if row.untallied else ""
    return (f"{row.language} {row.metric} ({row.label}, {unit}s, {row.cases} case(s){untallied}): "
            + ", ".join(parts))


def error_cells(row: ErrorRow) -> list[list[str]]:
    """The rows of one error summary: its most frequent substitutions (reference and
    hypothesis token), then deletions (reference only) and insertions (hypothesis only), each
    count first; a space token of a character alignment shown as ``␣``."""
    from pytest_asrbench.scoring.alignment_view import shown_token

    def token(text: str) -> str:
        return shown_token(text, False)

    summary = row.summary
    return ([["substitution", str(count), token(ref), token(hyp)] for ref, hyp, count in summary.substitutions]
            + [["deletion", str(count), token(ref), ""] for ref, count in summary.deletions]
            + [["insertion", str(count), "", token(hyp)] for hyp, count in summary.insertions])


_FIGURE = re.compile(r"^([+-]?\d[\d.]*( ?%| pt)?(, \d+ new)?|n/a|new)$")


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """A plain-text table: columns of figures right-aligned, columns of names left-aligned, two
    spaces between columns (the cells are ASCII, so character counts are display widths)."""
    columns = list(zip(headers, *rows))
    widths = [max(len(cell) for cell in column) for column in columns]
    numeric = [bool(rows) and all(_FIGURE.match(cell) for cell in column[1:]) for column in columns]

    def line(cells: Sequence[str]) -> str:
        return (indent + "  ".join(f"{cell:>{width}}" if right else f"{cell:<{width}}"
                                   for cell, width, right in zip(cells, widths, numeric))).rstrip()

    return [line(headers), *(line(row) for row in rows)]
