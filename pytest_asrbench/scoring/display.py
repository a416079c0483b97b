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


def render_alignment(alignment: Alignment, *, width: int = DEFAULT_WIDTH, indent: str = "") -> str:
    """The aligned view of one pair as text (no trailing newline)::

        REF: the CAT sat on THE mat
        HYP: the BAT sat on *** mat
                 S          D

    Blocks of at most ``width`` columns (a longer single token overflows its line) are
    separated by a blank line; every line starts with ``indent``. An empty alignment (both
    sides empty) renders as ``REF: (empty)`` / ``HYP: (empty)``.
    """
    columns = alignment_columns(alignment)
    if not columns:
        return f"{indent}REF: (empty)\n{indent}HYP: (empty)"
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


def describe_score(result: Score, *, width: int = DEFAULT_WIDTH) -> str:
    """What a reviewer needs to judge a score, as text (no trailing newline): the figures,
    then per pair the reference and hypothesis as given and normalized and their aligned
    view, then (languages with a code-switch view, Hindi) the strict rate and each rescue.

    Used under a failing ``score`` or ``asr`` case's expectation lines; ``asrbench score``
    prints the same.
    """
    unit = "WER" if result.unit == "word" else "CER"
    lines = [
        f"{unit} {_rate(result.rate)}: {result.substitutions} substitution(s), {result.deletions} deletion(s), "
        f"{result.insertions} insertion(s), {result.hits} hit(s) over {result.reference_length} reference "
        f"{result.unit}(s)  [{result.metric} {result.version}, {result.language} config {result.config_version}]"
    ]
    many = len(result.pairs) > 1
    for number, pair in enumerate(result.pairs, 1):
        pad = "  " if many else ""
        if many:
            lines.append(f"pair {number} of {len(result.pairs)} ({unit} {_rate(pair.rate)}):")
        lines += [
            f"{pad}reference:             {pair.reference!r}",
            f"{pad}hypothesis:            {pair.hypothesis!r}",
            f"{pad}normalized reference:  {pair.normalized_reference!r}",
            f"{pad}normalized hypothesis: {pair.normalized_hypothesis!r}",
            f"{pad}alignment ({result.unit}s; S substitution, D deletion, I insertion):",
            render_alignment(pair.alignment, width=width, indent=pad + "  "),
        ]
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
