"""Alignment of token sequences with jiwer (rapidfuzz's Levenshtein underneath).

Tokens are words (split on spaces) or characters. The alignment is returned as a list of
:class:`AlignmentOp` spans, the shape recorded in snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import jiwer

OpType = Literal["equal", "substitute", "delete", "insert"]


@dataclass(frozen=True)
class AlignmentOp:
    """One span of an alignment: ``reference`` tokens turned into ``hypothesis`` tokens by ``op``.

    ``ref_start``/``hyp_start`` index the first token of the span in each sequence.
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


@dataclass(frozen=True)
class Alignment:
    """Tokens of both sides and the spans that turn one into the other, with counts."""

    reference: tuple[str, ...]
    hypothesis: tuple[str, ...]
    ops: tuple[AlignmentOp, ...]

    def count(self, op: OpType) -> int:
        return sum(len(span.reference) or len(span.hypothesis) for span in self.ops if span.op == op)


def tokenize(text: str, unit: Literal["word", "char"]) -> list[str]:
    """Words (split on whitespace) or characters (every character, spaces included)."""
    return text.split() if unit == "word" else list(text)


def align(reference: str, hypothesis: str, unit: Literal["word", "char"]) -> Alignment:
    """Align two normalized texts as word or character sequences (jiwer's Levenshtein alignment)."""
    ref_tokens = tokenize(reference, unit)
    hyp_tokens = tokenize(hypothesis, unit)
    if not ref_tokens and not hyp_tokens:
        return Alignment((), (), ())
    if unit == "word":
        output = jiwer.process_words(" ".join(ref_tokens), " ".join(hyp_tokens))
    else:
        output = jiwer.process_characters(reference, hypothesis)
    ref_tokens = list(output.references[0])
    hyp_tokens = list(output.hypotheses[0])
    ops = tuple(
        AlignmentOp(
            chunk.type,
            tuple(ref_tokens[chunk.ref_start_idx : chunk.ref_end_idx]),
            tuple(hyp_tokens[chunk.hyp_start_idx : chunk.hyp_end_idx]),
            chunk.ref_start_idx,
            chunk.hyp_start_idx,
        )
        for chunk in output.alignments[0]
    )
    return Alignment(tuple(ref_tokens), tuple(hyp_tokens), ops)
