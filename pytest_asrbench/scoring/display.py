"""Text views of scores for people: the aligned REF/HYP view, a failing score explained, and
a normalizer trace.

The aligned view follows sclite's and texterrors' layout: one column per alignment position,
``REF:`` and ``HYP:`` rows padded to the same width, ``***`` where one side has no token
(a deletion or an insertion), and a marker row with ``S``, ``D`` or ``I`` under each error.
Error tokens are written in UPPERCASE where the script has case (sclite's convention), so the
errors stand out even without the marker row. Widths count East Asian wide characters as two
columns and combining marks as none, so Japanese, Chinese, Hindi and Thai rows line up in a
terminal. Long alignments are wrapped into blocks.

Nothing here changes a score: the views read :class:`~pytest_asrbench.scoring.score.Score`
objects and normalizer traces. Used by failing cases (``pytest_asrbench.cases.kinds``) and
``asrbench score``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from pytest_asrbench.scoring.alignment import Alignment
from pytest_asrbench.scoring.score import Score

#: Shown where one side of a column has no token (sclite's convention).
GAP = "***"
#: Marker of each error kind in the marker row.
MARKS = {"equal": " ", "substitute": "S", "delete": "D", "insert": "I"}
#: Characters per line of the aligned view before it wraps into another block.
DEFAULT_WIDTH = 100
#: Shown for a space token in a character alignment (CER over texts that keep spaces).
SPACE = "␣"
#: A failure shows at most this many error regions of an alignment (runs of S/D/I columns),
#: each with :data:`CONTEXT` correct columns either side; the rest is counted, not shown.
MAX_ERROR_REGIONS = 20
#: Correct columns shown either side of an error region when an alignment is cut.
CONTEXT = 3
#: An alignment of at most this many columns is shown whole.
MAX_COLUMNS = 300
#: A text longer than this (characters) is shown as its start and end with its length between.
MAX_TEXT = 400
#: A failure shows at most this many pairs of a corpus score.
MAX_PAIRS = 20


def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide/fullwidth characters count 2, combining marks and
    format characters 0, everything else 1 (Unicode East Asian Width, UAX #11)."""
    width = 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def _shown(token: str, error: bool) -> str:
    token = SPACE if token == " " else token
    if error:
        upper = token.upper()
        # only where case round-trips (not "ß" -> "SS", not caseless scripts)
        if upper != token and upper.lower() == token:
            return upper
    return token


def alignment_columns(alignment: Alignment) -> list[tuple[str, str, str]]:
    """One ``(reference, hypothesis, mark)`` column per aligned position, in order;
    ``GAP`` on the side without a token, ``mark`` one of :data:`MARKS`' values."""
    columns = []
    for span in alignment.ops:
        error = span.op != "equal"
        mark = MARKS[span.op]
        for index in range(max(len(span.reference), len(span.hypothesis))):
            ref = _shown(span.reference[index], error) if index < len(span.reference) else GAP
            hyp = _shown(span.hypothesis[index], error) if index < len(span.hypothesis) else GAP
            columns.append((ref, hyp, mark))
    return columns


