"""Edit counts of a character pair without building an alignment: the fast path of corpus scoring.

:func:`char_counts` gives the same hits, substitutions, deletions and insertions as
:func:`pytest_asrbench.scoring.alignment.align` with ``unit="char"`` (both read rapidfuzz's
Levenshtein edit operations: jiwer's ``process_characters`` turns them into the opcodes
``align`` reads), but skips the spans and token tuples, so it scores tens of thousands of
pairs a second. One difference: jiwer strips spaces at the ends of each side, this counts every
character (the benchmark metric removes all spaces first). ``tests/bench/test_scoring.py``
pins the equality on random Thai pairs without spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein


@dataclass(frozen=True, slots=True)
class EditCounts:
    """Counts of one pair, in characters: ``hits + substitutions + deletions == reference_length``."""

    hits: int
    substitutions: int
    deletions: int
    insertions: int
    reference_length: int

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions


def char_counts(reference: str, hypothesis: str) -> EditCounts:
    """Character edit counts turning ``reference`` into ``hypothesis`` (every character counts,
    spaces included: remove them first where the metric says so).

    Raises:
        TypeError: either side is not a string.
    """
    if not isinstance(reference, str) or not isinstance(hypothesis, str):
        raise TypeError(f"char_counts takes two str, got {type(reference).__name__} and {type(hypothesis).__name__}")
    substitutions = deletions = insertions = 0
    for tag, _, _ in Levenshtein.editops(reference, hypothesis).as_list():
        if tag == "replace":
            substitutions += 1
        elif tag == "delete":
            deletions += 1
        else:
            insertions += 1
    length = len(reference)
    return EditCounts(length - substitutions - deletions, substitutions, deletions, insertions, length)
