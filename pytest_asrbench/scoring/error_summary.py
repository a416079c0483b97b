"""The error summary of a run: its most frequent substitution pairs, deletions and insertions.

What a reviewer reads first after the rate, in the manner of sclite's confusion pairs (its
``dtl`` report: each substituted reference word with the hypothesis word it became, how
often) and texterrors' most common errors: over every pair of a corpus score, each
substitution ``reference token -> hypothesis token``, each deleted reference token and each
inserted hypothesis token is counted; the summary keeps the ``top`` most frequent of each kind
with the totals, so a long run stays short.

The tokens are counted in the headline alignment (:mod:`pytest_asrbench.scoring.headline`),
the one whose counts are the rate printed: a region the code-switch rescue counts correct
(``seven`` / ``7`` in a Hindi turn) is no error here, a split compound the ``compounds`` view
closes up (``data base`` / ``database``) neither, and Korean characters are counted without
spaces. ``strict=True`` counts the pairs' strict alignments instead (what the score's
``strict_rate`` counts). Ranking is deterministic: count descending, then the tokens in code
point order (reference, then hypothesis). Tokens are the score's unit: words for a WER,
characters for a CER (a space token of a character alignment is ``" "``).

Used by ``asrbench score --references ... --hypotheses ...`` (text and ``--json``) and the
Markdown and HTML reports (per language and metric over a run's ``score`` and ``asr`` cases,
from each case's tally: :meth:`ErrorTally.to_data`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench.errors import InputError
from pytest_asrbench.scoring.headline import HeadlineAlignment, headline_alignments
from pytest_asrbench.scoring.result import Score

#: Entries of each kind a summary keeps by default.
DEFAULT_TOP = 10


@dataclass(frozen=True)
class ErrorTally:
    """Every error of some alignments, counted: ``substitutions`` by ``(reference token,
    hypothesis token)``, ``deletions`` by reference token, ``insertions`` by hypothesis token.
    Tallies add up (``+``), so a run's is the sum of its cases'."""

    substitutions: Counter = field(default_factory=Counter)
    deletions: Counter = field(default_factory=Counter)
    insertions: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, alignments: Iterable[HeadlineAlignment]) -> ErrorTally:
        """The tally of ``alignments``' error columns; a rescued column is no error."""
        tally = cls()
        for item in alignments:
            for op, reference, hypothesis, rescued in item.columns():
                if rescued or op == "equal":
                    continue
                if op == "substitute":
                    tally.substitutions[reference, hypothesis] += 1
                elif op == "delete":
                    tally.deletions[reference] += 1
                else:
                    tally.insertions[hypothesis] += 1
        return tally

    def __add__(self, other: ErrorTally) -> ErrorTally:
        return ErrorTally(self.substitutions + other.substitutions, self.deletions + other.deletions,
                          self.insertions + other.insertions)

    def to_data(self) -> dict[str, list]:
        """Plain JSON-able lists (``{"substitutions": [[reference, hypothesis, count], ...],
        "deletions": [[token, count], ...], "insertions": [[token, count], ...]}``, each ranked),
        what a case record carries to the reports."""
        return {"substitutions": [[ref, hyp, count] for (ref, hyp), count in _ranked(self.substitutions)],
                "deletions": [[token, count] for token, count in _ranked(self.deletions)],
                "insertions": [[token, count] for token, count in _ranked(self.insertions)]}

    @classmethod
    def from_data(cls, data: dict[str, list]) -> ErrorTally:
        """The tally :meth:`to_data` wrote.

        Raises:
            InputError: ``data`` is not of :meth:`to_data`'s shape.
        """
        try:
            return cls(Counter({(ref, hyp): count for ref, hyp, count in data["substitutions"]}),
                       Counter({token: count for token, count in data["deletions"]}),
                       Counter({token: count for token, count in data["insertions"]}))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"an error tally must be {{'substitutions': [[ref, hyp, n], ...], 'deletions': "
                             f"[[token, n], ...], 'insertions': [[token, n], ...]}}; got {data!r} ({exc})") from None

    def summary(self, top: int = DEFAULT_TOP) -> ErrorSummary:
        """The ``top`` most frequent of each kind, with the totals.

        Raises:
            InputError: ``top`` below 1.
        """
        if top < 1:
            raise InputError(f"an error summary keeps at least 1 entry of each kind, not {top}")
        return ErrorSummary(
            top,
            tuple((ref, hyp, count) for (ref, hyp), count in _ranked(self.substitutions)[:top]),
            tuple(_ranked(self.deletions)[:top]),
            tuple(_ranked(self.insertions)[:top]),
            {"substitutions": sum(self.substitutions.values()), "deletions": sum(self.deletions.values()),
             "insertions": sum(self.insertions.values())},
            {"substitutions": len(self.substitutions), "deletions": len(self.deletions),
             "insertions": len(self.insertions)},
        )


def _ranked(counter: Counter) -> list[tuple[Any, int]]:
    """``counter``'s items, count descending, then key ascending (code point order)."""
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


@dataclass(frozen=True)
class ErrorSummary:
    """The most frequent errors of a tally: at most ``top`` of each kind, ranked, as
    ``(reference, hypothesis, count)`` substitutions, ``(token, count)`` deletions and
    insertions; ``totals`` and ``distinct`` count every error of each kind (``"substitutions"``,
    ``"deletions"``, ``"insertions"``) and the different ones, shown or not."""

    top: int
    substitutions: tuple[tuple[str, str, int], ...]
    deletions: tuple[tuple[str, int], ...]
    insertions: tuple[tuple[str, int], ...]
    totals: dict[str, int]
    distinct: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        """``{"top", "substitutions", "deletions", "insertions"}``, each kind ``{"total",
        "distinct", "most_frequent": [{"reference", "hypothesis", "count"}, ...]}`` (a deletion
        has only ``reference``, an insertion only ``hypothesis``)."""
        def kind(name: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
            return {"total": self.totals[name], "distinct": self.distinct[name], "most_frequent": entries}

        return {
            "top": self.top,
            "substitutions": kind("substitutions", [{"reference": ref, "hypothesis": hyp, "count": count}
                                                    for ref, hyp, count in self.substitutions]),
            "deletions": kind("deletions", [{"reference": token, "count": count} for token, count in self.deletions]),
            "insertions": kind("insertions", [{"hypothesis": token, "count": count}
                                              for token, count in self.insertions]),
        }


def error_tally(result: Score, *, strict: bool = False) -> ErrorTally:
    """The errors of every pair of ``result``, in its headline alignments (``strict``: the
    pairs' strict alignments, no view applied).

    Raises:
        HeadlineError: the headline alignments cannot be rebuilt (:func:`headline_alignments`).
    """
    alignments = ([HeadlineAlignment(pair.alignment) for pair in result.pairs] if strict
                  else headline_alignments(result))
    return ErrorTally.of(alignments)


def error_summary(result: Score, top: int = DEFAULT_TOP, *, strict: bool = False) -> ErrorSummary:
    """:func:`error_tally` of ``result`` summarized to its ``top`` most frequent errors of each kind.

    Raises:
        InputError: ``top`` below 1.
        HeadlineError: as :func:`error_tally`.
    """
    return error_tally(result, strict=strict).summary(top)
