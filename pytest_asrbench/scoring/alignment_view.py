"""The aligned REF/HYP view of one pair, the one every output shows (failure messages,
``asrbench score`` and ``explain``, the reports).

The layout follows sclite's and texterrors': one column per alignment position, ``REF:`` and
``HYP:`` rows padded to the same width, ``***`` where one side has no token (a deletion or an
insertion), and a marker row with ``S``, ``D`` or ``I`` under each error. Error tokens are
written in UPPERCASE where the script has case (sclite's convention), so the errors stand out
without colour too.

Width: columns are padded by display width as a terminal draws it (the ``wcwidth`` library,
Unicode's East Asian Width and zero-width tables): CJK characters take two cells; Thai
vowels and tone marks, Devanagari signs and other combining marks none; an emoji ZWJ
sequence two.

Right-to-left scripts: a token with Hebrew or Arabic letters is wrapped in Unicode's first
strong isolate (U+2068 ... U+2069, UAX #9), so a bidi-aware terminal or browser draws the
token right-to-left inside its own column and the columns stay in reading order of the
alignment (left to right, as sclite prints them); the isolates take no width.

Colour (``color=True``): ANSI SGR codes, reference errors red, hypothesis errors green,
marks bold (texterrors' choice). :func:`color_wanted` says whether a stream should get them:
never with ``NO_COLOR`` set (https://no-color.org), always with ``FORCE_COLOR`` set, else
only on a terminal that is not ``TERM=dumb``.

Other helpers of the views (score descriptions, normalizer traces) are in
:mod:`pytest_asrbench.scoring.display`; the HTML report builds its table from
:func:`alignment_columns`, so every output shows the same columns.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

import wcwidth

from pytest_asrbench.scoring.alignment import Alignment

#: Shown where one side of a column has no token (sclite's convention).
GAP = "***"
#: Marker of each error kind in the marker row.
MARKS = {"equal": " ", "substitute": "S", "delete": "D", "insert": "I"}
#: Marker of a column a metric view counts correct although its tokens differ (a region the
#: code-switch rescue accepted: ``seven`` / ``7`` in a Hindi turn); not an error.
RESCUED = "R"
#: Characters per line of the aligned view before it wraps into another block.
DEFAULT_WIDTH = 100
#: Shown for a space token in a character alignment (CER over texts that keep spaces).
SPACE = "␣"
#: Correct columns shown either side of an error region when an alignment is cut.
CONTEXT = 3
#: An alignment of at most this many columns is shown whole.
MAX_COLUMNS = 300
#: First strong isolate and pop directional isolate (UAX #9), around a right-to-left token.
FSI, PDI = "\u2068", "\u2069"
#: ANSI SGR codes: reference side of an error, hypothesis side, the mark row, reset.
RED, GREEN, BOLD, RESET = "\x1b[31m", "\x1b[32m", "\x1b[1m", "\x1b[0m"

_ROW_HEAD = 5  # len("REF: ")
_SGR = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Column:
    """One aligned position: the reference and hypothesis token as shown (``GAP`` on the
    side without one) and its mark (``" "``, ``"S"``, ``"D"``, ``"I"``, or :data:`RESCUED`
    for a column counted correct by a metric view)."""

    reference: str
    hypothesis: str
    mark: str

    def __post_init__(self) -> None:
        if self.mark not in MARKS.values() and self.mark != RESCUED:
            raise ValueError(f"alignment mark {self.mark!r} is not one of {sorted([*MARKS.values(), RESCUED])}")

    @property
    def error(self) -> bool:
        return self.mark not in (" ", RESCUED)

    @property
    def width(self) -> int:
        """Terminal cells of the column (the wider side, at least 1)."""
        return max(display_width(self.reference), display_width(self.hypothesis), 1)


def display_width(text: str) -> int:
    """Terminal cells of ``text`` (the ``wcwidth`` library): wide/fullwidth characters count 2,
    combining marks, format characters and the bidi isolates 0. A control character (which
    :func:`shown_token` never leaves in a token) counts 1 here, never -1."""
    width = wcwidth.wcswidth(text)
    if width >= 0:
        return width
    return sum(max(wcwidth.wcwidth(char), 1 if unicodedata.category(char) == "Cc" else 0) for char in text)


def is_rtl(token: str) -> bool:
    """``True`` when ``token`` holds a right-to-left letter (bidi class R or AL: Hebrew, Arabic,
    Syriac, Thaana ...)."""
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in token)


def shown_token(token: str, error: bool) -> str:
    """``token`` as the view shows it: a space as ``␣``, control characters as ``\\xNN``
    escapes (so they cannot move the cursor), an error in UPPERCASE where case round-trips
    (not ``ß`` -> ``SS``, not caseless scripts), a right-to-left token between isolates."""
    if token == " ":
        return SPACE
    if error:
        upper = token.upper()
        if upper != token and upper.lower() == token:
            token = upper
    token = "".join(f"\\x{ord(char):02x}" if unicodedata.category(char) == "Cc" else char for char in token)
    return f"{FSI}{token}{PDI}" if is_rtl(token) else token


def alignment_columns(alignment: Alignment, rescued: frozenset[int] = frozenset()) -> list[Column]:
    """One :class:`Column` per aligned position of ``alignment``, in order; the positions whose
    index is in ``rescued`` (a :class:`~pytest_asrbench.scoring.headline.HeadlineAlignment`'s)
    are marked :data:`RESCUED` and shown as correct tokens (not in uppercase)."""
    columns = []
    position = 0
    for span in alignment.ops:
        for index in range(max(len(span.reference), len(span.hypothesis))):
            is_rescued = position in rescued
            error = span.op != "equal" and not is_rescued
            ref = shown_token(span.reference[index], error) if index < len(span.reference) else GAP
            hyp = shown_token(span.hypothesis[index], error) if index < len(span.hypothesis) else GAP
            columns.append(Column(ref, hyp, RESCUED if is_rescued and span.op != "equal" else MARKS[span.op]))
            position += 1
    return columns


def color_wanted(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether output to ``stream`` (default stdout) should be coloured: ``False`` when
    ``NO_COLOR`` is set to anything non-empty (no-color.org), ``True`` when ``FORCE_COLOR``
    is, else ``True`` only for a terminal (``isatty()``) whose ``TERM`` is not ``dumb``."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    stream = stream if stream is not None else sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and environ.get("TERM") != "dumb"


def strip_ansi(text: str) -> str:
    """``text`` without ANSI SGR colour codes (what :func:`render_alignment` adds with
    ``color=True``)."""
    return _SGR.sub("", text)


def error_windows(columns: list[Column], max_regions: int, context: int = CONTEXT
                  ) -> tuple[list[tuple[int, int]], int]:
    """The column ranges ``[start, end)`` worth showing of a long alignment: the first
    ``max_regions`` error regions (runs of error columns) with ``context`` columns either side,
    merged where they touch; and how many error regions are left out."""
    regions: list[list[int]] = []
    for index, column in enumerate(columns):
        if not column.error:
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


def render_alignment(alignment: Alignment, *, color: bool = False, width: int = DEFAULT_WIDTH, indent: str = "",
                     max_regions: int | None = None, context: int = CONTEXT,
                     rescued: frozenset[int] = frozenset()) -> str:
    """The aligned view of one pair as text (no trailing newline)::

        REF: the CAT sat on THE mat
        HYP: the BAT sat on *** mat
                 S          D

    ``alignment`` is a :class:`~pytest_asrbench.scoring.alignment.Alignment` (a
    ``PairScore.alignment``; from recorded normalized forms, ``align(reference, hypothesis,
    unit)`` rebuilds it). ``color=True`` adds ANSI colours (pass :func:`color_wanted`'s answer
    for the stream written to); the text without the codes is the same.

    Blocks of at most ``width`` terminal cells (a longer single token overflows its line) are
    separated by a blank line; every line starts with ``indent``. An empty alignment (both
    sides empty) renders as ``REF: (empty)`` / ``HYP: (empty)``.

    With ``max_regions`` (a failure's view), an alignment of more than :data:`MAX_COLUMNS`
    columns shows only its first ``max_regions`` error regions with ``context`` columns either
    side, each cut marked ``… N column(s) not shown …``, and ends with ``… N more error
    region(s) not shown`` when some are left out.

    ``rescued`` holds the column indices a metric view counts correct (a
    :class:`~pytest_asrbench.scoring.headline.HeadlineAlignment`'s ``rescued``): they are
    marked ``R`` and their tokens shown as correct ones, so the view agrees with the headline
    rate::

        REF: मेरी फ्लाइट seven बजे है
        HYP: मेरी फ्लाइट 7     बजे है
                      R

    Raises:
        ValueError: ``width`` leaves no room for a column (below 6).
    """
    if width <= _ROW_HEAD:
        raise ValueError(f"width {width} leaves no room for a column: use at least {_ROW_HEAD + 1}")
    columns = alignment_columns(alignment, rescued)
    if not columns:
        return f"{indent}REF: (empty)\n{indent}HYP: (empty)"
    if max_regions is None or len(columns) <= MAX_COLUMNS:
        return _render_columns(columns, width, indent, color)
    windows, left_out = error_windows(columns, max_regions, context)
    parts, shown_to = [], 0
    for start, end in windows:
        if start > shown_to:
            parts.append(f"{indent}… {start - shown_to} column(s) not shown …")
        parts.append(_render_columns(columns[start:end], width, indent, color))
        shown_to = end
    if shown_to < len(columns):
        parts.append(f"{indent}… {len(columns) - shown_to} column(s) not shown …")
    if not windows:
        parts.append(f"{indent}(no errors in {len(columns)} columns)")
    if left_out:
        parts.append(f"{indent}… {left_out} more error region(s) not shown (the snapshot holds the whole alignment)")
    return "\n\n".join(parts)


def _cell(text: str, cell: int, style: str | None) -> str:
    padding = " " * (cell - display_width(text))
    return f"{style}{text}{RESET}{padding}" if style else text + padding


def _render_columns(columns: list[Column], width: int, indent: str, color: bool) -> str:
    blocks: list[list[Column]] = [[]]
    used = _ROW_HEAD
    for column in columns:
        if blocks[-1] and used + column.width > width:
            blocks.append([])
            used = _ROW_HEAD
        blocks[-1].append(column)
        used += column.width + 1
    rendered = []
    for block in blocks:
        def row(head: str, part: str, style: str) -> str:
            cells = [_cell(getattr(column, part), column.width, style if color and column.error else None)
                     for column in block]
            return indent + (head + " ".join(cells)).rstrip()
        rendered.append("\n".join((row("REF: ", "reference", RED), row("HYP: ", "hypothesis", GREEN),
                                   row("     ", "mark", BOLD))))
    return "\n\n".join(rendered)
