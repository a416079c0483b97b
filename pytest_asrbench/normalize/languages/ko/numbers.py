"""The ``korean_numbers`` step: number words become digits only in a numeric context.

The normalized form is ASCII digits with the counter attached and the particle kept:
``삼월 이십오일`` = ``3월 25일``, ``만 이천 원`` = ``12000원``, ``열두 시`` = ``12시``,
``3 명이`` = ``3명이``; a spoken digit string keeps its word breaks (``공일공 일이삼사`` =
``010 1234``). Rules (source: the original requirements, section "Korean"; examples in docs/korean.md):

1. A number starts a word (after a space): 인터넷, 선생님이시다 are never read.
2. It is a number when a counter of ``configs/ko/counters.tsv`` follows, attached or as
   the next word, and the counter takes that kind of numeral (Sino-Korean 삼 분, native
   두 시간; 두 분 "two persons" stays, 2분 is minutes); the rest of the counter's word must
   be particles of ``particles.tsv`` (네 개인정보 "yes, personal info" stays, 세 개예요 =
   3개예요). Or when the span mixes ASCII digits and number words (1만 2천 = 12000), or is a
   Sino-Korean numeral of two or more syllables next to a word of digits.
3. Spaced numeral words join into one number when each is smaller than the lowest place of
   the one before (만 이천, 1만 2500, 열 두), as people and recognizers space them.
4. ``not_numbers.tsv`` lists ordinary words that read as a number and a counter (사장
   "company president", 이분 "this person", 오일 "oil", and 이 "this" before a spaced
   counter); they stay, except a day (…일) right after a month (삼월 오일 = 3월 5일).
5. ``irregular_numbers.tsv``: 유월 = 6월, 시월 = 10월.
6. A word of three or more spoken digit syllables (공 영 일 … 구) is a digit string when
   it has a zero, has four or more syllables, or stands next to another digit string or a
   digit word (공일공, 일이삼사; 이삼일 "two or three days" stays).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.languages.ko.numerals import (
    BIG_UNITS,
    DIGIT_SYLLABLES,
    NATIVE_ONES,
    NATIVE_TENS,
    SINO_DIGITS,
    SMALL_UNITS,
    digit_prefix_length,
    digit_string,
    numeral_prefix_length,
    numeral_value,
    trailing_place,
)
from pytest_asrbench.normalize.languages.ko.words import ParticleChain
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

#: Values of the ``counters`` lexicon, and the numeral systems each admits.
COUNTER_KINDS = {"sino": frozenset({"sino", "digits"}), "native": frozenset({"native", "digits"}),
                 "both": frozenset({"sino", "native", "digits"})}
#: A syllable a number word may start with: cheap test before any parsing.
_STARTS = frozenset("".join([*SINO_DIGITS, *SMALL_UNITS, *BIG_UNITS, *DIGIT_SYLLABLES, "0123456789",
                             *(word[0] for word in (*NATIVE_ONES, *NATIVE_TENS))]))
_DIGITS_WORD = re.compile(r"\d+")
_MONTH = re.compile(r"\d+월")
_ANY_DIGIT = re.compile(r"\d")
#: Pairs of numeral systems that never join into one number (삼 다섯: a native numeral after a Sino-Korean one).
_MIXED_SYSTEMS = frozenset({("sino", "native"), ("native", "sino")})
#: Words :class:`KoreanNumbers` remembers as staying before it forgets them all.
_STAYING_LIMIT = 65536


@dataclass(frozen=True)
class Reading:
    """One word read as a numeral: its value and system, the counter and particle tail that
    follow it inside the word (``""`` when none), and the numeral's own spelling."""

    value: int
    system: str
    numeral: str
    counter: str = ""
    tail: str = ""


@dataclass(frozen=True)
class KoreanNumberTables:
    """The four lexicons of the step, checked.

    Raises (from :meth:`from_lexicons`):
        ConfigError: a counter kind that is not ``sino``, ``native`` or ``both``; an
            irregular number whose value is not digits followed by a counter.
    """

    counters: dict[str, frozenset[str]]
    particles: ParticleChain
    not_numbers: frozenset[str]
    irregular: dict[str, tuple[int, str]]

    @classmethod
    def from_lexicons(cls, lexicons) -> KoreanNumberTables:
        counters = {}
        for counter, kind in require_lexicon(lexicons, "counters", "korean_numbers").items():
            if kind not in COUNTER_KINDS:
                raise ConfigError(f"ko counters lexicon: {counter!r} has kind {kind!r}; use one of "
                                  f"{', '.join(COUNTER_KINDS)}")
            counters[counter] = COUNTER_KINDS[kind]
        irregular = {}
        for word, value in require_lexicon(lexicons, "irregular_numbers", "korean_numbers").items():
            match = re.fullmatch(r"(\d+)(\D+)", value)
            if match is None or match[2] not in counters:
                raise ConfigError(f"ko irregular_numbers lexicon: {word!r} -> {value!r}; write digits and a "
                                  "counter listed in the counters lexicon (유월<TAB>6월)")
            irregular[word] = (int(match[1]), match[2])
        particles = ParticleChain(require_lexicon(lexicons, "particles", "korean_numbers"))
        return cls(dict(sorted(counters.items(), key=lambda item: -len(item[0]))), particles,
                   frozenset(require_lexicon(lexicons, "not_numbers", "korean_numbers")), irregular)


