"""The HTML report (``--asrbench-report PATH``): one self-contained page to hand a linguist.

What it holds, top to bottom: the run's title and totals; the case files that could not be
loaded, each with its problems (``#load-errors``: no case, counted under no language); filters
by language and kind; the per-language table of outcomes (``#languages``); the corpus-rate table (``#rates``) and the
chart of each rate's change against the recording (``#rate-chart``, :mod:`.chart`); every
failing or changed case (``#cases``) with its texts as written (an ``asr`` case's reference
and transcript, now and as recorded) and its aligned views (the terminal view's columns joined
into whole grapheme clusters: :func:`pytest_asrbench.reports.alignments.cluster_cells`) and
its message; a table of all cases (``#all-cases``); the ``asr`` cases judged by tolerance.

Self-contained: styles and the one small script are inline; no font, image, script or style
is fetched. Readable without JavaScript: everything is shown and the filters (a progressive
enhancement) stay hidden; with it, choosing a language or kind hides the other rows, cases and
chart bars. Every text from a case is HTML-escaped.
"""

from __future__ import annotations

from html import escape

from pytest_asrbench.reports.alignments import PairView, cluster_cells, hidden_pairs, pair_views
from pytest_asrbench.reports.chart import change_chart
from pytest_asrbench.reports.formatting import ERROR_HEADERS, RATE_HEADERS, error_cells, error_heading, percent, rate_cells
from pytest_asrbench.reports.drivers import driven_rates
from pytest_asrbench.reports.formatting import load_error_heading, partial_line, unrecorded_heading, unrecorded_line
from pytest_asrbench.reports.model import OUTCOMES, CaseEntry, RunReport
from pytest_asrbench.reports.reasons import failure_reason, location

#: Fonts for every script the shipped languages use, named before the generic family so a
#: browser does not fall back to a font without them (empty boxes): the Noto families of
#: Debian's fonts-noto-core (Devanagari, Thai) and fonts-noto-cjk (Han, kana, Hangul), then
#: the system fonts of Windows and macOS for the same scripts.
SCRIPT_FONTS = ("'Noto Sans Devanagari','Noto Sans Thai','Noto Sans CJK SC','Noto Sans CJK JP','Noto Sans CJK KR',"
                "'Nirmala UI','Leelawadee UI','Microsoft YaHei','Yu Gothic','Malgun Gothic',"
                "'Kohinoor Devanagari','Thonburi','PingFang SC','Hiragino Sans','Apple SD Gothic Neo'")
#: The page's font stack and the aligned views' (a monospace face first: none covers these scripts).
FONT_STACK = f"system-ui,'Noto Sans',{SCRIPT_FONTS},sans-serif"
MONO_STACK = f"ui-monospace,'Noto Sans Mono','DejaVu Sans Mono',{SCRIPT_FONTS},monospace"

STYLE = """
body{font-family:FONT_STACK;margin:1.5rem auto;max-width:70rem;padding:0 1rem;color:#111;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1rem;margin:.2rem 0}
table{border-collapse:collapse;margin:.5rem 0}th,td{padding:.2rem .55rem;border:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{background:#f3f4f6}
.failed{color:#b3261e;font-weight:bold}.xfailed{color:#8a5a00}.passed{color:#1b7f3b}
.case{border:1px solid #ddd;border-left:4px solid #b3261e;padding:.5rem .8rem;margin:.8rem 0}
.case.changed-only{border-left-color:#8a5a00}
#partial{border:1px solid #8a5a00;background:#fff4d6;padding:.5rem .8rem;font-weight:bold}
.scroll{overflow-x:auto}
table.alignment td,table.alignment th{border:none;padding:.05rem .35rem;text-align:left;white-space:pre;
font-family:MONO_STACK}
dl.texts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0}
dl.texts dt{color:#555}dl.texts dd{margin:0}
table.alignment td.S{background:#fff4d6}table.alignment td.D{background:#fde2e1}table.alignment td.I{background:#ddf4e4}
table.alignment td.R{background:#e3ecfb}
table.alignment tr.marks td{font-weight:bold;color:#555}
pre{background:#f6f8fa;padding:.5rem;overflow-x:auto;white-space:pre-wrap}
#filters{margin:1rem 0;padding:.5rem;background:#f3f4f6}#filters label{margin-right:1rem}
svg{max-width:100%;height:auto}
[hidden]{display:none!important}
""".replace("MONO_STACK", MONO_STACK).replace("FONT_STACK", FONT_STACK)

SCRIPT = """
(function () {
  var filters = document.getElementById('filters');
  var language = document.getElementById('filter-language');
  var kind = document.getElementById('filter-kind');
  filters.hidden = false;
  function apply() {
    var shown = 0;
    document.querySelectorAll('[data-language]').forEach(function (node) {
      var hide = (language.value && node.getAttribute('data-language') !== language.value) ||
                 (kind.value && node.hasAttribute('data-kind') && node.getAttribute('data-kind') !== kind.value);
      node.toggleAttribute('hidden', !!hide);
      if (!hide && node.classList.contains('case')) { shown += 1; }
    });
    document.getElementById('shown-count').textContent = String(shown);
  }
  language.addEventListener('change', apply);
  kind.addEventListener('change', apply);
  apply();
}());
"""


