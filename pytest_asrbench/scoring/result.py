"""Score results: one pair (:class:`PairScore`), a corpus (:class:`Score`), and :func:`aggregate`.

Kept apart from :mod:`.score` so that metric views (:mod:`.views`) can read and build
results without importing the function that runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench.scoring.alignment import Alignment, Span, align, align_counts, align_spans, tokenize_aligned
from pytest_asrbench.scoring.counts import EditCounts


@dataclass(frozen=True, slots=True)
class PairScore:
    """One reference/hypothesis pair: raw and normalized texts, counts in ``unit`` (``"word"``
    or ``"char"``), and (on demand) the alignment.

    The counts are taken when the pair is scored (``hits + substitutions + deletions ==
    reference_length``); the :attr:`alignment` spans are built the first time something reads
    them (a snapshot, a report, the aligned view, a metric view) from the normalized texts, by
    the same aligner, so they always agree with the counts. A corpus run that only needs the
    rate never builds them. :meth:`of` scores a normalized pair, :meth:`from_alignment` keeps an
    alignment already made.

    ``chosen_reference`` is set when ``reference`` holds alternatives (``{ a / b }``,
    :mod:`pytest_asrbench.scoring.alternatives`): the reference with the form the hypothesis
    matched best, which ``normalized_reference`` is the normalized form of. Views that
    normalize a reference again read :attr:`scored_reference`.
    """

    reference: str
    hypothesis: str
    normalized_reference: str
    normalized_hypothesis: str
    unit: str
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    reference_length: int
    chosen_reference: str | None = None
    _alignment: Alignment | None = field(default=None, compare=False, repr=False)
    _spans: list[Span] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, reference: str, hypothesis: str, normalized_reference: str, normalized_hypothesis: str,
           unit: str) -> PairScore:
        """The pair with the counts of ``align(normalized_reference, normalized_hypothesis, unit)``.

        Raises:
            ValueError: ``unit`` is neither ``"word"`` nor ``"char"``.
        """
        return cls(reference, hypothesis, normalized_reference, normalized_hypothesis, unit,
                   *align_counts(normalized_reference, normalized_hypothesis, unit))

    @classmethod
    def with_spans(cls, reference: str, hypothesis: str, normalized_reference: str, normalized_hypothesis: str,
                   unit: str) -> PairScore:
        """:meth:`of`, with the alignment's spans kept (:attr:`spans`): one alignment gives both
        the counts and the spans, for a metric view that reads the spans of most pairs (the
        code-switch rescue's error regions). The counts are the spans' own, the same as
        :meth:`of` gives (one aligner, the same tokens).

        Raises:
            ValueError: ``unit`` is neither ``"word"`` nor ``"char"``.
        """
        ref_tokens = tokenize_aligned(normalized_reference, unit)
        spans = align_spans(ref_tokens, tokenize_aligned(normalized_hypothesis, unit))
        tallies = {"equal": 0, "substitute": 0, "delete": 0, "insert": 0}
        for op, ref_start, ref_end, hyp_start, hyp_end in spans:
            tallies[op] += hyp_end - hyp_start if op == "insert" else ref_end - ref_start
        return cls(reference, hypothesis, normalized_reference, normalized_hypothesis, unit, tallies["equal"],
                   tallies["substitute"], tallies["delete"], tallies["insert"], len(ref_tokens), None, None, spans)

    @classmethod
    def from_alignment(cls, reference: str, hypothesis: str, normalized_reference: str, normalized_hypothesis: str,
                       unit: str, alignment: Alignment, chosen_reference: str | None = None) -> PairScore:
        """The pair whose counts are those of ``alignment`` (already made, e.g. for the chosen
        form of a reference with alternatives), which it keeps."""
        return cls(reference, hypothesis, normalized_reference, normalized_hypothesis, unit,
                   alignment.count("equal"), alignment.count("substitute"), alignment.count("delete"),
                   alignment.count("insert"), len(alignment.reference), chosen_reference, alignment)

    @property
    def scored_reference(self) -> str:
        """The raw reference that was scored: ``chosen_reference`` if set, else ``reference``."""
        return self.reference if self.chosen_reference is None else self.chosen_reference

    @property
    def alignment(self) -> Alignment:
        """The spans turning the normalized reference into the normalized hypothesis (built
        on first read, then kept)."""
        alignment = self._alignment
        if alignment is None:
            alignment = align(self.normalized_reference, self.normalized_hypothesis, self.unit)
            object.__setattr__(self, "_alignment", alignment)
        return alignment

    @property
    def spans(self) -> list[Span]:
        """The alignment's spans as plain tuples ``(op, ref_start, ref_end, hyp_start, hyp_end)``
        (:func:`~pytest_asrbench.scoring.alignment.align_spans`, token indices, ends exclusive):
        the ones kept by :meth:`with_spans`, else aligned now (and kept), by the same aligner on
        the same tokens, so they are always :attr:`alignment`'s spans."""
        spans = self._spans
        if spans is None:
            spans = align_spans(tokenize_aligned(self.normalized_reference, self.unit),
                                tokenize_aligned(self.normalized_hypothesis, self.unit))
            object.__setattr__(self, "_spans", spans)
        return spans

    @property
    def counts(self) -> EditCounts:
        """The pair's counts as one :class:`EditCounts`."""
        return EditCounts(self.hits, self.substitutions, self.deletions, self.insertions, self.reference_length)

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float | None:
        """Errors per reference token, or ``None`` for an empty reference."""
        return self.errors / self.reference_length if self.reference_length else None


@dataclass(frozen=True)
class Score:
    """The result of :func:`score`.

    Attributes:
        rate: (S + D + I) / reference_length, micro-averaged over pairs; ``None`` when the
            reference is empty (then ``insertions`` says how many words were hallucinated).
        unit: ``"word"`` (WER) or ``"char"`` (CER).
        hits, substitutions, deletions, insertions, reference_length: summed counts, in units.
        metric, version: the metric's name and version.
        language, config_version: the normalizer config used and its version.
        details: extra figures (a language may add e.g. ``strict_rate``).
        pairs: one :class:`PairScore` per input pair, in input order.
    """

    rate: float | None
    unit: str
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    reference_length: int
    metric: str
    version: str
    language: str
    config_version: str
    details: dict[str, Any] = field(default_factory=dict)
    pairs: tuple[PairScore, ...] = ()

    def __post_init__(self) -> None:
        for name in ("hits", "substitutions", "deletions", "insertions", "reference_length"):
            if getattr(self, name) < 0:
                raise ValueError(f"Score.{name} must be >= 0, got {getattr(self, name)}")
        if self.hits + self.substitutions + self.deletions != self.reference_length:
            raise ValueError("Score: hits + substitutions + deletions must equal reference_length")

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions


def aggregate(pairs: Sequence[PairScore], *, unit: str, metric: str, version: str, language: str,
              config_version: str, details: dict[str, Any] | None = None) -> Score:
    """Sum the counts of ``pairs`` into one corpus-level :class:`Score` (micro-averaged)."""
    pairs = tuple(pairs)
    hits = substitutions = deletions = insertions = length = 0
    for pair in pairs:
        hits += pair.hits
        substitutions += pair.substitutions
        deletions += pair.deletions
        insertions += pair.insertions
        length += pair.reference_length
    errors = substitutions + deletions + insertions
    return Score(
        rate=errors / length if length else None,
        unit=unit,
        hits=hits,
        substitutions=substitutions,
        deletions=deletions,
        insertions=insertions,
        reference_length=length,
        metric=metric,
        version=version,
        language=language,
        config_version=config_version,
        details=dict(details or {}),
        pairs=pairs,
    )
