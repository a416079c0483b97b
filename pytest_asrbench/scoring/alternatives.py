"""References with alternatives: sclite's GLM syntax ``{ Jon / John }`` and ``{ um / @ }``.

A reference may say "either form is correct" by writing the forms between braces,
separated by a ``/`` that stands alone between spaces; ``@`` is an empty form (the words
may be absent). This is the alternation syntax of NIST sclite's references (sctk,
``sclite -r ref.trn trn``, and the GLM files of its ``csrfilt.sh``).

Scoring a reference with alternatives (:func:`best_reference`):

1. the reference is expanded into every choice of one form per alternation, in reading
   order, ``@`` leaving nothing;
2. each expansion is normalized like any reference (the normalizer never sees a brace of
   an alternation, so a form is normalized in its sentence: ``{ twenty / 20 } dollars``);
3. each is aligned with the normalized hypothesis through the alignment seam
   (:func:`pytest_asrbench.scoring.alignment.align`), and the expansion with the fewest
   errors wins; among equally good ones, the one that sclite's edit weights (substitution 4,
   insertion and deletion 3; the cheapest weighted alignment, rapidfuzz) make cheapest, then the one with the most reference tokens,
   then the first in reading order. This is sclite's choice, and so are the counts:
   ``reference_length`` counts the tokens of the chosen forms only (a ``{ um / @ }`` that
   the hypothesis leaves out counts nothing, not a deletion). ``tests/test_alternatives.py``
   checks the counts against the real sclite.

A brace that holds no standalone ``/`` is not an alternation and keeps its meaning as an
annotation (``{cough}``, removed by the ``brackets`` step). Anything else a reader could take
either way is refused with :class:`~pytest_asrbench.errors.InputError` quoting the text:
an unclosed or stray brace in a reference that has an alternation, a brace inside an
alternation, an empty form (``{ a / }``; write ``@``), ``@`` among words, a ``/`` without
spaces inside braces (``{ 24/7 }``), or more than :data:`MAX_EXPANSIONS` expansions.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from pytest_asrbench.errors import InputError
from pytest_asrbench.scoring.alignment import Alignment, align

__all__ = ["MAX_EXPANSIONS", "Alternation", "BestReference", "best_reference", "expansions", "has_alternatives",
           "parse_reference"]

#: The most expansions (the product of each alternation's number of forms) one reference may have.
MAX_EXPANSIONS = 4096

EMPTY = "@"
_BRACED = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Alternation:
    """One ``{ ... / ... }`` of a reference: its forms in order (``""`` for ``@``) and its text."""

    forms: tuple[str, ...]
    source: str


Piece = str | Alternation


def _is_alternation(inner: str) -> bool:
    return "/" in inner.split()


def has_alternatives(text: str) -> bool:
    """True when ``text`` may hold an alternation: a ``{`` with a ``/`` after it.

    Such a text goes through :func:`parse_reference`, which finds the alternations or
    refuses what is malformed; any other text is left to the normalizer as it is.
    """
    brace = text.find("{")
    return brace >= 0 and "/" in text[brace:]


def _refuse(text: str, problem: str, fix: str) -> InputError:
    return InputError(f"reference {text!r}: {problem}; {fix}")


def _forms(text: str, source: str) -> tuple[str, ...]:
    inner = source[1:-1]
    forms: list[str] = []
    for raw in re.split(r"(?:^|(?<=\s))/(?=\s|$)", inner):
        words = raw.split()
        if not words:
            raise _refuse(text, f"the alternation {source!r} has an empty form",
                          "write @ for a form that may be absent, as in { um / @ }")
        if EMPTY in words and words != [EMPTY]:
            raise _refuse(text, f"the alternation {source!r} mixes @ with words in one form",
                          "@ stands alone for 'nothing'; write { a b / @ }")
        forms.append("" if words == [EMPTY] else " ".join(words))
    if all(not form for form in forms):
        raise _refuse(text, f"the alternation {source!r} has no form with words", "give at least one form that has words")
    return tuple(forms)


def parse_reference(text: str) -> tuple[Piece, ...]:
    """Split ``text`` into plain text and :class:`Alternation` pieces, in reading order.

    A text without alternations is one plain piece (its braces, if any, are annotations).

    Raises:
        InputError: an alternation is malformed or ambiguous (see the module docstring); the
            message quotes the reference and says how to write it.
    """
    if not has_alternatives(text):
        return (text,)
    pieces: list[Piece] = []
    position = 0
    for match in _BRACED.finditer(text):
        inner = match.group(1)
        before = text[position:match.start()]
        if "{" in before or "}" in before:
            raise _refuse(text, "it has an alternation and a brace that is not closed or not opened",
                          "close every { with } (alternations do not nest)")
        if not _is_alternation(inner):
            if "/" in inner:
                raise _refuse(text, f"{match.group(0)!r} holds a / without spaces around it",
                              "write alternatives as { a / b } with spaces around /, or drop the braces")
            pieces.append(before + match.group(0))
        else:
            pieces.extend([before, Alternation(_forms(text, match.group(0)), match.group(0))])
        position = match.end()
    rest = text[position:]
    if "{" in rest or "}" in rest:
        raise _refuse(text, "it has an alternation and a brace that is not closed or not opened",
                      "close every { with } (alternations do not nest)")
    pieces.append(rest)
    pieces = [piece for piece in pieces if piece != ""]
    if not any(isinstance(piece, Alternation) for piece in pieces):
        return (text,)
    return tuple(pieces)


def expansions(pieces: tuple[Piece, ...], text: str = "") -> list[str]:
    """Every text the pieces stand for, one form per alternation, in reading order.

    Raises:
        InputError: more than :data:`MAX_EXPANSIONS` expansions (split the utterance).
    """
    choices = [piece.forms if isinstance(piece, Alternation) else (piece,) for piece in pieces]
    total = 1
    for options in choices:
        total *= len(options)
    if total > MAX_EXPANSIONS:
        raise _refuse(text, f"its alternations give {total} expansions, more than {MAX_EXPANSIONS}",
                      "split the utterance into shorter references")
    return ["".join(combination) for combination in itertools.product(*choices)]


@dataclass(frozen=True)
class BestReference:
    """The expansion :func:`best_reference` chose: raw and normalized text, and its alignment."""

    chosen: str
    normalized: str
    alignment: Alignment


#: sclite's default edit weights as rapidfuzz takes them: (insertion, deletion, substitution).
SCLITE_WEIGHTS = (3, 3, 4)


def _cost(alignment: Alignment) -> tuple[int, int, int]:
    errors = alignment.count("substitute") + alignment.count("delete") + alignment.count("insert")
    weighted = Levenshtein.distance(alignment.reference, alignment.hypothesis, weights=SCLITE_WEIGHTS)
    return errors, weighted, -len(alignment.reference)


def best_reference(reference: str, normalized_hypothesis: str, normalize: Callable[[str], str],
                   unit: str) -> BestReference | None:
    """The expansion of ``reference`` that the hypothesis matches best, or ``None`` without alternations.

    ``normalize`` is the language's normalizer (``str -> str``); ``unit`` is ``"word"`` or
    ``"char"``. The choice is sclite's: fewest errors (S + D + I), then the lowest
    ``4*S + 3*D + 3*I`` (sclite's weights), then most reference tokens, then the first in
    reading order.

    Raises:
        InputError: a malformed or ambiguous alternation, or too many expansions.
    """
    pieces = parse_reference(reference)
    if not any(isinstance(piece, Alternation) for piece in pieces):
        return None
    best: BestReference | None = None
    best_cost: tuple[int, int, int] | None = None
    for text in expansions(pieces, reference):
        normalized = normalize(text)
        alignment = align(normalized, normalized_hypothesis, unit)
        cost = _cost(alignment)
        if best_cost is None or cost < best_cost:
            best, best_cost = BestReference(text, normalized, alignment), cost
    return best