def _options(values: list[str]) -> str:
    return "".join(f'<option value="{escape(value)}">{escape(value)}</option>' for value in values)


def _written(view: PairView, name: str) -> str:
    """The pair's texts as written; ``name`` is what the case kind calls its hypothesis (the
    record's ``hypothesis_name``: an ``asr`` case's is its transcript)."""
    if view.written is None:
        return ""
    reference, hypothesis = view.written
    return (f'<dl class="texts"><dt>reference ({escape(view.label)})</dt><dd dir="auto">{escape(reference)}</dd>'
            f'<dt>{name} ({escape(view.label)})</dt><dd dir="auto">{escape(hypothesis)}</dd></dl>')


def _alignment(view: PairView, name: str) -> str:
    cells = cluster_cells(view.alignment, view.rescued)
    if not cells:
        return _written(view, name) + f"<p>{escape(view.label)}: both sides empty</p>"
    rows = []
    for head, part in (("REF", "reference"), ("HYP", "hypothesis"), ("", "marks")):
        row = "".join(f'<td dir="auto" class="{" ".join(cell.marks) or "ok"}">{escape(getattr(cell, part))}</td>'
                      for cell in cells)
        rows.append(f'<tr{" class=marks" if part == "marks" else ""}><th>{head}</th>{row}</tr>')
    legend = "<p>R: rescued, counted correct (the rate does not count it).</p>" if view.rescued else ""
    return (_written(view, name) + f'<div class="scroll"><table class="alignment" aria-label="{escape(view.label)}">'
            f'<caption>{escape(view.label)}</caption>{"".join(rows)}</table></div>' + legend)


def _case(entry: CaseEntry) -> str:
    record = entry.record
    facts = [f'<span class="{entry.outcome}">{entry.outcome}</span>']
    if entry.changed:
        facts.append("output changed against its recording")
    if entry.figures:
        facts.append(f"{record.get('metric')} {record.get('version') or ''}: rate {percent(entry.figures['rate'])}"
                     + (f", recorded {percent(entry.recorded['rate'])}" if entry.recorded else ", nothing recorded"))
    if record.get("note"):
        facts.append(f"note: {escape(record['note'])}")
    parts = [f"<h3>{escape(entry.nodeid)}</h3>", f"<p>{' · '.join(facts)}</p>",
             f'<p class="reason"><code>{escape(location(entry))}</code>'
             + (f": {escape(failure_reason(entry))}" if entry.outcome == "failed" else "") + "</p>"]
    name = entry.record.get("hypothesis_name", "hypothesis")
    parts += [_alignment(view, name) for view in pair_views(entry)]
    if hidden_pairs(entry):
        parts.append(f"<p>{hidden_pairs(entry)} more pair(s) in the snapshot.</p>")
    if entry.message:
        parts.append(f"<details><summary>message</summary><pre>{escape(entry.message)}</pre></details>")
    style = "case" if entry.outcome == "failed" else "case changed-only"
    return (f'<article class="{style}" lang="{escape(entry.language)}" data-language="{escape(entry.language)}" '
            f'data-kind="{escape(entry.kind)}">'
            + "".join(parts) + "</article>")