def elide(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` if it has at most ``limit`` characters, else its first and last ``limit // 2``
    characters around ``" … [N characters, M not shown] … "`` (what a failure prints of a
    long text; the snapshot keeps it whole)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} … [{len(text)} characters, {len(text) - 2 * half} not shown] … {text[-half:]}"


def _error_windows(columns: list[tuple[str, str, str]], max_regions: int, context: int
                   ) -> tuple[list[tuple[int, int]], int]:
    """The column ranges ``[start, end)`` to show: the first ``max_regions`` error regions
    (runs of error columns) with ``context`` columns either side, merged where they touch;
    and how many error regions are left out."""
    regions: list[list[int]] = []
    for index, (_, _, mark) in enumerate(columns):
        if mark == " ":
            continue
        if regions and regions[-1][1] == index:
            regions[-1][1] = index + 1
        else:
            regions.append([index, index + 1])
    windows: list[tuple[int, int]] = []
    for start, end in regions[:max_regions]:
        start, end = max(0, start - context), min(len(columns), end + context)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows, max(0, len(regions) - max_regions)


def render_alignment(alignment: Alignment, *, width: int = DEFAULT_WIDTH, indent: str = "",
                     max_regions: int | None = None, context: int = CONTEXT) -> str:
    """The aligned view of one pair as text (no trailing newline)::

        REF: the CAT sat on THE mat
        HYP: the BAT sat on *** mat
                 S          D

    Blocks of at most ``width`` columns (a longer single token overflows its line) are
    separated by a blank line; every line starts with ``indent``. An empty alignment (both
    sides empty) renders as ``REF: (empty)`` / ``HYP: (empty)``.

    With ``max_regions`` (a failure's view), an alignment of more than :data:`MAX_COLUMNS`
    columns shows only its first ``max_regions`` error regions with ``context`` columns either
    side, each cut marked ``… N column(s) not shown …``, and ends with ``… N more error
    region(s) not shown`` when some are left out.
    """
    columns = alignment_columns(alignment)
    if not columns:
        return f"{indent}REF: (empty)\n{indent}HYP: (empty)"
    if max_regions is None or len(columns) <= MAX_COLUMNS:
        return _render_columns(columns, width, indent)
    windows, left_out = _error_windows(columns, max_regions, context)
    parts, shown_to = [], 0
    for start, end in windows:
        if start > shown_to:
            parts.append(f"{indent}… {start - shown_to} column(s) not shown …")
        parts.append(_render_columns(columns[start:end], width, indent))
        shown_to = end
    if shown_to < len(columns):
        parts.append(f"{indent}… {len(columns) - shown_to} column(s) not shown …")
    if not windows:
        parts.append(f"{indent}(no errors in {len(columns)} columns)")
    if left_out:
        parts.append(f"{indent}… {left_out} more error region(s) not shown (the snapshot holds the whole alignment)")
    return "\n\n".join(parts)


def _render_columns(columns: list[tuple[str, str, str]], width: int, indent: str) -> str:
    blocks: list[list[tuple[str, str, str, int]]] = [[]]
    used = 5  # "REF: "
    for ref, hyp, mark in columns:
        cell = max(display_width(ref), display_width(hyp), 1)
        if blocks[-1] and used + cell > width:
            blocks.append([])
            used = 5
        blocks[-1].append((ref, hyp, mark, cell))
        used += cell + 1
    rendered = []
    for block in blocks:
        rows = ["REF: " + " ".join(_pad(ref, cell) for ref, _, _, cell in block),
                "HYP: " + " ".join(_pad(hyp, cell) for _, hyp, _, cell in block),
                "     " + " ".join(_pad(mark, cell) for _, _, mark, cell in block)]
        rendered.append("\n".join(indent + row.rstrip() for row in rows))
    return "\n\n".join(rendered)


def _rate(rate: float | None) -> str:
    return "n/a (empty reference)" if rate is None else f"{rate:.4g} ({rate:.2%})"


def describe_score(result: Score, *, width: int = DEFAULT_WIDTH, max_regions: int | None = MAX_ERROR_REGIONS
                   ) -> str:
    """What a reviewer needs to judge a score, as text (no trailing newline): the figures,
    then per pair the reference and hypothesis as given and normalized and their aligned
    view, then (languages with a code-switch view, Hindi) the strict rate and each rescue.

    Used under a failing ``score`` or ``asr`` case's expectation lines. Its size is bounded
    for long pairs: texts over :data:`MAX_TEXT` characters are elided in the middle
    (:func:`elide`) and the aligned view shows the first ``max_regions`` error regions
    (:func:`render_alignment`; ``None`` shows everything). The snapshot keeps it all.
    """
    unit = "WER" if result.unit == "word" else "CER"
    lines = [
        f"{unit} {_rate(result.rate)}: {result.substitutions} substitution(s), {result.deletions} deletion(s), "
        f"{result.insertions} insertion(s), {result.hits} hit(s) over {result.reference_length} reference "
        f"{result.unit}(s)  [{result.metric} {result.version}, {result.language} config {result.config_version}]"
    ]
    many = len(result.pairs) > 1
    shown = result.pairs if max_regions is None else result.pairs[:MAX_PAIRS]
    for number, pair in enumerate(shown, 1):
        pad = "  " if many else ""
        if many:
            lines.append(f"pair {number} of {len(result.pairs)} ({unit} {_rate(pair.rate)}):")
        lines += [
            f"{pad}reference:             {elide(repr(pair.reference))}",
            f"{pad}hypothesis:            {elide(repr(pair.hypothesis))}",
            f"{pad}normalized reference:  {elide(repr(pair.normalized_reference))}",
            f"{pad}normalized hypothesis: {elide(repr(pair.normalized_hypothesis))}",
            f"{pad}alignment ({result.unit}s; S substitution, D deletion, I insertion):",
            render_alignment(pair.alignment, width=width, indent=pad + "  ", max_regions=max_regions),
        ]
    if len(shown) < len(result.pairs):
        lines.append(f"… {len(result.pairs) - len(shown)} more pair(s) not shown (the snapshot holds every pair)")
    lines += describe_code_switch(result)
    return "\n".join(lines)


def describe_code_switch(result: Score) -> list[str]:
    """The code-switch rescue of ``result`` (``details["code_switch"]``, Hindi) as lines: the
    strict rate before rescue and each rescued region with its reason; none without it."""
    code_switch = result.details.get("code_switch")
    if code_switch is None:
        return []
    unit = "WER" if result.unit == "word" else "CER"
    rescues = code_switch.get("rescues", [])
    lines = [f"code-switch: strict {unit} {_rate(result.details.get('strict_rate'))} before rescue; "
             f"{len(rescues)} rescue(s) removed {code_switch.get('rescued_errors', 0)} error(s)"]
    for rescue in rescues:
        lines.append(f"  rescued [{rescue['reason']}] {rescue['reference']} -> {rescue['hypothesis']}: {rescue['why']}")
    return lines


def render_trace(trace: Sequence[tuple[str, str]], *, changed_only: bool = False) -> list[str]:
    """A normalizer trace (``explain()``'s ``(step, output)`` pairs, ``("input", text)``
    first) as lines, ``*`` marking each step that changed the text::

        * lowercase           hello, world!

    ``changed_only`` keeps the input line and the changing steps (what a failure shows)."""
    if not trace:
        return []
    width = max(len(name) for name, _ in trace)
    lines = []
    previous = trace[0][1]
    for index, (name, output) in enumerate(trace):
        changed = output != previous
        if changed or index == 0 or not changed_only:
            lines.append(f"{'*' if changed else ' '} {name:<{width}}  {output}")
        previous = output
    return lines


def first_common_step(first: Sequence[tuple[str, str]], second: Sequence[tuple[str, str]]) -> str | None:
    """The step after which two traces of one pipeline give the same text (the step that made
    two texts one), or ``None`` when they never meet."""
    for (name, left), (_, right) in zip(first, second):
        if left == right:
            return name
    return None
