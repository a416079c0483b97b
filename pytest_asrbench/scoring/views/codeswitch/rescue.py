"""The code-switch rescuer: error regions of the Hindi alignment re-checked with an English view.

Source: the original requirements' "Hindi code-switching" section. The Hindi alignment is never changed.
Each *error region* (a maximal run of mismatched alignment columns; neighbouring errors are
one region) is rescued whole or not at all, and only when all of these hold:

1. at most :data:`MAX_REGION_WORDS` words on each side, and at least one reference word;
2. the English views of the two sides are identical there, word for word, where a
   Devanagari/Latin word pair may also be equal by the phonetic matcher (if the config
   turns it on);
3. the reference is English there: every reference word of the region is in Latin script,
   or a Devanagari word that the matcher paired with a Latin word;
4. the hypothesis is English too: every hypothesis word is in Latin script, digits written
   as digits, or a Devanagari word paired by the matcher (so seven vs सात, which both
   normalize to 7, stays an error).

A region whose Latin chunk is wider than the region (``I'm not sure`` is one English view,
while only ``m``/``am`` mismatch) is compared over the whole chunk: the region is widened,
on both sides through the alignment, until it holds whole units (see ``views.py``).
Errors only ever go down: a rescue removes the region's errors and adds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterator, Sequence
from functools import lru_cache, partial
from itertools import repeat
from typing import NamedTuple

from pytest_asrbench.scoring.views.codeswitch.sides import DEVANAGARI, LatinViews, SideView, split_chunks
from pytest_asrbench.scoring.alignment import Alignment, Span

MAX_REGION_WORDS = 4


class Column(NamedTuple):
    """One column of an alignment: a reference and/or hypothesis token index and the op."""

    op: str
    ref: int | None
    hyp: int | None


class Region:
    """A maximal run of non-equal columns, ``[start, end)`` in column space, with the token
    indices of each side in it (``ref_indices``, ``hyp_indices``) and its count of each op.

    Two regions are equal when their ``start``, ``end`` and ``columns`` are. A plain class
    with slots rather than a frozen dataclass: a corpus makes one per error region of every
    turn with an English word, and a frozen dataclass sets each field through
    ``object.__setattr__`` (twice the cost per region). Read it, do not assign to it."""

    __slots__ = ("start", "end", "columns", "ref_indices", "hyp_indices")

    def __init__(self, start: int, end: int, columns: tuple[Column, ...]):
        self.start = start
        self.end = end
        self.columns = columns
        self.ref_indices: list[int] = [column[1] for column in columns if column[1] is not None]
        self.hyp_indices: list[int] = [column[2] for column in columns if column[2] is not None]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Region):
            return NotImplemented
        return (self.start, self.end, self.columns) == (other.start, other.end, other.columns)

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.columns))

    def __repr__(self) -> str:
        return f"Region(start={self.start!r}, end={self.end!r}, columns={self.columns!r})"

    def count(self, op: str) -> int:
        return sum(1 for column in self.columns if column.op == op)


@dataclass(frozen=True)
class Rescue:
    """One rescued region, for audit: its words, why it was accepted, and the errors removed."""

    reference: tuple[str, ...]
    hypothesis: tuple[str, ...]
    reason: str
    why: str
    english_reference: tuple[str, ...]
    english_hypothesis: tuple[str, ...]
    phonetic: tuple[tuple[str, str, str], ...]
    substitutions: int
    deletions: int
    insertions: int
    ref_indices: tuple[int, ...] = ()
    phonetic_ref_indices: tuple[int, ...] = ()
    phonetic_fields: tuple[str, str] = ("devanagari", "latin")

    @property
    def errors_removed(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    def as_dict(self) -> dict:
        return {
            "reference": " ".join(self.reference),
            "hypothesis": " ".join(self.hypothesis),
            "reason": self.reason,
            "why": self.why,
            "english_view": {
                "reference": " ".join(self.english_reference),
                "hypothesis": " ".join(self.english_hypothesis),
            },
            "phonetic": [{self.phonetic_fields[0]: home, self.phonetic_fields[1]: second, "key": key}
                         for home, second, key in self.phonetic],
            "errors_removed": self.errors_removed,
        }


@dataclass
class PairRescue:
    """What the rescuer found in one pair: its regions and the rescues among them."""

    regions: list[Region] = field(default_factory=list)
    rescues: list[Rescue] = field(default_factory=list)


_new_column = partial(tuple.__new__, Column)  # Column(op, ref, hyp) from one (op, ref, hyp) tuple, in C


def _span_columns(op: str, ref_start: int, ref_end: int, hyp_start: int, hyp_end: int) -> Iterator[Column]:
    """The single-token columns of one alignment span (token indices, ends exclusive)."""
    if op == "insert":
        count = hyp_end - hyp_start
        return map(_new_column, zip(repeat(op, count), repeat(None, count), range(hyp_start, hyp_end)))
    count = ref_end - ref_start
    hyps = repeat(None, count) if op == "delete" else range(hyp_start, hyp_start + count)
    return map(_new_column, zip(repeat(op, count), range(ref_start, ref_end), hyps))


def spans_of(alignment: Alignment) -> list[Span]:
    """The spans of ``alignment`` as :func:`~pytest_asrbench.scoring.alignment.align_spans`
    gives them: ``(op, ref_start, ref_end, hyp_start, hyp_end)``."""
    return [(span.op, span.ref_start, span.ref_start + len(span.reference), span.hyp_start,
             span.hyp_start + len(span.hypothesis)) for span in alignment.ops]


def columns_of(alignment: Alignment) -> list[Column]:
    """Expand alignment spans into single-token columns."""
    return span_columns(spans_of(alignment))


def error_regions(columns: list[Column]) -> list[Region]:
    """Maximal runs of non-equal columns."""
    regions = []
    start = None
    for index, column in enumerate(columns):
        if column[0] != "equal":
            if start is None:
                start = index
        elif start is not None:
            regions.append(Region(start, index, tuple(columns[start:index])))
            start = None
    if start is not None:
        regions.append(Region(start, len(columns), tuple(columns[start:])))
    return regions


def columns_and_regions(alignment: Alignment) -> tuple[list[Column], list[Region]]:
    """``(columns_of(alignment), error_regions(columns_of(alignment)))`` in one pass over the
    spans (:func:`span_columns_and_regions`)."""
    return span_columns_and_regions(spans_of(alignment))


def span_columns_and_regions(spans) -> tuple[list[Column], list[Region]]:
    """The columns and error regions of an alignment given as spans ``(op, ref_start,
    ref_end, hyp_start, hyp_end)`` (:func:`~pytest_asrbench.scoring.alignment.align_spans`):
    ``(span_columns(spans), span_regions(spans))``."""
    return span_columns(spans), span_regions(spans)


def span_regions(spans) -> list[Region]:
    """The error regions of an alignment given as spans (``span_columns_and_regions(spans)[1]``)
    without expanding the equal spans into columns: each equal span only moves the column
    count on (a region's ``start`` and ``end`` are column indices all the same)."""
    regions: list[Region] = []
    region_columns: list[Column] | None = None
    start = position = 0
    for span in spans:
        op, ref_start, ref_end, hyp_start, hyp_end = span
        if ref_start == ref_end and hyp_start == hyp_end:
            continue  # an empty span has no column: it neither ends nor starts a region
        if op == "equal":
            if region_columns is not None:
                regions.append(Region(start, position, tuple(region_columns)))
                region_columns = None
        else:
            if region_columns is None:
                region_columns, start = [], position
            region_columns.extend(_span_columns(*span))
        position += hyp_end - hyp_start if op == "insert" else ref_end - ref_start
    if region_columns is not None:
        regions.append(Region(start, position, tuple(region_columns)))
    return regions


def span_columns(spans) -> list[Column]:
    """Every single-token column of an alignment given as spans, in order."""
    columns: list[Column] = []
    for span in spans:
        columns.extend(_span_columns(*span))
    return columns


class _Sides(NamedTuple):
    """The two token sequences of an alignment (what the region checks read of it)."""

    reference: Sequence[str]
    hypothesis: Sequence[str]


class Rescuer:
    """Rescues the error regions of pairs, for one language config.

    ``hindi`` and ``english`` are the home and the second language's normalizers
    (``str -> str``); ``matcher`` a cross-script matcher (:mod:`.matchers`), or ``None``
    when the config names none; ``loanwords`` the home-script loanwords of the lexicon;
    ``detection`` how a word's language is told (:mod:`.detect`; Hindi's script detection
    by default).

    The region memo: a region's verdict (rescued or not, and its :class:`Rescue` but for
    where the region sits in its turn) is kept per rescuer, under exactly what the verdict
    reads (:meth:`_try_region`):

    - the region's reference and hypothesis tokens and the op of each of its columns (its
      token indices then follow, counted from its first token on each side): what the word
      conditions, the matcher, the counts and the record read;
    - whether every token is its own unit on both sides (:meth:`SideView.own_units`, which
      reads the side's chunks beyond the region), and if not, the widened region's English
      view on each side with each English word's token (counted from the region's first
      token; ``None`` for a word of a unit of several tokens) and whether the English view
      differs from the widened region's tokens: what widening (neighbouring units, the
      side's chunk map, how far the region grew) gives the verdict, computed per turn
      before the look-up;
    - not in the key: whether a hypothesis digit's chunk is English or neutral
      (:meth:`SideView.chunk_script`, a fact of the whole side): the memo keeps which digits
      need it and the turn checks them.

    The words, the matcher's verdicts and the word classes are fixed per rescuer, so two
    regions with the same key get the same verdict (``tests/scoring/test_codeswitch_region_memo.py``
    checks the memo against the unmemoized path). Bounded by :attr:`VERDICT_LIMIT`
    entries, dropped whole when full.
    """

    #: The most entries of one rescuer's region memo (word-condition answers and verdicts):
    #: about 25 MB at the most (at most ~700 bytes an entry, measured on the code-switch
    #: benchmark's ``--varied`` turns).
    VERDICT_LIMIT = 1 << 15

    def __init__(self, hindi, english, matcher=None, loanwords: frozenset[str] = frozenset(), detection=DEVANAGARI):
        self.hindi = hindi
        self.english = english
        self.matcher = matcher
        self.loanwords = loanwords
        self.detection = detection
        self.classify = classify = detection.classify
        #: Whether a token counts as the second language's (its class, or a home-script
        #: loanword of the lexicon), and whether it is of a third script: per word, memoized.
        self.is_second = lru_cache(maxsize=1 << 16)(lambda word: classify(word) == "second" or word in loanwords)
        self.is_other = lru_cache(maxsize=1 << 16)(lambda word: classify(word) == "other")
        #: A side's chunks (:func:`~.sides.split_chunks`) and a raw word's home normalization,
        #: memoized (a side's chunks are read by its side view and its whole-turn view).
        self.side_chunks = lru_cache(maxsize=1 << 12)(lambda raw: tuple(split_chunks(raw, classify)))
        self.home_text = lru_cache(maxsize=1 << 16)(hindi)
        #: The matcher's verdict on a word pair, memoized per pair (a verdict is immutable and
        #: a pure function of the two words: pairs recur from turn to turn).
        self.check = lru_cache(maxsize=1 << 16)(matcher.check) if matcher is not None else None
        #: An English chunk's English normalization, memoized per chunk text (chunks recur); the
        #: side views' English view of a chunk reads it too, so a chunk that both the region
        #: check and the whole-turn view read is normalized by the English rules once.
        self.english_text = lru_cache(maxsize=1 << 14)(english)
        self.latin_views = LatinViews(hindi, self.english_text)
        #: The home tokens of a whole side's English-view text (:meth:`_context_view`),
        #: memoized per text: a reference scored against several hypotheses is normalized once.
        self.turn_tokens = lru_cache(maxsize=1 << 12)(lambda text: tuple(hindi(text).split()))
        #: The region memo (:meth:`_try_region`); see :attr:`VERDICT_LIMIT`.
        self._verdicts: dict = {}
        self._record_fields = getattr(matcher, "record_fields", ("devanagari", "latin"))

    def rescue_pair(self, raw_ref: str, raw_hyp: str, alignment: Alignment) -> PairRescue:
        """The regions of ``alignment`` (of the home normalizations of ``raw_ref`` and
        ``raw_hyp``) and the rescues among them."""
        return self.rescue_spans(raw_ref, raw_hyp, alignment.reference, alignment.hypothesis, spans_of(alignment))

    def rescue_spans(self, raw_ref: str, raw_hyp: str, reference, hypothesis, spans) -> PairRescue:
        """:meth:`rescue_pair` for an alignment given as its two token sequences and its spans
        (:func:`~pytest_asrbench.scoring.alignment.align_spans`), so a caller that needs only
        the regions never builds an :class:`Alignment`. ``reference`` and ``hypothesis`` must
        be ``hindi(raw_ref).split()`` and ``hindi(raw_hyp).split()`` (the home normalizer's
        words, which the side views are tied to)."""
        sides = _Sides(reference, hypothesis)
        result = PairRescue(regions=span_regions(spans))
        views: dict[str, SideView] = {}

        def view(side: str) -> SideView:
            if side not in views:
                raw, tokens = (raw_ref, reference) if side == "ref" else (raw_hyp, hypothesis)
                views[side] = SideView(raw, tokens, self.hindi, self.latin_views, self.loanwords, self.detection,
                                       self.side_chunks)
            return views[side]

        # Every column of the alignment, only for a region that touches a wide unit (whose
        # widening may take in equal columns): built once, on first use.
        column_index = _ColumnIndex(spans)
        for region in result.regions:
            rescue = self._try_region(region, column_index, sides, view)
            if rescue is not None:
                result.rescues.append(rescue)
        if self.detection.context_view and len(result.rescues) < len(result.regions):
            self._rescue_in_context(result, raw_ref, raw_hyp, sides)
        return result

    def could_rescue(self, ref_words: Sequence[str], hyp_words: Sequence[str]) -> bool:
        """Whether an error region whose tokens are ``ref_words`` and ``hyp_words`` (the home
        normalizer's, in order) meets every condition of a rescue that reads its words alone:
        its size (at least one reference word, at most :data:`MAX_REGION_WORDS` on each side),
        and either the region check's word classes (:meth:`_words_may_be_english`) or, for a
        detection with the whole-turn view, that view's (:meth:`_context_candidate`).

        A region for which this is ``False`` is never rescued, by either check: the region
        check drops it before any side view is built (:meth:`_try_region`, with the classes it
        reads again), so a turn none of whose regions passes builds none. One memoized class
        look-up per word: no normalization, no chunk."""
        if not ref_words or len(ref_words) > MAX_REGION_WORDS or len(hyp_words) > MAX_REGION_WORDS:
            return False
        classify = self.classify
        ref_classes = [classify(word) for word in ref_words]
        hyp_classes = [classify(word) for word in hyp_words]
        if self._words_may_be_english(ref_words, hyp_words, ref_classes, hyp_classes):
            return True
        return self.detection.context_view and self._context_candidate(ref_classes, hyp_classes)

    def _words_may_be_english(self, ref_words, hyp_words, ref_classes, hyp_classes) -> bool:
        """The region check's necessary conditions, read from the words and their classes
        before any English view is built: English on one side at least; every reference word
        English, or a home-script word the matcher could pair with an English hypothesis word;
        every hypothesis word English, digits, or such a home-script word."""
        if not ("second" in ref_classes or "second" in hyp_classes):
            return False  # no English on either side: the English view cannot differ
        for classes, words, other_has_second in ((ref_classes, ref_words, "second" in hyp_classes),
                                                 (hyp_classes, hyp_words, "second" in ref_classes)):
            for word_class, word in zip(classes, words):
                if word_class == "second" or (word_class == "neutral" and classes is hyp_classes):
                    continue
                if word_class == "home" and other_has_second and self.matcher is not None \
                        and self.matcher.could_match(word):
                    continue
                return False
        return True

    @staticmethod
    def _context_candidate(ref_classes, hyp_classes) -> bool:
        """The whole-turn view's necessary conditions on a region's word classes: an English
        reference word, and no word of a third script on either side."""
        return "second" in ref_classes and "other" not in ref_classes and "other" not in hyp_classes

    def _context_text(self, raw: str, hypothesis: bool) -> str | None:
        """The text whose home normalization is the English view of a whole side: each
        English chunk replaced by its English normalization (so a home rule that reads across
        the chunk boundary, es "a las 9" = "a las 9:00", sees the English number).

        ``None`` for a hypothesis with a home word the home rules write as digits (fr "trois"
        is 3: the digits of such a side may be a translation, not a rendering).
        """
        pieces = []
        for script, text in self.side_chunks(raw):
            if script == "second":
                pieces.append(self.english_text(text))
                continue
            if hypothesis and script == "home" and any(
                    self.classify(token) == "neutral" for word in text.split() for token in self.latin_views.hindi(word)):
                return None
            pieces.append(text)
        return " ".join(pieces)

    def _context_view(self, text: str, raw: str, tokens) -> tuple[str, ...]:
        """The English view of a whole side whose :meth:`_context_text` is ``text``: its home
        normalization's tokens. A side with no English chunk whose raw text has single spaces
        is its own ``text``, so its view is its home tokens ``tokens`` (which are
        ``hindi(raw).split()``), with no normalization."""
        if text == raw:
            return tuple(tokens)
        return self.turn_tokens(text)

    def _rescue_in_context(self, result: PairRescue, raw_ref: str, raw_hyp: str, alignment: _Sides) -> None:
        """Same-script languages: rescue the regions left when the whole turn's English views
        are identical (:meth:`_context_view`). A region still needs its size and an English
        reference word; every other reference word must be English too or a home word the
        transcript also has (``Euro`` in ``twenty five Euro`` / ``25 Euro``, which the home
        rules write as one token ``25€``); a hypothesis word may be a home word (the two
        views being identical, and no home word of the transcript standing for digits, it
        renders the same speech: ``am`` in ``I am`` for ``I'm``)."""
        rescued = {rescue.ref_indices for rescue in result.rescues}
        candidates = []
        hyp_raw_words = None
        for region in result.regions:
            ref_indices, hyp_indices = region.ref_indices, region.hyp_indices
            if tuple(ref_indices) in rescued or not ref_indices or len(ref_indices) > MAX_REGION_WORDS \
                    or len(hyp_indices) > MAX_REGION_WORDS:
                continue
            ref_words = [alignment.reference[i] for i in ref_indices]
            hyp_words = [alignment.hypothesis[i] for i in hyp_indices]
            classes = [self.classify(word) for word in ref_words]
            hyp_classes = [self.classify(word) for word in hyp_words]
            if not self._context_candidate(classes, hyp_classes):
                continue
            if any(cls == "home" and any(self.classify(token) == "neutral" for token in self.latin_views.hindi(word))
                   for cls, word in zip(hyp_classes, hyp_words)):
                continue  # a home number word in the transcript: a translation (the whole view would say so too)
            if hyp_raw_words is None:
                hyp_raw_words = {self.home_text(word) for word in raw_hyp.split()}
            if any(cls != "second" and not (cls == "home" and word in hyp_raw_words)
                   for cls, word in zip(classes, ref_words)):
                continue  # a reference word neither English nor a home word the transcript has
            candidates.append((region, ref_words, hyp_words))
        if not candidates:
            return  # no region could pass: the whole turn's views are not built
        hyp_text = self._context_text(raw_hyp, True)  # first: a translated number rejects it cheaply
        if hyp_text is None:
            return
        ref_text = self._context_text(raw_ref, False)
        hyp_view = self._context_view(hyp_text, raw_hyp, alignment.hypothesis)
        # One normalizer applied to the same text gives the same view: only different texts
        # need the reference's view.
        if ref_text != hyp_text and hyp_view != self._context_view(ref_text, raw_ref, alignment.reference):
            return
        ref_view = hyp_view
        found = []
        for region, ref_words, hyp_words in candidates:
            ref_indices = region.ref_indices
            found.append(Rescue(
                reference=tuple(ref_words), hypothesis=tuple(hyp_words), reason="english_view_in_context",
                why=f"English view of the whole turn identical on both sides: {' '.join(ref_view)!r}",
                english_reference=ref_view, english_hypothesis=ref_view, phonetic=(),
                substitutions=region.count("substitute"), deletions=region.count("delete"),
                insertions=region.count("insert"), ref_indices=tuple(ref_indices)))
        if found:
            result.rescues = sorted(result.rescues + found, key=lambda rescue: rescue.ref_indices)

    def _try_region(self, region, column_index, alignment, view) -> Rescue | None:
        ref_indices, hyp_indices = region.ref_indices, region.hyp_indices
        if not ref_indices or len(ref_indices) > MAX_REGION_WORDS or len(hyp_indices) > MAX_REGION_WORDS:
            return None
        reference, hypothesis = alignment.reference, alignment.hypothesis
        ref_words = tuple([reference[i] for i in ref_indices])
        hyp_words = tuple([hypothesis[i] for i in hyp_indices])
        ops = tuple([column[0] for column in region.columns])
        words_key = (ref_words, hyp_words, ops)
        verdicts = self._verdicts
        may = verdicts.get(words_key)
        if may is None:
            classify = self.classify
            may = self._words_may_be_english(ref_words, hyp_words, [classify(word) for word in ref_words],
                                             [classify(word) for word in hyp_words])
            self._remember(words_key, may)
        if not may:
            return None
        ref_view, hyp_view = view("ref"), view("hyp")
        ref_start = ref_indices[0]
        hyp_start = hyp_indices[0] if hyp_indices else 0
        if ref_view.own_units(ref_words) and hyp_view.own_units(hyp_words):
            # Every token its own unit: the region needs no widening, and its English view
            # is its own tokens on each side (no chunk map is built).
            key = (words_key, None)
        else:
            if _within(ref_view.wide_units(), ref_indices) and _within(hyp_view.wide_units(), hyp_indices):
                window = region.columns  # no unit reaches past the region: widening leaves it as it is
            else:
                columns = column_index.columns
                start, end = self._widen(region, columns, column_index, ref_view, hyp_view)
                window = columns[start:end]
            ref_english, ref_origin = _english_span(ref_view, window, "ref")
            hyp_english, hyp_origin = _english_span(hyp_view, window, "hyp")
            english_changed = (tuple(ref_english), tuple(hyp_english)) != (
                tuple([reference[i] for c in window if (i := c.ref) is not None]),
                tuple([hypothesis[i] for c in window if (i := c.hyp) is not None]),
            )
            key = (words_key, (tuple(ref_english), tuple([None if i is None else i - ref_start for i in ref_origin]),
                               tuple(hyp_english), tuple([None if i is None else i - hyp_start for i in hyp_origin]),
                               english_changed))
        verdict = verdicts.get(key)
        if verdict is None:
            verdict = self._region_verdict(ref_words, hyp_words, ops, key[1])
            self._remember(key, verdict)
        if verdict is False:
            return None
        fields, phonetic_offsets, digit_offsets = verdict
        for offset in digit_offsets:
            if hyp_view.chunk_script(hyp_start + offset) not in ("second", "neutral"):
                return None  # a digit of a home-language chunk: a translation, not a rendering
        return Rescue(*fields, ref_indices=tuple(ref_indices),
                      phonetic_ref_indices=tuple([ref_start + offset for offset in phonetic_offsets]),
                      phonetic_fields=self._record_fields)

    def _remember(self, key, verdict) -> None:
        """Keep ``verdict`` under ``key`` in the region memo, dropped whole when full (a
        dropped verdict is computed again, the same one)."""
        verdicts = self._verdicts
        if len(verdicts) >= self.VERDICT_LIMIT:
            verdicts.clear()
        verdicts[key] = verdict

    def _region_verdict(self, ref_words, hyp_words, ops, english):
        """The verdict of a region whose tokens are ``ref_words``/``hyp_words`` and whose
        columns' ops are ``ops`` (its token indices counted from its first reference and first
        hypothesis token), given its English view ``english``: ``None`` when every token is
        its own unit (the English view is the tokens themselves), else ``(ref_english,
        ref_origin, hyp_english, hyp_origin, english_changed)`` of the widened region, each
        origin counted from the same first tokens (``None``: no token of its own).

        ``False`` when the region is not rescued; else ``(fields, phonetic_offsets,
        digit_offsets)``: the :class:`Rescue` fields up to ``insertions``, the paired
        reference tokens inside the region and the hypothesis digits whose chunk must be
        English or neutral (:meth:`SideView.chunk_script`: read per turn, since it depends on
        the side's chunks beyond the region), all as offsets from the region's first token."""
        ref_count, hyp_count = len(ref_words), len(hyp_words)
        if english is None:
            ref_english, ref_origin = ref_words, range(ref_count)
            hyp_english, hyp_origin = hyp_words, range(hyp_count)
            english_changed = False
        else:
            ref_english, ref_origin, hyp_english, hyp_origin, english_changed = english
        if len(ref_english) != len(hyp_english):
            return False
        classify = self.classify
        phonetic = []
        paired_ref: set[int] = set()
        paired_hyp: set[int] = set()
        for ref_word, hyp_word, ref_from, hyp_from in zip(ref_english, hyp_english, ref_origin, hyp_origin):
            if ref_word == hyp_word:
                continue
            if self.matcher is None:
                return False
            verdict = self.check(ref_word, hyp_word)
            if not verdict.matched:
                return False
            phonetic.append((verdict.home, verdict.second, verdict.key))
            if ref_from is not None:
                paired_ref.add(ref_from)
            if hyp_from is not None:
                paired_hyp.add(hyp_from)
        for offset, word in enumerate(ref_words):
            if classify(word) != "second" and offset not in paired_ref:
                return False  # the reference is not English here (a digit, a home-language word)
        digit_offsets = []
        for offset, word in enumerate(hyp_words):
            script = classify(word)
            if script == "second" or offset in paired_hyp:
                continue
            if script == "neutral":
                digit_offsets.append(offset)  # digits written as digits, if their chunk says so
                continue
            return False  # the hypothesis is Hindi here: a translation, not a rendering
        if phonetic and english_changed:
            reason = "english_view+phonetic"
        elif phonetic:
            reason = "phonetic"
        else:
            reason = "english_view"
        fields = (ref_words, hyp_words, reason, _why(reason, ref_english, hyp_english, phonetic),
                  tuple(ref_english), tuple(hyp_english), tuple(phonetic),
                  ops.count("substitute"), ops.count("delete"), ops.count("insert"))
        return fields, tuple(sorted(offset for offset in paired_ref if 0 <= offset < ref_count)), tuple(digit_offsets)

    @staticmethod
    def _widen(region, columns, column_index: _ColumnIndex, ref_view: SideView, hyp_view: SideView) -> tuple[int, int]:
        """Widen ``region`` (in columns) until it holds whole units on both sides.

        A one-token unit is its own column, already inside; only wider units move the edges.
        """
        start, end = region.start, region.end
        ref_units, hyp_units = ref_view.wide_units(), hyp_view.wide_units()
        while True:
            new_start, new_end = start, end
            for _, ref, hyp in columns[start:end]:
                for side, index, units in (("ref", ref, ref_units), ("hyp", hyp, hyp_units)):
                    if index is None:
                        continue
                    unit = units[index]
                    if unit is None or unit.end - unit.start == 1:
                        continue
                    side_col = column_index.of(side)
                    new_start = min(new_start, side_col[unit.start])
                    new_end = max(new_end, side_col[unit.end - 1] + 1)
            if (new_start, new_end) == (start, end):
                return start, end
            start, end = new_start, new_end


class _ColumnIndex:
    """The columns of an alignment given as spans, and the column of each token of one side
    (``"ref"`` or ``"hyp"``), each built on first use."""

    def __init__(self, spans):
        self._spans = spans
        self._columns: list[Column] | None = None
        self._maps: dict[str, dict[int, int]] = {}

    @property
    def columns(self) -> list[Column]:
        if self._columns is None:
            self._columns = span_columns(self._spans)
        return self._columns

    def of(self, side: str) -> dict[int, int]:
        if side not in self._maps:
            field_index = Column._fields.index(side)
            self._maps[side] = {column[field_index]: index for index, column in enumerate(self.columns)
                                if column[field_index] is not None}
        return self._maps[side]


def _within(units, indices) -> bool:
    """Whether the unit of every token ``indices`` (consecutive token indices of one side, as
    a region holds them) lies within those tokens: then :meth:`Rescuer._widen` would not move
    the region on this side (every token of a unit it reads is already one of its columns)."""
    if not indices:
        return True
    first, last = indices[0], indices[-1]
    for index in indices:
        unit = units[index]
        if unit is not None and (unit.start < first or unit.end > last + 1):
            return False
    return True


def _english_span(side: SideView, columns, which: str) -> tuple[list[str], list[int | None]]:
    """The English view of one side over ``columns`` and, per word, its Hindi token (or None)."""
    words: list[str] = []
    origin: list[int | None] = []
    seen_units = set()
    units, tokens = side.wide_units(), side.tokens
    field_index = 1 if which == "ref" else 2
    for column in columns:
        index = column[field_index]
        if index is None:
            continue
        unit = units[index]
        if unit is None:  # its own unit: the token itself
            if index in seen_units:
                continue
            seen_units.add(index)
            words.append(tokens[index])
            origin.append(index)
            continue
        if unit.start in seen_units:
            continue
        seen_units.add(unit.start)
        words.extend(unit.english)
        origin.extend([unit.start] if unit.one_to_one else [None] * len(unit.english))
    return words, origin


def _why(reason: str, ref_english, hyp_english, phonetic) -> str:
    parts = []
    if reason != "phonetic":
        parts.append(f"English view identical on both sides: {' '.join(ref_english)!r}")
    for devanagari, latin, key in phonetic:
        if key.startswith("romanized:"):  # romanized Hindi (views/codeswitch/romanized.py), when the config allows it
            parts.append(f"{devanagari} = {latin} (romanized Hindi, {key.removeprefix('romanized:')!r})")
        else:
            parts.append(f"{devanagari} = {latin} (consonant key {key!r})")
    return "; ".join(parts)
