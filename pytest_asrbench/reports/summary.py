"""The terminal summary printed after a ``pytest --asrbench`` run (a run that is not whole,
interrupted, stopped early or a selection, starts with ``Not a whole run: <reason>``)::

    1 case file(s) could not be loaded (counted under no language):
      cases/fr-CA/bad.yaml
        cases/fr-CA/bad.yaml:4: case 'x': unknown kind 'scor'; the kinds are: ...

    language  cases  passed  failed  xfailed  skipped
    de           31      31       0        0        0
    hi           75      73       0        1        1

    1 case item(s) made no record (stopped before their case ran or finished; counted in ...):
      cases/hi/asr.yaml::hi-01: skipped, no record (setup: skipped: ...)

    corpus rates over the score and asr cases, against the recorded snapshots:
    language  metric   unit  cases  rate    recorded   change  new
    hi        stt_wer   WER     41  8.12%     8.12%   0.00 pt    0
    th        stt_wer   CER      8  205.68%  205.68%  0.00 pt    0

    th stt_wer CER 205.68% is above 100% and driven by 1 of 8 case(s), holding ... errors (94%); ...
      cases/th/asr.yaml::th-02: 164 error(s) over 9 reference chars, 159 insertion(s) > 2x its ...
    (each case's rate and alignment: --asrbench-report PATH)

(:mod:`pytest_asrbench.reports.drivers`: a rate above 100% or held by a few cases); the case
items that made no record (a setup that failed or skipped, an error before the case finished)
are counted in the first table and named under it. Then the failing or changed cases, one
line each (case id, ``file:line``, outcome, rate, and the first line of why it failed, cut to
the terminal's width as pytest's short test summary is), and the ``asr`` cases judged by
tolerance, not exactly (no native recording of this host, or kernel variables set)::

    1 failing or changed case(s):
      pair (cases/en/a.yaml:6): failed, rate 33.33% - rate is 0.3333333333333333, expected 0.0 (tol...
"""

from __future__ import annotations

from pytest_asrbench.reports.drivers import driven_rates
from pytest_asrbench.reports.formatting import (RATE_HEADERS, load_error_heading, partial_line, percent, rate_cells,
                                                text_table, unrecorded_heading, unrecorded_line)
from pytest_asrbench.reports.model import OUTCOMES, CaseEntry, RunReport
from pytest_asrbench.reports.reasons import case_id, failure_reason, location
from pytest_asrbench.scoring.alignment_view import display_width

#: At most this many failing or changed cases are named in the terminal (the reports list all).
MAX_NAMED = 30
#: At most this many problems of one case file that could not be loaded are shown (the reports list all).
MAX_PROBLEMS = 5


def case_facts(entry: CaseEntry) -> str:
    """What a failing or changed case's line says of it: its outcome, snapshot state and, for
    kinds that score, the rate now and as recorded (``failed, output changed, rate 50.00%
    (recorded 33.33%)``)."""
    parts = [entry.outcome]
    if entry.no_record:
        parts.append("no record")
    if entry.changed:
        parts.append("output changed")
    if entry.figures:
        recorded = f" (recorded {percent(entry.recorded['rate'])})" if entry.recorded else ""
        parts.append(f"rate {percent(entry.figures['rate'])}{recorded}")
    return ", ".join(parts)


def _case_head(entry: CaseEntry, node_id: bool = True) -> str:
    head = f"{case_id(entry)} ({location(entry)}): " if node_id else f"{location(entry)}: "
    return head + case_facts(entry)


def case_line(entry: CaseEntry, node_id: bool = True) -> str:
    """One line naming a failing or changed case: its id (with ``node_id``), ``file:line`` from
    the run's root, :func:`case_facts`, then `` - `` and the first line of why it failed
    (:func:`~pytest_asrbench.reports.reasons.failure_reason`; none for a case that passed).
    Nothing is cut (the Markdown summary's line; the terminal's is :func:`case_lines`)."""
    line, reason = _case_head(entry, node_id), failure_reason(entry)
    return f"{line} - {reason}" if reason else line