def _table(table_id: str, headers: list[str], rows: list[tuple[dict[str, str], list[str]]]) -> str:
    head = "".join(f"<th>{escape(header)}</th>" for header in headers)
    body = "".join(
        "<tr" + "".join(f' data-{name}="{escape(value)}"' for name, value in attributes.items()) + ">"
        + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>" for attributes, cells in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _errors(report: RunReport) -> str:
    """The ``#errors`` section: per language and metric, its totals and a table of its most
    frequent substitutions, deletions and insertions (filtered by language with the rest)."""
    rows = report.errors()
    if not rows:
        return ""
    parts = ['<h2 id="errors-heading">Most frequent errors</h2>',
             f"<p>Over the score and asr cases of each language and metric, at most {rows[0].summary.top} of each "
             "kind, most frequent first, counted in the headline alignments (a rescued code-switch region is no "
             "error).</p>"]
    for index, row in enumerate(rows):
        cells = error_cells(row)
        table = _table(f"errors-{index}", ERROR_HEADERS, [({"language": row.language}, cell) for cell in cells])
        parts.append(f'<div data-language="{escape(row.language)}" lang="{escape(row.language)}">'
                     f"<h3>{escape(error_heading(row))}</h3>{table if cells else ''}</div>")
    return '<section id="errors">' + "".join(parts) + "</section>"


def _drivers(report: RunReport) -> str:
    """The ``#rate-drivers`` notes: under the rate table, each rate above 100% or held by a few
    cases, with those cases (filtered by language with the rest)."""
    parts = [f'<div data-language="{escape(rate.row.language)}"><p>{escape(rate.heading())}</p><ul>'
             + "".join(f"<li><code>{escape(ident)}</code>: {escape(text)}</li>" for ident, text in rate.described())
             + "</ul></div>" for rate in driven_rates(report)]
    return '<section id="rate-drivers">' + "".join(parts) + "</section>" if parts else ""


def _load_errors(report: RunReport) -> str:
    """The ``#load-errors`` section: each case file that could not be loaded and every problem
    (never hidden by the language filter: such a file has no language)."""
    if not report.load_errors:
        return ""
    parts = [f'<h2 id="load-errors-heading">{escape(load_error_heading(report).rstrip(":"))}</h2>']
    for error in report.load_errors:
        parts.append(f"<h3>{escape(error.path)}</h3><pre>{escape(chr(10).join(error.problems))}</pre>")
    return '<section id="load-errors">' + "".join(parts) + "</section>"


def _unrecorded(report: RunReport) -> str:
    """The ``#unrecorded`` section: each case item that made no record, with its reason
    (filtered by language with the rest)."""
    unrecorded = report.unrecorded()
    if not unrecorded:
        return ""
    items = "".join(f'<li data-language="{escape(entry.language)}" data-kind="{escape(entry.kind)}">'
                    f"{escape(unrecorded_line(entry))}</li>"
                    for entry in unrecorded)
    return (f'<section id="unrecorded"><h2>{escape(unrecorded_heading(report).rstrip(":"))}</h2>'
            f"<ul>{items}</ul></section>")


def render_html(report: RunReport) -> str:
    """The page as one string (UTF-8 when written)."""
    languages, rates, shown = report.languages(), report.rates(), report.shown()
    totals = {outcome: sum(row.counts[outcome] for row in languages) for outcome in OUTCOMES}
    total_line = ", ".join(f"{count} {outcome}" for outcome, count in totals.items())
    if report.load_errors:
        total_line += f"; {len(report.load_errors)} case file(s) could not be loaded"
    language_table = _table("languages", ["language", "cases", *OUTCOMES], [
        ({"language": row.language}, [row.language, str(row.total), *(str(row.counts[o]) for o in OUTCOMES)])
        for row in languages])
    rate_table = _table("rates", RATE_HEADERS, [({"language": row.language}, rate_cells(row)) for row in rates])
    all_rows = [({"language": entry.language, "kind": entry.kind},
                 [entry.nodeid, entry.kind, entry.outcome,
                  percent(entry.figures["rate"]) if entry.figures else "",
                  "no record" if entry.no_record else entry.record.get("snapshot") or ""])
                for entry in sorted(report.entries, key=lambda e: (e.language, e.nodeid))]
    against = "the snapshots before this re-recording" if report.updating else "the recorded snapshots"
    sections = [
        f"<h1>{escape(report.title)}</h1>",
        f"<p><code>{escape(report.command)}</code></p>" if report.command else "",
        f'<p id="partial" role="note">{escape(partial_line(report))}</p>' if report.partial else "",
        f"<p>{len(report.entries)} case item(s): {escape(total_line)}.</p>",
        _load_errors(report),
        '<noscript><p>Filters need JavaScript; every case is shown.</p></noscript>',
        '<div id="filters" hidden><label>language <select id="filter-language"><option value="">all</option>'
        f'{_options(sorted(row.language for row in languages))}</select></label>'
        '<label>kind <select id="filter-kind"><option value="">all</option>'
        f'{_options(report.kinds())}</select></label>'
        f'<span><span id="shown-count">{len(shown)}</span> failing or changed case(s) shown</span></div>',
        "<h2>Cases per language</h2>", language_table,
        _unrecorded(report),
        f"<h2>Corpus rates against {against}</h2>",
        "<p>Micro-averaged over the score and asr cases: errors and reference lengths summed, then divided. "
        "The change compares the cases that have a recording.</p>",
        rate_table if rates else "<p>No score or asr cases in this run.</p>",
        _drivers(report),
        f'<figure>{change_chart(rates)}<figcaption>Change of each corpus rate against {against}.</figcaption>'
        "</figure>",
        _errors(report),
        f'<h2 id="cases-heading">Failing or changed cases ({len(shown)})</h2>',
        '<section id="cases">' + ("".join(_case(entry) for entry in shown) or "<p>None.</p>") + "</section>",
        f"<h2>All cases</h2><details><summary>{len(report.entries)} case item(s)</summary>"
        + _table("all-cases", ["case", "kind", "outcome", "rate", "snapshot"], all_rows) + "</details>",
    ]
    if report.fingerprint_lines:
        sections += ["<h2>ASR cases judged by tolerance</h2>", f"<pre>{escape(chr(10).join(report.fingerprint_lines))}</pre>"]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(report.title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(sections) + f"<script>{SCRIPT}</script></body></html>\n")
