"""sclite's ``trn`` lines: what its reader takes, and utterances cut so sclite aligns as we did.

``trn`` (sclite's ``infmts``): one line per utterance, its tokens separated by spaces and its
id in parentheses at the end (``the cat sat (en_names-pair)``); with ``-i rm`` the id is
``speaker-utterance``.

**What the reader cannot take** (SCTK 2.4.10, Debian's ``sctk``, tried token by token):
a NUL ends the line (the id is lost and the whole file refused: "Not enough Reference files
loaded"); other C0 and C1 control characters and DEL are dropped from the word (``a<U+0001>b``
becomes ``ab``, so two different words compare equal); a word in parentheses is read as an
optionally deletable word, braces as an alternation ``{ a / b }``, a lone ``@`` is dropped,
and a line starting with ``;;`` is a comment. :func:`token_problem` names each of these, and
the export refuses such a token rather than write a file sclite misreads. A lone surrogate
cannot be written as UTF-8 at all.

**Segments.** sclite aligns with its own costs (a substitution 4, a deletion or insertion 3),
while the run aligns with unit costs (Levenshtein, jiwer): where several alignments are
equally cheap for one and not the other, the two count different S/D/I (``a b`` / ``b c``:
two substitutions for the run, a deletion and an insertion for sclite). :func:`segments` cuts
an utterance at the edges of the run's alignment spans, so that each piece has exactly one
cheapest alignment under either cost and sclite counts the run's S, D and I: a run of hits
(identical tokens), a run of deletions (no hypothesis token), a run of insertions (no
reference token), a run of substitutions whose reference and hypothesis share no token (then
n substitutions cost 4n and every other alignment more), and otherwise one substitution per
piece.
"""

from __future__ import annotations

import re
import unicodedata

from pytest_asrbench.scoring.alignment import Alignment

#: A space kept as a token (a character-scored metric that counts spaces) is written so.
SPACE_TOKEN = "<sp>"

_CONTROL_NAMES = {0: "NUL", 9: "TAB", 10: "LF", 13: "CR", 0x7F: "DEL", 0x85: "NEL"}


def raw_words(text: str) -> list[str]:
    """The words of a raw text as sclite splits a line: on ASCII whitespace only (space, tab,
    LF, CR, VT, FF). Python's ``str.split()`` would also split on U+0085, U+001C..U+001F and
    Unicode spaces; here they stay inside the word, where :func:`token_problem` names a
    control character."""
    return [word for word in re.split(r"[ \t\n\r\x0b\x0c]+", text) if word]


def trn_token(token: str) -> str:
    """A token as written in a ``trn`` line: a space token as :data:`SPACE_TOKEN`, else itself."""
    return SPACE_TOKEN if token == " " else token


def _character(char: str) -> str:
    code = ord(char)
    name = _CONTROL_NAMES.get(code) or unicodedata.name(char, "")
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def token_problem(token: str) -> str | None:
    """Why sclite's ``trn`` reader cannot take ``token`` as one word, or ``None`` when it can.

    The rules are what SCTK 2.4.10's sclite does with each (module docstring).
    """
    for char in token:
        category = unicodedata.category(char)
        if category == "Cc":
            return f"the control character {_character(char)}, which sclite's trn reader drops or stops the line at"
        if category == "Cs":
            return f"the lone surrogate {_character(char)}, which cannot be written as UTF-8"
    if char_set := set(token) & set("(){}"):
        return (f"{''.join(sorted(char_set))!r}: sclite reads a word in parentheses as optionally deletable, the "
                "last parenthesized group as the utterance id and braces as an alternation { a / b }")
    if token == "@":
        return "a lone '@', which sclite drops (its optionally-deletable marker)"
    if token.startswith(";;"):
        return "';;' at the start of a word, which starts a comment when the word begins a line"
    return None


def segments(alignment: Alignment) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """``(reference tokens, hypothesis tokens)`` pieces of ``alignment`` in order, cut so that
    sclite's alignment of each piece is the run's (module docstring); one empty piece for an
    empty alignment."""
    pieces: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for span in alignment.ops:
        if span.op == "substitute" and set(span.reference) & set(span.hypothesis):
            pieces += [((ref,), (hyp,)) for ref, hyp in zip(span.reference, span.hypothesis)]
        else:
            pieces.append((span.reference, span.hypothesis))
    return pieces or [((), ())]


def segment_ids(utterance_id: str, count: int) -> list[str]:
    """Ids of the ``count`` segments of an utterance: ``<id>.s1`` ... (zero-padded to one width)."""
    width = len(str(count))
    return [f"{utterance_id}.s{number:0{width}d}" for number in range(1, count + 1)]


def trn_line(tokens, utterance_id: str) -> str:
    """One ``trn`` line: the tokens and the id (the tokens already checked by :func:`token_problem`)."""
    return " ".join([*tokens, f"({utterance_id})"])