def case_lines(entry: CaseEntry, width: int | None = None) -> list[str]:
    """The terminal summary's lines of a failing or changed case, indented: :func:`case_line`
    when it fits ``width`` (terminal cells), else its head on one line and the reason on a
    second (:data:`REASON_INDENT`), cut to ``width`` as pytest's short test summary cuts its
    lines (ending in ``...``). At 80 columns the id, ``file:line`` and facts take most of a
    line, so the reason gets a line of its own rather than being cut away. ``None`` (CI,
    ``-vv``) cuts nothing: one line."""
    line = INDENT + case_line(entry)
    if width is None or display_width(line) <= width:
        return [line]
    head, reason = INDENT + _case_head(entry), failure_reason(entry)
    shown = _trimmed(reason, width - len(REASON_INDENT)) if reason else None
    return [head, REASON_INDENT + shown] if shown else [head]


#: The indent of each listed case in the terminal summary.
INDENT = "  "
#: The indent of a case's reason when it is wrapped to a line of its own (:func:`case_lines`).
REASON_INDENT = INDENT * 2 + "- "
_ELLIPSIS = "..."


def _trimmed(text: str, available: int) -> str | None:
    """``text`` cut to ``available`` terminal cells, ending in ``...`` when cut; ``None`` when
    not even the ellipsis fits (pytest's rule for its short test summary lines)."""
    if display_width(text) <= available:
        return text
    if available < len(_ELLIPSIS) + 1:
        return None
    cut = text[:available - len(_ELLIPSIS)]
    while display_width(cut) > available - len(_ELLIPSIS):
        cut = cut[:-1]
    return cut + _ELLIPSIS


def load_error_lines(report: RunReport) -> list[str]:
    """Each case file that could not be loaded: its path, then its problems (at most
    :data:`MAX_PROBLEMS`), indented; empty when every file loaded."""
    if not report.load_errors:
        return []
    lines = [load_error_heading(report)]
    for error in report.load_errors:
        lines.append(f"  {error.path}")
        lines += [f"    {problem}" for problem in error.problems[:MAX_PROBLEMS]]
        if len(error.problems) > MAX_PROBLEMS:
            lines.append(f"    ... {len(error.problems) - MAX_PROBLEMS} more problem(s) (--asrbench-report PATH "
                         "lists them all)")
    return lines


def summary_lines(report: RunReport, width: int | None = None) -> list[str]:
    """The summary as lines (no trailing newlines); empty when the run had no case items and
    loaded every case file. ``width``: the terminal's, to which each failing case's reason is
    cut (:func:`case_lines`: wrapped to a second line when the line is too long; ``None``: not cut)."""
    languages, loading = report.languages(), load_error_lines(report)
    head = [partial_line(report)] if report.partial else []
    if not languages:
        return head + ([""] if head and loading else []) + loading
    lines = head + ([""] if head else []) + ([*loading, ""] if loading else []) + text_table(["language", "cases", *OUTCOMES],
                       [[row.language, str(row.total), *(str(row.counts[o]) for o in OUTCOMES)] for row in languages],
                       indent="")
    unrecorded = report.unrecorded()
    if unrecorded:
        lines += ["", unrecorded_heading(report)]
        lines += [f"  {unrecorded_line(entry)}" for entry in unrecorded[:MAX_NAMED]]
        if len(unrecorded) > MAX_NAMED:
            lines.append(f"  ... {len(unrecorded) - MAX_NAMED} more (--asrbench-report PATH lists them all)")
    rates = report.rates()
    if rates:
        against = "the snapshots as they were before this re-recording" if report.updating else "the recorded snapshots"
        lines += ["", f"corpus rates over the score and asr cases, against {against}:"]
        lines += text_table(RATE_HEADERS, [rate_cells(row) for row in rates], indent="")
        driven = driven_rates(report)
        for rate in driven:
            lines += ["", *rate.lines()]
        if driven:
            lines.append("(each case's rate and alignment: --asrbench-report PATH)")
    shown = report.shown()
    if shown:
        lines += ["", f"{len(shown)} failing or changed case(s):"]
        lines += [line for entry in shown[:MAX_NAMED] for line in case_lines(entry, width)]
        if len(shown) > MAX_NAMED:
            lines.append(f"  ... {len(shown) - MAX_NAMED} more (--asrbench-report PATH lists them all)")
    if report.fingerprint_lines:
        lines += ["", *report.fingerprint_lines]
    return lines
