"""Edit counts: the one type for the S/D/I/hits of a pair or a corpus.

:class:`EditCounts` is what every scorer here sums and reports: a pair's counts from
:func:`pytest_asrbench.scoring.alignment.char_counts` or ``token_counts``, a metric view's
headline counts, the CER views of the Mandarin protocol, a benchmark set's corpus counts. Sums
are micro-averaged: ``rate = (S + D + I) / N`` over the summed counts, never a mean of rates.

The counts themselves come from the alignment seam (:mod:`pytest_asrbench.scoring.alignment`,
the one module that reads the edit-distance library), which imports this module; callers
import ``char_counts`` from the seam.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_asrbench.errors import InputError, InputTypeError

#: What :meth:`EditCounts.to_dict` writes unless told otherwise: the scores' form (``score()``'s
#: CER views, the Thai benchmark's record).
SCORE_FIELDS: tuple[str, ...] = ("rate", "hits", "substitutions", "deletions", "insertions", "reference_length")
#: Every name :meth:`EditCounts.to_dict` accepts.
KNOWN_FIELDS: frozenset[str] = frozenset(SCORE_FIELDS) | {"errors"}


@dataclass(frozen=True, slots=True)
class EditCounts:
    """Edit counts of a pair or a corpus, in the scorer's unit (words or characters).

    ``hits + substitutions + deletions == reference_length``: the reference's tokens as the
    counts were taken (a view that drops spaces counts the reference without them).

    Raises:
        InputTypeError: (a ``TypeError``) a field is not an ``int``.
        InputError: (a ``ValueError``) a field is negative, or the sum above does not hold.
    """

    hits: int
    substitutions: int
    deletions: int
    insertions: int
    reference_length: int

    def __post_init__(self) -> None:
        values = (self.hits, self.substitutions, self.deletions, self.insertions, self.reference_length)
        if not all(type(value) is int for value in values):
            bad = {name: type(value).__name__ for name, value in zip(_NAMES, values) if type(value) is not int}
            raise InputTypeError(f"EditCounts fields are int counts; got {bad}")
        if min(values) < 0:
            raise InputError(f"EditCounts cannot be negative; got {dict(zip(_NAMES, values))}")
        if self.hits + self.substitutions + self.deletions != self.reference_length:
            raise InputError(f"EditCounts: hits + substitutions + deletions must equal reference_length; got "
                             f"{dict(zip(_NAMES, values))} (a view that counts other tokens gives their number)")

    @classmethod
    def zero(cls) -> EditCounts:
        """The counts of nothing (an empty corpus): the start of a sum."""
        return _ZERO

    @classmethod
    def total(cls, counts: Iterable[EditCounts]) -> EditCounts:
        """The sum of ``counts`` (the zero value for none): the corpus (micro-averaged) counts."""
        hits = substitutions = deletions = insertions = length = 0
        for item in counts:
            hits += item.hits
            substitutions += item.substitutions
            deletions += item.deletions
            insertions += item.insertions
            length += item.reference_length
        return cls(hits, substitutions, deletions, insertions, length)

    @property
    def errors(self) -> int:
        """``substitutions + deletions + insertions``."""
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float | None:
        """``errors / reference_length``; ``None`` for an empty reference (no rate is defined)."""
        return self.errors / self.reference_length if self.reference_length else None

    def __add__(self, other: EditCounts) -> EditCounts:
        if not isinstance(other, EditCounts):
            return NotImplemented
        return EditCounts(self.hits + other.hits, self.substitutions + other.substitutions,
                          self.deletions + other.deletions, self.insertions + other.insertions,
                          self.reference_length + other.reference_length)

    def to_dict(self, fields: Sequence[str] = SCORE_FIELDS) -> dict[str, Any]:
        """``{field: value}`` for ``fields`` in that order (names of :data:`KNOWN_FIELDS`:
        the five counts, ``errors`` and ``rate``); by default the scores' form :data:`SCORE_FIELDS`.

        Raises:
            InputError: a name is not one of :data:`KNOWN_FIELDS`.
        """
        unknown = [name for name in fields if name not in KNOWN_FIELDS]
        if unknown:
            raise InputError(f"EditCounts.to_dict: unknown field(s) {unknown}; known: {sorted(KNOWN_FIELDS)}")
        return {name: getattr(self, name) for name in fields}


_NAMES = ("hits", "substitutions", "deletions", "insertions", "reference_length")
_ZERO = EditCounts(0, 0, 0, 0, 0)

