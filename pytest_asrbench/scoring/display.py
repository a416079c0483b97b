"""Text views of scores and normalizer traces for people: a failing score explained, a
normalizer trace, and where two renderings of the same words part (``equal`` cases).

The aligned REF/HYP view itself is :mod:`pytest_asrbench.scoring.alignment_view` (its
:func:`render_alignment` and :func:`display_width` are imported here for the callers that
know this module). Nothing here changes a score: the views read
:class:`~pytest_asrbench.scoring.score.Score` objects and normalizer traces. Used by failing
cases (``pytest_asrbench.cases.kinds``), ``asrbench score`` and ``asrbench explain``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rapidfuzz.distance import Levenshtein

from pytest_asrbench.scoring.alignment import align, tokenize
from pytest_asrbench.scoring.alignment_view import (CONTEXT, DEFAULT_WIDTH, GAP, RESCUED,  # noqa: F401 - re-exported
                                                    display_width, render_alignment, shown_token)
from pytest_asrbench.scoring.error_summary import ErrorSummary
from pytest_asrbench.scoring.headline import HeadlineAlignment, headline_alignments
from pytest_asrbench.scoring.score import Score

#: A failure shows at most this many error regions of an alignment (runs of S/D/I columns),
#: each with :data:`CONTEXT` correct columns either side; the rest is counted, not shown.
MAX_ERROR_REGIONS = 20
#: A text longer than this (characters) is shown as its start and end with its length between.
MAX_TEXT = 400
#: A failure shows at most this many pairs of a corpus score.
MAX_PAIRS = 20
#: The legend of the aligned view's marks; :data:`RESCUED_LEGEND` is added when a column is rescued.
MARKS_LEGEND = "S substitution, D deletion, I insertion"
RESCUED_LEGEND = f"{RESCUED} rescued (counted correct)"


def elide(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` if it has at most ``limit`` characters, else its first and last ``limit // 2``
    characters around ``" … [N characters, M not shown] … "`` (what a failure prints of a
    long text; the snapshot keeps it whole)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} … [{len(text)} characters, {len(text) - 2 * half} not shown] … {text[-half:]}"


def _rate(rate: float | None) -> str:
    return "n/a (empty reference)" if rate is None else f"{rate:.4g} ({rate:.2%})"


def describe_score(result: Score, *, width: int = DEFAULT_WIDTH, max_regions: int | None = MAX_ERROR_REGIONS,
                   color: bool = False) -> str:
    """What a reviewer needs to judge a score, as text (no trailing newline): the figures,
    then per pair the reference and hypothesis as given and normalized and their aligned
    view (the headline alignment, :func:`~pytest_asrbench.scoring.headline.headline_alignments`:
    a rescued region marked ``R``), then (languages with a code-switch or loanword view) the
    strict figures and each rescue (:func:`describe_rescues`).

    Used under a failing ``score`` or ``asr`` case's expectation lines. Its size is bounded
    for long pairs: texts over :data:`MAX_TEXT` characters are elided in the middle
    (:func:`elide`) and the aligned view shows the first ``max_regions`` error regions
    (:func:`render_alignment`; ``None`` shows everything). The snapshot keeps it all.
    ``color`` colours the aligned views (ANSI; see
    :func:`~pytest_asrbench.scoring.alignment_view.color_wanted`).
    """
    unit = "WER" if result.unit == "word" else "CER"
    lines = [
        f"{unit} {_rate(result.rate)}: {result.substitutions} substitution(s), {result.deletions} deletion(s), "
        f"{result.insertions} insertion(s), {result.hits} hit(s) over {result.reference_length} reference "
        f"{result.unit}(s)  [{result.metric} {result.version}, {result.language} config {result.config_version}]"
    ]
    many = len(result.pairs) > 1
    shown = result.pairs if max_regions is None else result.pairs[:MAX_PAIRS]
    headlines = headline_alignments(result)
    for number, (pair, headline) in enumerate(zip(shown, headlines), 1):
        pad = "  " if many else ""
        if many:
            lines.append(f"pair {number} of {len(result.pairs)} ({unit} {_rate(pair.rate)}):")
        lines += [
            f"{pad}reference:             {elide(repr(pair.reference))}",
            f"{pad}hypothesis:            {elide(repr(pair.hypothesis))}",
            f"{pad}normalized reference:  {elide(repr(pair.normalized_reference))}",
            f"{pad}normalized hypothesis: {elide(repr(pair.normalized_hypothesis))}",
            f"{pad}alignment ({legend(result.unit, headline)}):",
            render_headline(headline, width=width, indent=pad + "  ", max_regions=max_regions, color=color),
        ]
    if len(shown) < len(result.pairs):
        lines.append(f"… {len(result.pairs) - len(shown)} more pair(s) not shown (the snapshot holds every pair)")
    lines += describe_rescues(result)
    return "\n".join(lines)


def legend(unit: str, headline: HeadlineAlignment | None = None) -> str:
    """What the aligned view's marks mean: ``words; S substitution, D deletion, I insertion``,
    with ``R rescued (counted correct)`` when ``headline`` has a rescued column."""
    marks = MARKS_LEGEND + (f", {RESCUED_LEGEND}" if headline is not None and headline.rescued else "")
    return f"{unit}s; {marks}"


def render_headline(headline: HeadlineAlignment, **options) -> str:
    """:func:`render_alignment` of a headline alignment, its rescued columns marked ``R``
    (``options``: ``render_alignment``'s keywords)."""
    return render_alignment(headline.alignment, rescued=headline.rescued, **options)


def describe_rescues(result: Score, *, ids: Sequence[str] | None = None, limit: int | None = None) -> list[str]:
    """Every rescue of ``result`` as lines, for each language with a rescue view: the
    code-switch view (``details["code_switch"]``: hi, de, nl, fr, es, it), the strict rate
    before rescue and each rescued region with its reason; the loanword view
    (``details["loanwords"]``: ja, ko), the errors before rescue, each rescued name (Latin ->
    katakana or Hangul) and each near miss left an error. None for a score without either.

    A rescue line of a score of several pairs starts with its pair: ``ids[turn]`` (a transcript
    file's utterance ids) or ``pair N``. ``limit`` shows at most that many rescue lines of each
    view and counts the rest (``None``: all).
    """
    many = len(result.pairs) > 1

    def where(turn: int) -> str:
        if not many:
            return ""
        return f"{ids[turn]}: " if ids is not None else f"pair {turn + 1}: "

    def bounded(entries: list[str]) -> list[str]:
        if limit is None or len(entries) <= limit:
            return entries
        return entries[:limit] + [f"  … {len(entries) - limit} more (--json lists every rescue)"]

    unit = "WER" if result.unit == "word" else "CER"
    lines = []
    code_switch = result.details.get("code_switch")
    if code_switch is not None:
        rescues = code_switch.get("rescues", [])
        lines.append(f"code-switch: strict {unit} {_rate(result.details.get('strict_rate'))} before rescue; "
                     f"{len(rescues)} rescue(s) removed {code_switch.get('rescued_errors', 0)} error(s)")
        lines += bounded([f"  {where(rescue['turn'])}rescued [{rescue['reason']}] {rescue['reference']} -> "
                          f"{rescue['hypothesis']}: {rescue['why']}" for rescue in rescues])
    loanwords = result.details.get("loanwords")
    if loanwords is not None:
        rescues, near = loanwords.get("rescues", []), loanwords.get("near_misses", [])
        lines.append(f"loanwords ({loanwords.get('matcher')}): {loanwords.get('strict_errors', 0)} error(s) before "
                     f"rescue; {len(rescues)} rescue(s) removed {loanwords.get('rescued_errors', 0)} error(s)")
        entries = []
        for rescue in rescues:
            reference, hypothesis = ((rescue["latin"], rescue["rendering"]) if rescue["side"] == "reference"
                                     else (rescue["rendering"], rescue["latin"]))
            entries.append(f"  {where(rescue['turn'])}rescued [loanword] {reference} -> {hypothesis}: "
                           f"{rescue['latin']} = {rescue['rendering']} (consonant key {rescue['key']!r})")
        entries += [f"  {where(miss['turn'])}near miss, not rescued: {miss['latin']} / {miss['rendering']}"
                    for miss in near]
        lines += bounded(entries)
    return lines


def describe_error_summary(summary: ErrorSummary, unit: str, *, strict: bool = False) -> list[str]:
    """An :class:`~pytest_asrbench.scoring.error_summary.ErrorSummary` as lines: each kind's
    total and its most frequent entries, count first (``unit``: ``"word"`` or ``"char"``, the
    tokens'; ``strict``: the summary counts the strict alignment)::

        most frequent errors (headline alignment, at most 10 of each kind):
          substitutions: 3 (2 distinct)
                 2  flight -> fight
                 1  sat -> sad
          deletions: 1 (1 distinct)
                 1  the
          insertions: 0
    """
    def token(text: str) -> str:
        return shown_token(text, False)

    which = "strict alignment, no rescue" if strict else "headline alignment"
    lines = [f"most frequent errors ({which}, {unit}s, at most {summary.top} of each kind):"]
    width = len(str(max([summary.totals[kind] for kind in summary.totals] + [1])))
    for kind, entries in (("substitutions", [(f"{token(ref)} -> {token(hyp)}", count)
                                             for ref, hyp, count in summary.substitutions]),
                          ("deletions", [(token(word), count) for word, count in summary.deletions]),
                          ("insertions", [(token(word), count) for word, count in summary.insertions])):
        total = summary.totals[kind]
        lines.append(f"  {kind}: {total}" + (f" ({summary.distinct[kind]} distinct)" if total else ""))
        lines += [f"    {count:>{width}}  {text}" for text, count in entries]
        if summary.distinct[kind] > len(entries):
            lines.append(f"    … {summary.distinct[kind] - len(entries)} more distinct")
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


def first_divergent_step(first: Sequence[tuple[str, str]], second: Sequence[tuple[str, str]],
                         unit: Literal["word", "char"]) -> tuple[str, int, int] | None:
    """Where two renderings of the same words grow apart in the normalizer: the first step
    after which the two traces (``explain()``'s ``(step, output)`` pairs of one pipeline,
    ``("input", text)`` first) are further apart than before it, as ``(step, distance before,
    distance after)``; distances are Levenshtein distances in ``unit`` tokens (the language's
    scoring unit, so a step that splits ``anmelde-konto`` into two words counts). ``None``
    when no step moves them apart: they differ as written and no step brings them together.

    Raises:
        ValueError: the traces are of different pipelines (different step names).
    """
    if [name for name, _ in first] != [name for name, _ in second]:
        raise ValueError("the two traces are of different pipelines: explain both texts in the same language")
    previous = None
    for (name, left), (_, right) in zip(first, second):
        distance = Levenshtein.distance(tokenize(left, unit), tokenize(right, unit))
        if previous is not None and distance > previous:
            return name, previous, distance
        previous = distance
    return None


def describe_divergence(first: Sequence[tuple[str, str]], second: Sequence[tuple[str, str]],
                        unit: Literal["word", "char"], *, color: bool = False, width: int = DEFAULT_WIDTH,
                        indent: str = "  ") -> str:
    """Two renderings that should normalize alike but do not, as text (no trailing newline):
    the aligned view of their normalized forms (the first as ``REF``) and the step at which
    they grow apart (:func:`first_divergent_step`), or that no step does. What a failing
    ``equal`` case and ``asrbench explain A B`` show."""
    view = render_alignment(align(first[-1][1], second[-1][1], unit), color=color, width=width, indent=indent)
    found = first_divergent_step(first, second, unit)
    if found is None:
        where = (f"no step moves them apart (their {unit} distance never grows): they differ as written and no "
                 "step brings them together")
    else:
        step, before, after = found
        where = f"they grow apart at step {step!r} ({unit} distance {before} -> {after})"
    return f"{view}\n{indent}{where}"
