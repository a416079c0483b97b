"""What a run's reports are made of: one :class:`CaseEntry` per case item, and the per-language
tables computed from them (:func:`language_rows`, :func:`rate_rows`). Pure data: the terminal
summary, the Markdown summary and the HTML report all render one :class:`RunReport`.

Rates are corpus rates, micro-averaged: errors and
reference lengths are summed over the ``score`` and ``asr`` cases of a language and metric,
then divided; per-case rates are never averaged. The change against the recording compares
the cases that have both a recording and a figure now, so a new case does not read as drift.

The error summary of a language and metric (:func:`error_rows`) sums the error tallies of its
``score`` and ``asr`` cases (each case's headline alignments: a rescued code-switch region is
no error) and keeps the most frequent substitution pairs, deletions and insertions
(:mod:`pytest_asrbench.scoring.error_summary`).

A case file that could not be loaded is no case and has no language: it is a
:class:`LoadError` (its path and every problem), listed apart and counted under no language,
whatever folder it sits in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_asrbench.scoring.error_summary import ErrorSummary

#: Entries of each kind an error summary of the reports keeps (scoring.error_summary.DEFAULT_TOP).
ERRORS_TOP = 10

#: A case item's outcome, in the order the tables show them.
OUTCOMES = ("passed", "failed", "xfailed", "skipped")


@dataclass(frozen=True)
class CaseEntry:
    """One case item of the run: its pytest node id, outcome (one of :data:`OUTCOMES`), the
    failure text or xfail reason (plain text), and its record
    (:mod:`pytest_asrbench.cases.case_record`: ``language`` and ``kind`` at least); ``crash``
    is pytest's one-line crash message when the failure is not the case's own message (an
    error the case runner did not expect), else empty.

    Raises:
        ValueError: an outcome not in :data:`OUTCOMES`, or a record without ``language`` and
            ``kind`` (a case file that could not be loaded is a :class:`LoadError`).
    """

    nodeid: str
    outcome: str
    message: str
    record: dict[str, Any]
    crash: str = ""

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"case outcome {self.outcome!r} is not one of {', '.join(OUTCOMES)}")
        if not isinstance(self.record, dict) or not {"language", "kind"} <= self.record.keys():
            raise ValueError(f"{self.nodeid}: a case entry needs its case record with language and kind; a case "
                             "file that could not be loaded is a LoadError")

    @property
    def language(self) -> str:
        return self.record["language"]

    @property
    def kind(self) -> str:
        return self.record["kind"]

    @property
    def figures(self) -> dict[str, Any] | None:
        return self.record.get("figures")

    @property
    def recorded(self) -> dict[str, Any] | None:
        return self.record.get("recorded")

    @property
    def changed(self) -> bool:
        """The output differs from its recording (rewritten under ``--snapshot-update``)."""
        return self.record.get("snapshot") == "changed"

    @property
    def no_record(self) -> str | None:
        """Why the item made no record of its case (``"setup: skipped: ..."``, ``"call: ..."``:
        the phase, then pytest's one-line reason), ``None`` when it made one. Such an entry
        carries only its case's fields (no figures) and is listed as "no record" by every output."""
        return self.record.get("no_record")

    @property
    def worth_showing(self) -> bool:
        """A failing or changed case: the reports show it with its alignment."""
        return self.outcome == "failed" or self.changed


@dataclass(frozen=True)
class LoadError:
    """A case file the run could not load: its ``path`` (as pytest names it, from the rootdir)
    and each ``problem`` (``path:line: reason``, as the loader gives it). It fails the run
    like a case, but it is no case and has no language: the reports list it apart.

    Raises:
        ValueError: no problem given (a load error always says why).
    """

    path: str
    problems: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.problems:
            raise ValueError(f"{self.path}: a load error needs the reason the file could not be loaded")


@dataclass(frozen=True)
class LanguageRow:
    """Case outcomes of one language: ``counts`` maps each of :data:`OUTCOMES` to a number."""

    language: str
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class RateRow:
    """The corpus rate of one (language, metric) over its scoring cases.

    ``rate`` is over all ``cases`` with figures now (``None``: no reference words); ``recorded``
    over the ``compared`` cases that also have a recording, and ``change`` is this run's rate
    over those same cases minus ``recorded`` (a fraction: 0.01 is one percentage point);
    ``new`` counts the cases with no recording. ``unit`` is ``word`` (WER) or ``char`` (CER).
    """

    language: str
    metric: str
    unit: str
    cases: int
    errors: int
    reference_length: int
    rate: float | None
    compared: int
    recorded: float | None
    change: float | None
    new: int

    @property
    def label(self) -> str:
        return "WER" if self.unit == "word" else "CER"


@dataclass
class RunReport:
    """Everything the reports show of one run: the case entries, lines naming the ``asr``
    cases judged by tolerance, not exactly (no native recording of the host; from the ASR stage),
    a ``title`` (with the pytest-asrbench version), the ``command`` that ran, whether it
    re-recorded snapshots, the case files it could not load (``load_errors``, sorted by path), and
    why it is not the whole run (``partial``: interrupted, stopped early, case items deselected;
    ``None`` for a whole run), which every output states first (``reports.formatting.partial_line``)."""

    entries: list[CaseEntry] = field(default_factory=list)
    fingerprint_lines: list[str] = field(default_factory=list)
    title: str = "pytest-asrbench run"
    command: str = ""
    updating: bool = False
    load_errors: list[LoadError] = field(default_factory=list)
    partial: str | None = None

    def languages(self) -> list[LanguageRow]:
        return language_rows(self.entries)

    def rates(self) -> list[RateRow]:
        return rate_rows(self.entries)

    def shown(self) -> list[CaseEntry]:
        """The failing or changed cases, by language, file and line."""
        return sorted((entry for entry in self.entries if entry.worth_showing), key=_order)

    def unrecorded(self) -> list[CaseEntry]:
        """The case items that made no record of their case (:attr:`CaseEntry.no_record`), by
        language, file and line: counted in the tables with their outcome, and named apart."""
        return sorted((entry for entry in self.entries if entry.no_record), key=_order)

    def kinds(self) -> list[str]:
        return sorted({entry.kind for entry in self.entries})

    def errors(self, top: int = ERRORS_TOP) -> list[ErrorRow]:
        return error_rows(self.entries, top)


@dataclass(frozen=True)
class ErrorRow:
    """The error summary of one (language, metric) over this run's scoring cases: ``cases``
    counts those whose tally it sums; ``untallied`` those with figures but no tally (figures
    made without their score), which the reports name rather than leave out silently."""

    language: str
    metric: str
    unit: str
    cases: int
    untallied: int
    summary: ErrorSummary

    @property
    def label(self) -> str:
        return "WER" if self.unit == "word" else "CER"


def _scoring_groups(entries: Iterable[CaseEntry]) -> list[tuple[tuple[str, str], list[CaseEntry]]]:
    """The scoring cases (those with figures) grouped by (language, metric), sorted by both."""
    groups: dict[tuple[str, str], list[CaseEntry]] = {}
    for entry in entries:
        if entry.figures:
            groups.setdefault((entry.language, entry.record["metric"]), []).append(entry)
    return sorted(groups.items())


def error_rows(entries: Iterable[CaseEntry], top: int = ERRORS_TOP) -> list[ErrorRow]:
    """One :class:`ErrorRow` per (language, metric) with scoring cases, sorted like
    :func:`rate_rows`: the summed tallies' ``top`` most frequent errors of each kind.

    Raises:
        InputError: a case's ``error_tally`` is not of the shape its figures write.
    """
    from pytest_asrbench.scoring.error_summary import ErrorTally

    rows = []
    for (language, metric), members in _scoring_groups(entries):
        tallied = [entry.figures["error_tally"] for entry in members if entry.figures.get("error_tally") is not None]
        total = sum((ErrorTally.from_data(data) for data in tallied), ErrorTally())
        rows.append(ErrorRow(language, metric, members[0].figures["unit"], len(tallied), len(members) - len(tallied),
                             total.summary(top)))
    return rows


def _order(entry: CaseEntry) -> tuple:
    return entry.language, entry.record.get("file", entry.nodeid), entry.record.get("line", 0), entry.nodeid


def language_rows(entries: Iterable[CaseEntry]) -> list[LanguageRow]:
    """One row per language (sorted by tag) with the count of each outcome."""
    rows: dict[str, dict[str, int]] = {}
    for entry in entries:
        counts = rows.setdefault(entry.language, dict.fromkeys(OUTCOMES, 0))
        counts[entry.outcome] += 1
    return [LanguageRow(language, counts) for language, counts in sorted(rows.items())]


def _micro(figures: list[dict[str, Any]]) -> tuple[int, int, float | None]:
    errors = sum(found["errors"] for found in figures)
    length = sum(found["reference_length"] for found in figures)
    return errors, length, (errors / length if length else None)


def rate_rows(entries: Iterable[CaseEntry]) -> list[RateRow]:
    """One row per (language, metric) that has scoring cases, sorted by language then metric."""
    rows = []
    for (language, metric), members in _scoring_groups(entries):
        errors, length, rate = _micro([entry.figures for entry in members])
        both = [entry for entry in members if entry.recorded]
        _, _, now = _micro([entry.figures for entry in both])
        _, _, recorded = _micro([entry.recorded for entry in both])
        change = now - recorded if now is not None and recorded is not None else None
        rows.append(RateRow(language, metric, members[0].figures["unit"], len(members), errors, length, rate,
                            len(both), recorded, change, len(members) - len(both)))
    return rows
