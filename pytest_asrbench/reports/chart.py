"""The HTML report's chart: the change of each (language, metric) corpus rate against the
recording, as horizontal bars either side of a zero line, in an SVG written here.

Why an SVG of our own rather than a plotting library: the chart is one bar per row with a
label and a value, about sixty lines of markup; matplotlib would add a large dependency and
a font-dependent raster or SVG for that, and pygal's SVG relies on its JavaScript for
tooltips and pulls its own styles. Ours is static, inline (no network, no script), has a
``<title>`` and ``aria-label`` for screen readers, and scales with the page.

Outliers are clipped, not log-scaled: the scale is linear, its half-width the largest change
that is not an outlier (:func:`chart_scale`: a change more than :data:`OUTLIER_RATIO` times
the next largest is one), so one +237 pt case does not flatten every other bar. A clipped bar
runs to the edge, ends in a zigzag and its label keeps the true value; the scale line says how
many bars are cut. A log scale was not chosen because it makes equal gaps mean different
changes, which a reader comparing two bars would misread.
"""

from __future__ import annotations

from html import escape

from pytest_asrbench.reports.formatting import percent, points
from pytest_asrbench.reports.model import RateRow

#: Geometry in SVG user units.
WIDTH, ROW, LABEL, VALUE, TOP = 720, 24, 170, 90, 30
#: The scale's half-width is at least this change (one percentage point), so noise stays small.
MIN_SCALE = 0.01
#: A change more than this many times the next largest is an outlier, clipped at the scale.
OUTLIER_RATIO = 4.0
WORSE, BETTER, SAME = "#b3261e", "#1b7f3b", "#6b7280"


def _bar(row: RateRow, index: int, scale: float) -> str:
    y = TOP + index * ROW
    middle = LABEL + (WIDTH - LABEL - VALUE) / 2
    half = (WIDTH - LABEL - VALUE) / 2
    change = row.change or 0.0
    clipped = abs(change) > scale
    length = min(abs(change), scale) / scale * half
    colour = SAME if row.change is None or round(change * 100, 2) == 0 else (WORSE if change > 0 else BETTER)
    x = middle if change >= 0 else middle - length
    label = f"{row.language} {row.metric}"
    value = "new" if row.change is None else points(row.change)
    cut = ""
    if clipped:  # a white zigzag across the bar's outer end: the bar goes on past the scale
        edge = x + length - 6 if change >= 0 else x + 6
        top, bottom = y + 4, y + ROW - 4
        cut = (f'<polyline class="clipped" points="{edge - 3:.1f},{top} {edge + 3:.1f},{top + 5} {edge - 3:.1f},'
               f'{top + 10} {edge + 3:.1f},{bottom}" fill="none" stroke="#fff" stroke-width="2"/>')
        value += " (cut)"
    return (f'<g class="bar{" clipped" if clipped else ""}" data-language="{escape(row.language)}">'
            f'<title>{escape(label)}: {row.label} {percent(row.rate)} now, {percent(row.recorded)} recorded, '
            f'change {value}</title>'
            f'<text x="{LABEL - 8}" y="{y + 16}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{x:.1f}" y="{y + 4}" width="{max(length, 2):.1f}" height="{ROW - 8}" fill="{colour}"/>'
            f'{cut}<text x="{WIDTH - VALUE + 8}" y="{y + 16}">{escape(value)}</text></g>')


def chart_scale(changes: list[float]) -> float:
    """The half-width of the chart's linear scale for ``changes`` (rate changes, fractions):
    the largest absolute change after dropping, from the top, each change more than
    :data:`OUTLIER_RATIO` times the next largest; at least :data:`MIN_SCALE`."""
    sizes = sorted((abs(change) for change in changes), reverse=True)
    while len(sizes) > 1 and sizes[0] > OUTLIER_RATIO * max(sizes[1], MIN_SCALE):
        sizes.pop(0)
    return max([MIN_SCALE, *sizes[:1]])


def change_chart(rows: list[RateRow]) -> str:
    """The SVG element (a string) for ``rows``; with no rows, a chart that says so."""
    known = [row.change for row in rows if row.change is not None]
    scale = chart_scale(known)
    cut = sum(abs(change) > scale for change in known)
    height = TOP + max(len(rows), 1) * ROW + 24
    middle = LABEL + (WIDTH - LABEL - VALUE) / 2
    bars = "".join(_bar(row, index, scale) for index, row in enumerate(rows))
    if not rows:
        bars = f'<text x="{middle}" y="{TOP + 16}" text-anchor="middle">no score or asr cases in this run</text>'
    title = "Change of each corpus rate against the recorded snapshots (percentage points)"
    return (f'<svg id="rate-chart" viewBox="0 0 {WIDTH} {height}" '
            f'role="img" aria-label="{escape(title)}" font-family="sans-serif" font-size="13">'
            f'<title>{escape(title)}</title>'
            f'<text x="{middle}" y="16" text-anchor="middle" font-weight="bold">change in percentage points '
            f'(scale ±{scale * 100:.2f} pt; right: higher rate, worse'
            f'{f"; {cut} bar(s) past the scale cut at its edge" if cut else ""})</text>'
            f'<line x1="{middle}" y1="{TOP - 4}" x2="{middle}" y2="{height - 20}" stroke="#111" stroke-width="1"/>'
            f'{bars}'
            f'<text x="{LABEL}" y="{height - 6}">-{scale * 100:.2f} pt</text>'
            f'<text x="{WIDTH - VALUE}" y="{height - 6}" text-anchor="end">+{scale * 100:.2f} pt</text>'
            '</svg>')
