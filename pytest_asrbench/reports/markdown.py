"""The Markdown summary (``--asrbench-markdown PATH``), for CI step summaries (GitHub's
``$GITHUB_STEP_SUMMARY``, GitLab and others render it): the case files that could not be
loaded (each with its problems; counted under no language), the per-language outcome table and
the case items that made no record (each with its reason), the corpus-rate table with the change against the recording, then each failing or changed case
with its aligned view in a code block, and the ``asr`` cases judged by tolerance (no native
recording of the host). Its size is bounded (GitHub takes at most 1 MiB per step summary): at most
:data:`MAX_CASES` cases are shown, the rest counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_asrbench.reports.alignments import hidden_pairs, pair_views
from pytest_asrbench.reports.formatting import ERROR_HEADERS, RATE_HEADERS, error_cells, error_heading, rate_cells
from pytest_asrbench.reports.model import OUTCOMES, RunReport
from pytest_asrbench.reports.drivers import driven_rates
from pytest_asrbench.reports.formatting import load_error_heading, partial_line, unrecorded_heading, unrecorded_line
from pytest_asrbench.reports.summary import case_line
from pytest_asrbench.scoring.alignment_view import render_alignment

#: At most this many failing or changed cases get a section.
MAX_CASES = 50
#: Message lines shown per case.
MAX_MESSAGE_LINES = 40


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], text: frozenset[str] = frozenset()) -> list[str]:
    """A Markdown table: the first column and the ``text`` columns left-aligned, the others
    (figures) right-aligned."""
    right = ["---" if index == 0 or header in text else "---:" for index, header in enumerate(headers)]
    return ["| " + " | ".join(headers) + " |", "| " + " | ".join(right) + " |",
            *("| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows)]


def _fence(text: str) -> str:
    """A code fence longer than any backtick run in ``text`` (CommonMark), at least three."""
    ticks = 3
    while "`" * ticks in text:
        ticks += 1
    return "`" * ticks


def _block(text: str) -> list[str]:
    fence = _fence(text)
    return [f"{fence}text", text, fence]


def _errors(report: RunReport) -> list[str]:
    """The error summary of each language and metric: its totals, then a table of its most
    frequent substitutions, deletions and insertions (the headline alignments')."""
    rows = report.errors()
    lines = ["", f"Most frequent errors (at most {rows[0].summary.top} of each kind; the headline alignments, so a "
                 "rescued code-switch region is no error):", ""] if rows else []
    for row in rows:
        cells = error_cells(row)
        lines += [f"- {error_heading(row)}", ""]
        if cells:
            lines += [*_table(ERROR_HEADERS, cells, text=frozenset({"reference", "hypothesis"})), ""]
    return lines


def _load_errors(report: RunReport) -> list[str]:
    """Each case file that could not be loaded, with all its problems in a code block."""
    if not report.load_errors:
        return []
    lines = [f"### {load_error_heading(report).rstrip(':')}", ""]
    for error in report.load_errors:
        lines += [f"- `{error.path}`", "", *_block("\n".join(error.problems)), ""]
    return lines


def render_markdown(report: RunReport) -> str:
    """The Markdown text (ends with a newline)."""
    lines = [f"## {report.title}", ""] + ([f"`{report.command}`", ""] if report.command else [])
    partial = partial_line(report)
    if partial:
        lines += [f"> **{_cell(partial)}**", ""]
    lines += _load_errors(report)
    languages = report.languages()
    if not languages:
        return "\n".join([*lines, "No case items ran.", ""])
    lines += _table(["language", "cases", *OUTCOMES],
                    [[row.language, str(row.total), *(str(row.counts[o]) for o in OUTCOMES)] for row in languages])
    unrecorded = report.unrecorded()
    if unrecorded:
        lines += ["", f"### {unrecorded_heading(report).rstrip(':')}", "",
                  *(f"- {_cell(unrecorded_line(entry))}" for entry in unrecorded)]
    rates = report.rates()
    if rates:
        lines += ["", "Corpus rates (micro-averaged over the score and asr cases) and their change against "
                      + ("the snapshots before this re-recording:" if report.updating else "the recorded snapshots:"),
                  ""]
        lines += _table(RATE_HEADERS, [rate_cells(row) for row in rates])
        for rate in driven_rates(report):
            lines += ["", rate.heading(), "", *(f"- `{ident}`: {text}" for ident, text in rate.described())]
        lines += _errors(report)
    shown = report.shown()
    if shown:
        lines += ["", f"### {len(shown)} failing or changed case(s)", ""]
        for entry in shown[:MAX_CASES]:
            lines += [f"#### `{entry.nodeid}`", "", _cell(case_line(entry, node_id=False)), ""]
            for view in pair_views(entry):
                legend = " (R: rescued, counted correct)" if view.rescued else ""
                lines += [f"{view.label}{legend}:", *_block(render_alignment(view.alignment, rescued=view.rescued)), ""]
            if hidden_pairs(entry):
                lines += [f"... {hidden_pairs(entry)} more pair(s) in the snapshot", ""]
            if entry.message:
                message = entry.message.splitlines()
                if len(message) > MAX_MESSAGE_LINES:
                    message = message[:MAX_MESSAGE_LINES] + [f"... {len(message) - MAX_MESSAGE_LINES} more line(s)"]
                lines += ["<details><summary>message</summary>", "", *_block("\n".join(message)), "", "</details>", ""]
        if len(shown) > MAX_CASES:
            lines += [f"... and {len(shown) - MAX_CASES} more (the HTML report, --asrbench-report PATH, lists all)", ""]
    if report.fingerprint_lines:
        lines += ["", "### ASR cases judged by tolerance", "", *_block("\n".join(report.fingerprint_lines))]
    return "\n".join(lines).rstrip("\n") + "\n"
