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

Cost: the chunk map needs the Hindi tokens of each chunk, so it is built only when a
token's unit or chunk script depends on it (see :class:`SideView`); each chunk's Hindi
tokens and a Latin chunk's English view are memoized per chunk text (:class:`LatinViews`):
words and phrases recur from turn to turn far more than whole sides do. Only when the
chunks' own tokens do not add up to the side's (neighbours that interact) is the side
normalized again, chunk by chunk in one call (:func:`chunk_pieces`). A region whose tokens
are none of the side's *wide tokens* (the Hindi tokens of Latin chunks whose views differ,
read from the chunks' texts alone) is of own units throughout (:meth:`SideView.own_units`):
it needs neither the chunk map nor widening, and a home-script token is known to be its own
unit without even splitting the side into chunks. A region that does widen reads one list of
units per side (:meth:`SideView.wide_units`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain, groupby

from pytest_asrbench.scoring.views.codeswitch.detect import ScriptDetection
from pytest_asrbench.normalize.steps.basic import INVISIBLE, WHITESPACE

#: The detection a side uses when none is given: Hindi's (Latin words are English).
DEVANAGARI = ScriptDetection("devanagari")



@dataclass(frozen=True)
class Unit:
    """Hindi tokens ``[start, end)`` of one side, compared as one piece in the English view."""

    start: int
    end: int
    english: tuple[str, ...]

    @property
    def one_to_one(self) -> bool:
        """True when the English view is the Hindi token itself (``end - start == 1``, same text)."""
        return self.end - self.start == 1 and len(self.english) == 1


class LatinViews:
    """The two readings of a chunk's text, memoized per text (one set per rescuer).

    ``english(text)``: the English view, ``hindi(english(text))`` as tokens (Latin chunks).
    ``hindi(text)``: the chunk's own Hindi tokens (any chunk: the side's chunk map reads them).
    """

    def __init__(self, hindi, english, maxsize: int = 1 << 14):
        self._hindi = hindi
        self._english = english
        self.english = lru_cache(maxsize)(self._english_view)
        self.hindi = lru_cache(maxsize)(self._hindi_tokens)
        #: ``wide(text)``: the Hindi tokens of a Latin chunk whose two views differ (one wide
        #: unit), ``()`` when they are equal; memoized per text like the views themselves.
        self.wide = lru_cache(maxsize)(self._wide_tokens)

    def _english_view(self, text: str) -> tuple[str, ...]:
        return tuple(self._hindi(self._english(text)).split())

    def _hindi_tokens(self, text: str) -> tuple[str, ...]:
        return tuple(self._hindi(text).split())

    def differs(self, text: str) -> bool:
        """Whether the English view of ``text`` differs from its Hindi tokens (then it is one unit)."""
        return self.english(text) != self.hindi(text)

    def _wide_tokens(self, text: str) -> tuple[str, ...]:
        return self.hindi(text) if self.differs(text) else ()


class SideView:
    """One side of a pair: its Hindi tokens, tied to chunks on demand, and the unit of each token.

    The chunk map (one Hindi normalization of the side, chunks joined by a sentinel) is
    built only when needed. A token is its own unit without it when

    - it is a Devanagari token that is not a loanword of the lexicon (it can only come
      from a non-Latin chunk), or
    - the side has several chunks and the token is not one of the Hindi tokens of a Latin
      chunk whose English view differs from them (only such a chunk is a wider unit, and
      its tokens are its own Hindi normalization).

    A side of one chunk needs no normalization for its map. A Latin chunk's English view is
    computed the first time it is needed. ``chunks_of``, if given, is ``raw ->
    split_chunks(raw, detection.classify)`` (the rescuer's memoized one, which the whole-turn
    view reads too).
    """

    __slots__ = ("raw", "tokens", "_detection", "_chunks_of", "_hindi", "_latin", "_loanwords", "_raw_chunks",
                 "_wide_tokens", "_chunks", "_chunk_of_list", "_chunk_start", "_pieces", "_per_chunk", "_chunk_units",
                 "_units", "_wide_units")

    def __init__(self, raw: str, tokens, hindi, latin: LatinViews, loanwords=frozenset(), detection=DEVANAGARI,
                 chunks_of=None):
        self.raw = raw
        self._detection = detection
        # ``chunks_of(raw)``: split_chunks(raw, detection.classify), possibly memoized by the caller.
        self._chunks_of = chunks_of
        self.tokens = tuple(tokens)
        self._hindi = hindi
        self._latin = latin
        self._loanwords = loanwords
        self._raw_chunks: list[tuple[str, str]] | None = None
        self._wide_tokens: frozenset[str] | None = None
        self._chunks: list[tuple[str, str]] | None = None
        # Built with the chunk map (_ensure_chunks): each chunk's Hindi tokens and first token
        # index, and whether the pieces are each chunk's own normalization (not chunk_pieces').
        self._pieces: list[tuple[str, ...]] = []
        self._chunk_start: list[int] = []
        self._per_chunk = False
        self._chunk_of_list: list[int] | None = None  # the chunk of each token, on first use
        self._chunk_units: dict[int, tuple[Unit, ...] | Unit] = {}
        self._units: dict[int, Unit] = {}
        self._wide_units: list[Unit | None] | None = None

    @property
    def _chunk_of(self) -> list[int]:
        """The chunk index of each token (built from the map on first use)."""
        if self._chunk_of_list is None:
            self._ensure_chunks()
            self._chunk_of_list = [chunk_index for chunk_index, piece in enumerate(self._pieces) for _ in piece]
        return self._chunk_of_list

    def chunk_script(self, index: int) -> str:
        chunk_of = self._chunk_of
        return self._chunks[chunk_of[index]][0]

    def unit(self, index: int) -> Unit:
        """The unit holding Hindi token ``index`` (memoized per index: a region's widening and
        its English span ask for the same tokens)."""
        unit = self._units.get(index)
        if unit is None:
            unit = self._units[index] = self._find_unit(index)
        return unit

    def wide_units(self) -> list[Unit | None]:
        """Per token index, its :meth:`unit` when that unit is not the token alone with the
        token as its English view, else ``None`` (the token is its own unit, its English view
        itself). Built once per side, chunk by chunk, for the regions that widen (a list is
        read far faster than :meth:`unit` is called)."""
        if self._wide_units is None:
            units: list[Unit | None] = [None] * len(self.tokens)
            wide = self.wide_tokens
            if wide:
                self._fill_wide_units(units, wide)
            self._wide_units = units
        return self._wide_units

    def _fill_wide_units(self, units: list[Unit | None], wide: frozenset[str]) -> None:
        """Set ``units[index]`` to the unit of each token of :attr:`wide_tokens` that lies in
        a unit wider than itself, chunk by chunk: what :meth:`unit` gives such a token, with
        no call per token. Every other token keeps ``None`` (:meth:`unit` gives it a unit of
        itself: a home token the detection makes its own unit, a token of a chunk whose views
        agree, of a ``mixed`` merge, or of no English chunk)."""
        self._ensure_chunks()
        detection, loanwords = self._detection, self._loanwords
        own_home = detection.home_tokens_are_own_units
        classify = detection.classify
        english = self._latin.english
        pieces, starts = self._pieces, self._chunk_start
        # Each chunk its own normalization: a Latin chunk whose views differ has every token in
        # ``wide`` (wide_tokens is the union of such pieces), so only the home-token rule of the
        # detection can leave one of them out.
        every_token = self._per_chunk and not own_home
        for chunk_index, (script, text) in enumerate(self._chunks):
            if script != "second":
                continue
            piece = pieces[chunk_index]
            view = english(text)
            if view == piece:
                continue
            start = starts[chunk_index]
            unit = Unit(start, start + len(piece), view)
            if every_token:
                units[start:start + len(piece)] = [unit] * len(piece)
                continue
            for offset, token in enumerate(piece):
                if token in wide and not (own_home and token not in loanwords and classify(token) == "home"):
                    units[start + offset] = unit

    def _find_unit(self, index: int) -> Unit:
        token = self.tokens[index]
        if (self._detection.home_tokens_are_own_units and token not in self._loanwords
                and self._detection.classify(token) == "home") or self._own_unit_by_text(token):
            return Unit(index, index + 1, (token,))
        self._ensure_chunks()
        chunk_index = self._chunk_of[index]
        if chunk_index not in self._chunk_units:
            self._chunk_units[chunk_index] = self._build_units(chunk_index)
        units = self._chunk_units[chunk_index]
        if isinstance(units, Unit):
            return units
        return units[index - self._chunk_start[chunk_index]]

    def _own_unit_by_text(self, token: str) -> bool:
        """``token`` is no Hindi token of a Latin chunk with differing views.

        Such a token is in a chunk that keeps one unit per token whatever the map: a Latin
        chunk with equal views, any other chunk, or a ``mixed`` merge.
        """
        return token not in self.wide_tokens

    @property
    def wide_tokens(self) -> frozenset[str]:
        """The Hindi tokens of the Latin chunks whose views differ (only such a token may lie
        in a unit wider than itself); computed once per side."""
        if self._wide_tokens is None:
            self._wide_tokens = self._tokens_of_wide_chunks()
        return self._wide_tokens

    def own_units(self, tokens) -> bool:
        """Whether each of ``tokens`` (tokens of this side) is its own unit by its text alone
        (:meth:`unit` would give it a unit of one token, its English view the token itself),
        so a region of them needs neither the chunk map nor widening."""
        detection = self._detection
        if detection.home_tokens_are_own_units:  # a home token that is no loanword needs no chunk split
            classify, loanwords = detection.classify, self._loanwords
            tokens = [token for token in tokens if token in loanwords or classify(token) != "home"]
            if not tokens:
                return True
        wide = self.wide_tokens
        return not wide or wide.isdisjoint(tokens)

    def _tokens_of_wide_chunks(self) -> frozenset[str]:
        """The Hindi tokens of the Latin chunks whose views differ. A side of one chunk is its
        own map (its one piece is ``tokens`` itself): it is one wide unit when it is a Latin
        chunk whose English view differs from ``tokens``, else every token is its own unit."""
        chunks = self._split_chunks()
        if len(chunks) <= 1:
            if chunks and chunks[0][0] == "second" and self._latin.english(chunks[0][1]) != self.tokens:
                return frozenset(self.tokens)
            return frozenset()
        wide = self._latin.wide
        return frozenset(token for script, text in chunks if script == "second" for token in wide(text))

    def _split_chunks(self) -> list[tuple[str, str]]:
        if self._raw_chunks is None:
            self._raw_chunks = (split_chunks(self.raw, self._detection.classify) if self._chunks_of is None
                                else self._chunks_of(self.raw))
        return self._raw_chunks

    def _ensure_chunks(self) -> None:
        if self._chunks is not None:
            return
        chunks = self._split_chunks()
        # Each chunk's own Hindi tokens, memoized per chunk text (chunks recur from turn to
        # turn far more than whole sides do): when they add up to the side's tokens, they are
        # the map, and the side costs no normalization.
        if len(chunks) > 1:
            hindi = self._latin.hindi
            pieces = [hindi(text) for _, text in chunks]
            if tuple(chain.from_iterable(pieces)) == self.tokens:
                self._chunks, self._pieces, self._per_chunk = chunks, pieces, True
        if self._chunks is None:
            chunks, pieces = chunk_pieces(self.raw, self.tokens, self._hindi, chunks, self._detection.classify)
            self._chunks, self._pieces = chunks, [tuple(piece) for piece in pieces]
        self._chunk_start = list(accumulate(map(len, self._pieces), initial=0))

    def _build_units(self, chunk_index: int):
        script, text = self._chunks[chunk_index]
        piece = self._pieces[chunk_index]
        start = self._chunk_start[chunk_index]
        if script == "second":
            view = self._latin.english(text)
            if view != piece:
                return Unit(start, start + len(piece), view)
        return tuple(Unit(start + k, start + k + 1, (token,)) for k, token in enumerate(piece))


# The code point ranges of Default_Ignorable_Code_Point (DerivedCoreProperties.txt, UAX #44).
_DEFAULT_IGNORABLE_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                             (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                             (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                             (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
                             (0xE0000, 0xE0FFF))
# The printable characters (``str.isprintable``) that INVISIBLE removes. Every other
# character INVISIBLE removes is a format or control character (never printable), so a
# printable text without these has nothing to remove (the combining grapheme joiner,
# Hangul fillers, variation selectors ...).
_PRINTABLE_INVISIBLE = frozenset(
    char for first, last in _DEFAULT_IGNORABLE_RANGES for char in map(chr, range(first, last + 1))
    if char.isprintable() and INVISIBLE.fullmatch(char))


def raw_words(raw: str) -> list[str]:
    """The raw words of ``raw`` at the normalizer's own word boundaries: in-word joiners
    (format, control and default-ignorable characters) vanish, whitespace separates.

    Printable text (``str.isprintable``) has no whitespace but the space (every other
    ``str.isspace`` character is a separator or control, which is not printable), so when it
    also has none of the few printable characters INVISIBLE removes, its words are
    ``raw.split()``, without the two regular expressions (the common case)."""
    if raw.isprintable() and (raw.isascii() or _PRINTABLE_INVISIBLE.isdisjoint(raw)):
        return raw.split()
    return [word for word in WHITESPACE.split(INVISIBLE.sub("", raw)) if word]


def split_chunks(raw: str, classify=DEVANAGARI.classify) -> list[tuple[str, str]]:
    """``[(class, text), ...]``: maximal runs of raw words of one class (``classify``: a
    detection's word classes, :mod:`.detect`)."""
    return [(script, " ".join(words)) for script, words in groupby(raw_words(raw), classify)]


# A private-use character that every normalizer step leaves alone as a word of its own: the
# chunks of a side are normalized in one call, joined by it, and split again.
SENTINEL = "\ue000"


def normalize_each(texts: list[str], normalizer) -> list[list[str]]:
    """``[normalizer(text).split() for text in texts]``, in one normalizer call when possible.

    The texts are joined by :data:`SENTINEL` and the output split at it; if a step moved or
    dropped a sentinel, each text is normalized alone instead.
    """
    if len(texts) <= 1:
        return [normalizer(text).split() for text in texts]
    pieces: list[list[str]] = [[]]
    for token in normalizer(f" {SENTINEL} ".join(texts)).split():
        if token == SENTINEL:
            pieces.append([])
        elif SENTINEL in token:
            break
        else:
            pieces[-1].append(token)
    else:
        if len(pieces) == len(texts):
            return pieces
    return [normalizer(text).split() for text in texts]


def chunk_pieces(raw: str, tokens: tuple[str, ...], hindi, chunks: list[tuple[str, str]] | None = None,
                 classify=DEVANAGARI.classify) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """The chunks of ``raw`` and the Hindi tokens of each, adding up to ``tokens``.

    ``tokens`` must be ``hindi(raw).split()``; ``chunks``, if given, ``split_chunks(raw)``.
    Interacting neighbours are merged (``mixed``).

    Raises:
        RuntimeError: even the merged chunks do not reproduce ``tokens`` (a normalizer step
            that reorders words across the text; report it as a bug).
    """
    if chunks is None:
        chunks = split_chunks(raw, classify)
    if len(chunks) <= 1:
        return chunks or [("neutral", "")], [list(tokens)]
    pieces = normalize_each([text for _, text in chunks], hindi)
    if [token for piece in pieces for token in piece] != list(tokens):
        pieces = [hindi(text).split() for _, text in chunks]
        if [token for piece in pieces for token in piece] != list(tokens):
            chunks, pieces = _merge_interacting(chunks, pieces, hindi)
        if [token for piece in pieces for token in piece] != list(tokens):
            whole = " ".join(text for _, text in chunks)
            chunks, pieces = [("mixed", whole)], [hindi(whole).split()]
            if pieces[0] != list(tokens):
                raise RuntimeError(f"hindi normalization of {raw!r} is not stable; report this as a bug")
    return chunks, pieces


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
