"""The English view of one side of a pair, tied token by token to its Hindi normalization.

The raw text is cut into *chunks*: maximal runs of words of one script (Latin, Devanagari,
neutral such as digits, other). Each chunk is normalized alone by the Hindi rules; when
the pieces add up to the normalization of the whole text, every Hindi token is known to
come from one chunk. Where two neighbouring chunks interact (``25 हज़ार`` is one number,
``a b c डैश 1 2 3`` one code), they are merged into a ``mixed`` chunk, whose English view
is its Hindi view.

The English view of a Latin chunk is its raw text normalized by the English rules and then
by the Hindi rules (``I'm not sure`` -> ``i am not sure``; ``twenty five`` -> ``25``; the
Hindi pass maps loanwords so ``code`` is ``कोड`` in both views). A Latin chunk whose two
views differ is a *unit*: it is compared as a whole. Every other token is its own unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_asrbench.codeswitch.scripts import Script, word_script

# The same separators as the normalizer's unicode_whitespace step.
_SEPARATORS = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff\u00ad]+")


@dataclass(frozen=True)
class Unit:
    """Hindi tokens ``[start, end)`` of one side, compared as one piece in the English view."""

    start: int
    end: int
    chunk_script: str
    english: tuple[str, ...]

    @property
    def one_to_one(self) -> bool:
        """True when the English view is the Hindi token itself (``end - start == 1``, same text)."""
        return self.end - self.start == 1 and len(self.english) == 1


@dataclass(frozen=True)
class SideView:
    """One side of a pair: its Hindi tokens, the unit of each token, and each token's chunk script."""

    tokens: tuple[str, ...]
    unit_of: tuple[int, ...]
    units: tuple[Unit, ...]

    def chunk_script(self, index: int) -> str:
        return self.units[self.unit_of[index]].chunk_script


def _chunks(raw: str) -> list[tuple[str, str]]:
    """``[(script, text), ...]``: maximal runs of raw words of one script class."""
    chunks: list[list] = []
    for word in _SEPARATORS.split(raw):
        if not word:
            continue
        script: Script = word_script(word)
        if script == "mixed":
            script = "other"
        if chunks and chunks[-1][0] == script:
            chunks[-1][1].append(word)
        else:
            chunks.append([script, [word]])
    return [(script, " ".join(words)) for script, words in chunks]


def build_side_view(raw: str, tokens: tuple[str, ...], hindi, english) -> SideView:
    """Tie the Hindi ``tokens`` of ``raw`` to chunks and build each chunk's English view.

    ``hindi`` and ``english`` are the two normalizers (``str -> str``). ``tokens`` must be
    ``hindi(raw).split()``.

    Raises:
        RuntimeError: the merged chunks still do not reproduce ``tokens`` (a normalizer
            step that reorders words across the text; report it as a bug).
    """
    chunks = _chunks(raw)
    pieces = [hindi(text).split() for _, text in chunks]
    if [token for piece in pieces for token in piece] != list(tokens):
        chunks, pieces = _merge_interacting(chunks, pieces, hindi)
        if [token for piece in pieces for token in piece] != list(tokens):
            whole = " ".join(text for _, text in chunks)
            chunks, pieces = [("mixed", whole)], [hindi(whole).split()]
            if pieces[0] != list(tokens):
                raise RuntimeError(f"hindi normalization of {raw!r} is not stable; report this as a bug")
    units: list[Unit] = []
    unit_of: list[int] = []
    position = 0
    for (script, text), piece in zip(chunks, pieces):
        start, end = position, position + len(piece)
        position = end
        if not piece:
            continue
        if script == "latin":
            view = tuple(hindi(english(text)).split())
            if view != tuple(piece):
                unit_of.extend([len(units)] * len(piece))
                units.append(Unit(start, end, script, view))
                continue
        for index, token in enumerate(piece):
            unit_of.append(len(units))
            units.append(Unit(start + index, start + index + 1, script, (token,)))
    return SideView(tuple(tokens), tuple(unit_of), tuple(units))


def _merge_interacting(chunks, pieces, hindi):
    """Merge neighbouring chunks whose joint normalization is not the sum of their own."""
    merged_chunks = [chunks[0]]
    merged_pieces = [pieces[0]]
    for chunk, piece in zip(chunks[1:], pieces[1:]):
        previous_text = merged_chunks[-1][1]
        joint = hindi(previous_text + " " + chunk[1]).split()
        if joint == merged_pieces[-1] + piece:
            merged_chunks.append(chunk)
            merged_pieces.append(piece)
        else:
            merged_chunks[-1] = ("mixed", previous_text + " " + chunk[1])
            merged_pieces[-1] = joint
    return merged_chunks, merged_pieces
