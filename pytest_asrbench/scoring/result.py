"""Score results: one pair (:class:`PairScore`), a corpus (:class:`Score`), and :func:`aggregate`.

Kept apart from :mod:`.score` so that metric views (:mod:`.views`) can read and build
results without importing the function that runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_asrbench.scoring.alignment import Alignment


@dataclass(frozen=True)
class PairScore:
    """One reference/hypothesis pair: raw and normalized texts, alignment and counts.

    ``chosen_reference`` is set when ``reference`` holds alternatives (``{ a / b }``,
    :mod:`pytest_asrbench.scoring.alternatives`): the reference with the form the hypothesis
    matched best, which ``normalized_reference`` is the normalized form of. Views that
    normalize a reference again read :attr:`scored_reference`.
    """

    reference: str
    hypothesis: str
    normalized_reference: str
    normalized_hypothesis: str
    alignment: Alignment
    chosen_reference: str | None = None

    @property
    def scored_reference(self) -> str:
        """The raw reference that was scored: ``chosen_reference`` if set, else ``reference``."""
        return self.reference if self.chosen_reference is None else self.chosen_reference

    @property
    def hits(self) -> int:
        return self.alignment.count("equal")

    @property
    def substitutions(self) -> int:
        return self.alignment.count("substitute")

    @property
    def deletions(self) -> int:
        return self.alignment.count("delete")

    @property
    def insertions(self) -> int:
        return self.alignment.count("insert")

    @property
    def reference_length(self) -> int:
        return len(self.alignment.reference)

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
    """Sum the counts of ``pairs`` into one corpus-level :class:`Score`."""
    hits = sum(pair.hits for pair in pairs)
    substitutions = sum(pair.substitutions for pair in pairs)
    deletions = sum(pair.deletions for pair in pairs)
    insertions = sum(pair.insertions for pair in pairs)
    length = sum(pair.reference_length for pair in pairs)
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
        pairs=tuple(pairs),
    )