class KoreanNumbers:
    """The converter; one instance per config (see the module docstring for the rules)."""

    def __init__(self, tables: KoreanNumberTables):
        self.tables = tables
        self.is_tail = tables.particles
        #: The counters by first character, each list in the table's order (longest first):
        #: only those can start a text, so :meth:`_counter_of` tries no other.
        self._counters_by_first: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for counter, systems in tables.counters.items():
            self._counters_by_first.setdefault(counter[:1], []).append((counter, systems))
        # Pure functions of one word, called for most words of every text: cached per instance
        # (bounded; the tables are fixed for the instance's life).
        self.read = lru_cache(maxsize=65536)(self._read)
        self.counter_of = lru_cache(maxsize=65536)(self._counter_of)
        self._split_digits = lru_cache(maxsize=65536)(self._split_digits_uncached)
        #: First characters a word must have to be read at all (numerals, digits, irregular
        #: numbers); any other word stays as it is, without the span rules.
        self._starts = _STARTS | frozenset(word[0] for word in tables.irregular)
        self._inert = lru_cache(maxsize=65536)(self._inert_uncached)
        self._stays = lru_cache(maxsize=65536)(self._stays_uncached)
        #: The words :meth:`_stays` found to stay, as a set: a text all of whose words are in
        #: it is tested in one ``issuperset`` call. Emptied when it reaches ``_STAYING_LIMIT``
        #: words (a bounded cache, like the per-word caches above).
        self._staying: set[str] = set()

    def _inert_uncached(self, word: str) -> bool:
        """``word`` stays whatever its neighbours, so :meth:`_span` need not look at them: it
        is no digit string and no whole numeral, and it has no counted reading, or one that
        writes the word as it is (``30분에``), or one of ``not_numbers`` that no month before it
        can free (the counter is not 일: ``세대``, ``이번``, ``구분처럼``).

        Only where a span starts is decided here: a later word is still read as part of the
        span of a numeral before it (:meth:`_whole_span` reads its neighbours itself)."""
        if self._split_digits(word) is not None:
            return False
        whole, counted = self.read(word)
        if whole is not None:
            return False
        return (counted is None or f"{counted.value}{counted.counter}{counted.tail}" == word
                or (counted.counter != "일" and self.blocked(word, counted)))

    def _counter_of(self, text: str, system: str) -> tuple[str, str] | None:
        """``(counter, tail)`` when ``text`` is a counter taking ``system`` numerals, then particles
        (the public name :attr:`counter_of` is this, cached)."""
        for counter, systems in self._counters_by_first.get(text[:1], ()):
            if text.startswith(counter) and system in systems and self.is_tail(text[len(counter):]):
                return counter, text[len(counter):]
        return None

    def _read(self, word: str) -> tuple[Reading | None, Reading | None]:
        """``(whole, counted)``: ``word`` as one numeral, and its longest numeral prefix
        followed by a counter and particles (``십일`` is 11 whole and 10 + 일 counted; the
        context picks one in :meth:`_span`)."""
        if not word:
            return None, None
        for spelled, (value, counter) in self.tables.irregular.items():
            if word.startswith(spelled) and self.is_tail(word[len(spelled):]):
                return None, Reading(value, "sino", spelled, counter, word[len(spelled):])
        if word[0] not in _STARTS:
            return None, None
        whole = None
        # A numeral is written only with numeral characters: no prefix longer than the word's
        # run of them is one, so the search starts at the run's end.
        for end in range(numeral_prefix_length(word), 0, -1):
            found = numeral_value(word[:end])
            if found is None:
                continue
            value, system = found
            rest = word[end:]
            if not rest:
                whole = Reading(value, system, word)
                continue
            counted = self.counter_of(rest, system)
            if counted is not None:
                return whole, Reading(value, system, word[:end], *counted)
        return whole, None

    def blocked(self, word: str, reading: Reading) -> bool:
        """An ordinary word of ``not_numbers`` (the whole word, or its numeral and counter)."""
        return word in self.tables.not_numbers or (reading.numeral + reading.counter) in self.tables.not_numbers

    def _stays_uncached(self, word: str) -> bool:
        """``word`` starts no span: its first character starts no number, or it is inert."""
        stays = word[0] not in self._starts or self._inert(word)
        if stays:
            if len(self._staying) >= _STAYING_LIMIT:
                self._staying.clear()
            self._staying.add(word)
        return stays

    def convert(self, text: str) -> str:
        words = text.split()
        staying = self._staying
        if staying.issuperset(words):  # the usual text of words seen before: nothing to read
            return " ".join(words)
        out: list[str] = []
        stays = self._stays
        count = len(words)
        i = 0
        while i < count:
            word = words[i]
            if word in staying or stays(word):  # _span would keep it
                out.append(word)
                i += 1
                continue
            taken, replaced = self._span(words, i, out)
            out.extend(replaced)
            i += taken
        return " ".join(out)

    def _split_digits_uncached(self, word: str) -> tuple[str, str] | None:
        """``(digits, tail)`` of a word of three or more digit syllables and then particles
        (``오육칠팔입니다`` -> ``("5678", "입니다")``), else ``None``."""
        if word in self.tables.not_numbers or word[0] not in DIGIT_SYLLABLES:
            return None
        for end in range(digit_prefix_length(word), 2, -1):  # only digit syllables make one
            digits = digit_string(word[:end])
            if digits is not None and self.is_tail(word[end:]):
                return digits, word[end:]
        return None

    def _digit_string(self, words: list[str], i: int) -> str | None:
        """Word ``i`` as a spoken digit string (rule 6 of the module docstring), or ``None``."""
        found = self._split_digits(words[i])
        if found is None:
            return None
        digits, tail = found
        if "0" in digits or len(digits) >= 4:
            return digits + tail

        def numeric(j: int) -> bool:
            return 0 <= j < len(words) and (bool(_DIGITS_WORD.fullmatch(words[j])) or
                                            self._split_digits(words[j]) is not None)

        return digits + tail if numeric(i - 1) or numeric(i + 1) else None

    def _span(self, words: list[str], i: int, out: list[str]) -> tuple[int, list[str]]:
        """How many words starting at ``i`` to consume, and what they become."""
        if words[i][0] in DIGIT_SYLLABLES:  # no other word is a spoken digit string
            digits = self._digit_string(words, i)
            if digits is not None:
                return 1, [digits]
        whole, counted = self.read(words[i])
        if whole is not None:
            found = self._whole_span(words, i, whole, out)
            if found is not None:
                return found
        if counted is not None:
            after_month = counted.counter == "일" and bool(out) and bool(_MONTH.fullmatch(out[-1]))
            if not self.blocked(words[i], counted) or after_month:
                return 1, [f"{counted.value}{counted.counter}{counted.tail}"]
        return 1, [words[i]]

    def _counter_next(self, words: list[str], index: int, system: str) -> bool:
        return index < len(words) and self.counter_of(words[index], system) is not None

    def _whole_span(self, words: list[str], i: int, first: Reading, out: list[str]) -> tuple[int, list[str]] | None:
        """A whole-word numeral at ``i``: join the spaced numeral words after it, then take a
        counter (attached to the last one or as the next word); ``None`` when it is no number."""
        value, system, end = first.value, first.system, i + 1
        while end < len(words):
            nxt_whole, nxt_counted = self.read(words[end])
            nxt = nxt_whole or nxt_counted
            if nxt is None or value == 0 or nxt.value >= trailing_place(value) or \
                    (system, nxt.system) in _MIXED_SYSTEMS or (system == nxt.system == "digits"):
                break
            if nxt_counted is not None and not self._counter_next(words, end + 1, nxt.system):
                nxt = nxt_counted  # 만 십일 원 ... but 유월 십일: 10 + 일, not 11
            value += nxt.value
            if nxt.system != "digits":
                system = nxt.system
            end += 1
            if nxt.counter:
                return end - i, [f"{value}{nxt.counter}{nxt.tail}"]
        if end < len(words):
            counted = self.counter_of(words[end], system)
            if counted is not None:
                lone = end == i + 1 and words[i] in self.tables.not_numbers
                if not lone or (counted[0] == "일" and out and _MONTH.fullmatch(out[-1])):
                    return end + 1 - i, [f"{value}{counted[0]}{counted[1]}"]
        if system == "digits" and end == i + 1:
            return 1, [words[i]]
        # Whether a joined word holds a digit (1만 2천), read only here: the usual span has
        # returned above.
        has_ascii = any(_ANY_DIGIT.search(word) for word in words[i:end])
        next_to_digits = any(0 <= j < len(words) and _DIGITS_WORD.fullmatch(words[j]) for j in (i - 1, end))
        if (has_ascii and system != "digits") or (system == "sino" and next_to_digits and
                                                  sum(len(w) for w in words[i:end]) >= 2):
            return end - i, [str(value)]
        return None


@step("korean_numbers", language="ko")
def korean_numbers(config, lexicons):
    """Korean number words to digits in a numeric context (``삼월 이십오일`` = ``3월 25일``).

    Reads the lexicons ``counters``, ``particles``, ``not_numbers`` and ``irregular_numbers``
    (``configs/ko/*.tsv``); runs after ``digit_groups``, ``punctuation`` and ``fillers`` (the
    text is words separated by spaces). Rules: the module docstring and docs/korean.md.

    Raises:
        ConfigError: a lexicon is not declared, a counter kind is unknown, or an irregular
            number is not digits and a listed counter.
    """
    converter = KoreanNumbers(KoreanNumberTables.from_lexicons(lexicons))
    return converter.convert
