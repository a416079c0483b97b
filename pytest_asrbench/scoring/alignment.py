"""Alignment of token sequences: the one seam between the project and its edit-distance library.

The library is rapidfuzz (``rapidfuzz.distance.Levenshtein``, compiled; its version is pinned in
``pyproject.toml`` and is part of every metric signature). Chosen by measurement against
kaldialign, texterrors and jiwer's list mode (``benchmarks/alignment.py``, figures in
``benchmarks/README.md``): it is the fastest of them per pair, it returns the alignment itself
(the spans the reports, the aligned view and the code-switch regions read), and its minimum
edit distance alignment is the one jiwer's ``process_words``/``process_characters`` produced
here before (jiwer calls the same function on the same token ids), so every recorded S/D/I
split stays as it was. Where totals tie, rapidfuzz breaks the tie the same way every time.

Everything that turns the library's output into project types is in this module:

- :func:`align_tokens` / :func:`align`: the spans (:class:`Alignment` of :class:`AlignmentOp`);
- :func:`token_counts` / :func:`char_counts`: only the counts (:class:`EditCounts`), without
  building spans or token tuples, for corpus loops that never show an alignment;
- :func:`align_spans` / :func:`edit_distance`: the spans as plain tuples, or only the total
  of errors, for the code-switch and loanword rescues' hot loops.

Tokens are compared for equality only. Word tokens are numbered per pair (first seen, first
numbered) before they reach the library, so two different words can never compare equal
through a hash collision; a ``str`` is passed as it is (its characters are the tokens).
rapidfuzz has no call that aligns many pairs at once, so a corpus is one call per pair.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from rapidfuzz.distance import Levenshtein

from pytest_asrbench.errors import InputTypeError
from pytest_asrbench.scoring.counts import EditCounts

OpType = Literal["equal", "substitute", "delete", "insert"]

#: rapidfuzz's opcode tags -> the span names recorded in snapshots.
_OP_NAMES: dict[str, OpType] = {"equal": "equal", "replace": "substitute", "delete": "delete", "insert": "insert"}
_opcodes = Levenshtein.opcodes
_editops = Levenshtein.editops


@dataclass(frozen=True, slots=True)
class AlignmentOp:
    """One span of an alignment: ``reference`` tokens turned into ``hypothesis`` tokens by ``op``.

    ``ref_start``/``hyp_start`` index the first token of the span in each sequence.

    Raises:
        ValueError: an unknown ``op``, or token counts that do not fit it (``equal`` and
            ``substitute`` have as many tokens on both sides, ``delete`` none in the
            hypothesis, ``insert`` none in the reference).
    """

    op: OpType
    reference: tuple[str, ...]
    hypothesis: tuple[str, ...]
    ref_start: int
    hyp_start: int

    def __post_init__(self) -> None:
        sizes = {
            "equal": len(self.reference) == len(self.hypothesis) > 0,
            "substitute": len(self.reference) == len(self.hypothesis) > 0,
            "delete": len(self.reference) > 0 and not self.hypothesis,
            "insert": len(self.hypothesis) > 0 and not self.reference,
        }
        if self.op not in sizes:
            raise ValueError(f"unknown alignment op {self.op!r}")
        if not sizes[self.op]:
            raise ValueError(f"{self.op} span with {len(self.reference)} reference and "
                             f"{len(self.hypothesis)} hypothesis tokens is inconsistent")

    def as_dict(self) -> dict:
        return {"op": self.op, "reference": list(self.reference), "hypothesis": list(self.hypothesis)}


@dataclass(frozen=True, slots=True)
class Alignment:
    """Tokens of both sides and the spans that turn one into the other, with counts."""

    reference: tuple[str, ...]
    hypothesis: tuple[str, ...]
    ops: tuple[AlignmentOp, ...]

    def count(self, op: OpType) -> int:
        """Tokens in the spans of kind ``op`` (reference tokens; hypothesis tokens for ``insert``)."""
        return sum(len(span.reference) or len(span.hypothesis) for span in self.ops if span.op == op)

    def counts(self) -> EditCounts:
        """All four counts and the reference length as one :class:`EditCounts`."""
        return EditCounts(self.count("equal"), self.count("substitute"), self.count("delete"),
                          self.count("insert"), len(self.reference))


def tokenize(text: str, unit: Literal["word", "char"]) -> list[str]:
    """Words (split on whitespace) or characters (every character, spaces included)."""
    return text.split() if unit == "word" else list(text)


def _aligned_tokens(text: str, unit: str) -> list[str] | str:
    """The tokens :func:`align` aligns: the words, or the characters of the text without the
    whitespace at its two ends (a character alignment never counted those)."""
    if unit == "word":
        return text.split()
    if unit == "char":
        return text.strip()
    raise ValueError(f"unknown alignment unit {unit!r}; use 'word' or 'char'")


def tokenize_aligned(text: str, unit: str) -> list[str] | str:
    """The tokens :func:`align` aligns for ``text``: its words (``unit="word"``), or its
    characters without the whitespace at its two ends (``unit="char"``, as one string).

    Raises:
        ValueError: ``unit`` is neither ``"word"`` nor ``"char"``.
    """
    return _aligned_tokens(text, unit)


def _library_inputs(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> tuple[Sequence, Sequence]:
    """What the library compares: two strings as they are, else the tokens numbered per pair.

    Raises:
        InputTypeError: (a ``TypeError``) one side is a string and the other is not.
    """
    if isinstance(reference, str) is not isinstance(hypothesis, str):
        raise InputTypeError("align two strings (characters) or two sequences of tokens, not a mix; "
                             f"got {type(reference).__name__} and {type(hypothesis).__name__}")
    if isinstance(reference, str):
        return reference, hypothesis
    numbers: dict[Hashable, int] = {}
    number = numbers.setdefault
    return ([number(token, len(numbers)) for token in reference],
            [number(token, len(numbers)) for token in hypothesis])


def align_tokens(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> Alignment:
    """Minimum edit distance alignment of two token sequences, as spans. Tokens are words,
    characters or any hashable values, compared for equality only.

    A ``str`` on both sides aligns its characters. The spans cover both sequences in order;
    substitutions, deletions and insertions sum to the Levenshtein distance.

    Raises:
        InputTypeError: (a ``TypeError``) the sides mix a string and a sequence of tokens.
    """
    ref_tokens = tuple(reference)
    hyp_tokens = tuple(hypothesis)
    if not ref_tokens and not hyp_tokens:
        return Alignment((), (), ())
    ref_input, hyp_input = _library_inputs(reference, hypothesis)
    ops = tuple(
        AlignmentOp(_OP_NAMES[tag], ref_tokens[i1:i2], hyp_tokens[j1:j2], i1, j1)
        for tag, i1, i2, j1, j2 in _opcodes(ref_input, hyp_input)
    )
    return Alignment(ref_tokens, hyp_tokens, ops)


#: One span of :func:`align_spans`: ``(op, ref_start, ref_end, hyp_start, hyp_end)``.
Span = tuple[OpType, int, int, int, int]


def align_spans(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> list[Span]:
    """The spans of :func:`align_tokens`'s alignment as plain tuples ``(op, ref_start,
    ref_end, hyp_start, hyp_end)`` (token indices, ends exclusive), without building an
    :class:`AlignmentOp` per span or copying the tokens: for a caller that reads only where
    the spans are (the code-switch view's error regions). The same spans, in the same order,
    as ``align_tokens(reference, hypothesis).ops``.

    Raises:
        InputTypeError: as :func:`align_tokens`.
    """
    if not reference and not hypothesis:
        return []
    ref_input, hyp_input = _library_inputs(reference, hypothesis)
    names = _OP_NAMES
    return [(names[tag], i1, i2, j1, j2) for tag, i1, i2, j1, j2 in _opcodes(ref_input, hyp_input)]


def edit_distance(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> int:
    """Substitutions + deletions + insertions of :func:`align_tokens`'s alignment (the
    Levenshtein distance, unit costs), without building spans or counting each kind.

    Raises:
        InputTypeError: as :func:`align_tokens`.
    """
    if not reference or not hypothesis:
        return max(len(reference), len(hypothesis))
    return Levenshtein.distance(*_library_inputs(reference, hypothesis))


def edit_tallies(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> tuple[int, int, int, int, int]:
    """``(hits, substitutions, deletions, insertions, reference_length)`` of the same alignment
    as :func:`align_tokens`, without building spans: the hot path of corpus scoring.

    Raises:
        InputTypeError: as :func:`align_tokens`.
    """
    length = len(reference)
    if not length or not hypothesis:
        return 0, 0, length, len(hypothesis), length
    ref_input, hyp_input = _library_inputs(reference, hypothesis)
    tags = [tag for tag, _, _ in _editops(ref_input, hyp_input).as_list()]
    substitutions = tags.count("replace")
    deletions = tags.count("delete")
    return length - substitutions - deletions, substitutions, deletions, len(tags) - substitutions - deletions, length


def token_counts(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> EditCounts:
    """:func:`edit_tallies` as an :class:`EditCounts`: the counts of :func:`align_tokens`'s
    alignment (the same S/D/I split), without its spans.

    Raises:
        InputTypeError: as :func:`align_tokens`.
    """
    return EditCounts(*edit_tallies(reference, hypothesis))


def char_counts(reference: str, hypothesis: str) -> EditCounts:
    """Character edit counts turning ``reference`` into ``hypothesis`` (every character counts,
    spaces included, at the ends too: remove them first where the metric says so).

    Raises:
        TypeError: either side is not a string.
    """
    if not isinstance(reference, str) or not isinstance(hypothesis, str):
        raise TypeError(f"char_counts takes two str, got {type(reference).__name__} and {type(hypothesis).__name__}")
    return EditCounts(*edit_tallies(reference, hypothesis))


def align(reference: str, hypothesis: str, unit: Literal["word", "char"]) -> Alignment:
    """Align two normalized texts as word or character sequences (:func:`align_tokens` on
    their tokens). Words are split on whitespace; characters are every character of the text
    without the whitespace at its two ends.

    Raises:
        ValueError: ``unit`` is neither ``"word"`` nor ``"char"``.
    """
    return align_tokens(_aligned_tokens(reference, unit), _aligned_tokens(hypothesis, unit))


def align_counts(reference: str, hypothesis: str, unit: Literal["word", "char"]) -> tuple[int, int, int, int, int]:
    """:func:`edit_tallies` of the tokens :func:`align` aligns: ``(hits, substitutions,
    deletions, insertions, reference_length)`` of ``align(reference, hypothesis, unit)``.

    Raises:
        ValueError: ``unit`` is neither ``"word"`` nor ``"char"``.
    """
    return edit_tallies(_aligned_tokens(reference, unit), _aligned_tokens(hypothesis, unit))
