"""Thai number steps: Thai digits, and number words to digits in a numeric context.

Thai writes no spaces between words, so a number word is found by tokenizing (pythainlp's
``newmm`` tokenizer and dictionary): ordinary words that contain number words are dictionary
words and stay whole (``สามารถ`` "can", ``เก้าอี้`` "chair", ``ห้าง`` "store", ``พันธุ์``
"breed", ``ล้านนา`` "Lanna", ``พันเอก`` "colonel"). The value of a numeral is pythainlp's
``thaiword_to_num``. Sources: the Royal Institute's number reading (ยี่สิบ, สิบเอ็ด), pythainlp
5.3.5, the Thai reviewer cases (``cases/th/``). Rules and limits: ``docs/thai.md``.
"""

from __future__ import annotations

import re
from decimal import Decimal

from pytest_asrbench.errors import ConfigError
from functools import lru_cache

from pytest_asrbench.normalize.languages.th.library import (
    chunk_tokens, splits_between, tokenize_by_chunks, tokenizes_by_chunks)
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_THAI_DIGITS = str.maketrans("๐๑๒๓๔๕๖๗๘๙", "0123456789")


@step("thai_digits", language="th",
      before={"digit_groups": "๑,๐๐๐ reads like 1,000 once in ASCII digits",
              "punctuation": "๓.๑๔ keeps its decimal point once in ASCII digits"})
def thai_digits(config, lexicons):
    """Thai digits are ASCII digits (``๑๒๓`` = ``123``, ``๓.๑๔`` = ``3.14``); before
    ``digit_groups`` and ``punctuation``, so grouping and decimals are read as for ASCII."""
    def run(text: str) -> str:
        return text.translate(_THAI_DIGITS)

    return triggered(re.compile("[๐-๙]"), run)


# --- the numeral grammar -------------------------------------------------------------------

ZERO = "ศูนย์"
DIGITS = {"หนึ่ง": 1, "สอง": 2, "สาม": 3, "สี่": 4, "ห้า": 5, "หก": 6, "เจ็ด": 7, "แปด": 8, "เก้า": 9}
MULTIPLIERS = {"สิบ": 10, "ร้อย": 100, "พัน": 1_000, "หมื่น": 10_000, "แสน": 100_000, "ล้าน": 1_000_000}
#: Every morpheme a Thai numeral is written with (ยี่ only in ยี่สิบ, เอ็ด only last: "one").
MORPHEMES = (ZERO, *DIGITS, "ยี่", "เอ็ด", *MULTIPLIERS)
_MORPHEME = "|".join(sorted(MORPHEMES, key=len, reverse=True))
_PART = re.compile(rf"(?:{_MORPHEME})+")
_MORPHEME_RE = re.compile(_MORPHEME)
_SPELLED_DIGITS = re.compile(rf"(?:{ZERO}|{'|'.join(DIGITS)})+")
_D = "|".join(DIGITS)
_TENS = rf"(?:(?:ยี่|{'|'.join(d for d in DIGITS if d not in ('หนึ่ง', 'สอง'))})?สิบ)"
_BELOW_MILLION = rf"(?:(?:{_D})?แสน)?(?:(?:{_D})?หมื่น)?(?:(?:{_D})?พัน)?(?:(?:{_D})?ร้อย)?{_TENS}?(?:{_D}|เอ็ด)?"
# pythainlp's own grammar (wordtonum._ptn_thai_numerals) also accepts the empty string, ยี่ alone,
# หนึ่งสิบ / สองสิบ, เอ็ด alone and a leading ลบ ("minus", also the verb "delete"; ลบ alone reads
# as 0). Those are not how Thai writes numbers, so our grammar is the written one and only a
# numeral it accepts is handed to thaiword_to_num (whose values are right for those).
_NUMERAL = re.compile(rf"(?:{_BELOW_MILLION}ล้าน)*{_BELOW_MILLION}")
_ASCII_NUMBER = re.compile(r"\d+(?:\.\d+)?")
POINT = "จุด"
ROLES = ("unit", "marker", "name")


@lru_cache(maxsize=65536)
def numeral_value(word: str) -> int | None:
    """The value of a written Thai numeral (``"สามร้อยยี่สิบห้า"`` -> 325, ``"ศูนย์"`` -> 0),
    or ``None`` when ``word`` is not one (``"สองสาม"``, ``"ยี่"``, ``"เอ็ด"``)."""
    if word == ZERO:
        return 0
    if not word or word == "เอ็ด" or not _NUMERAL.fullmatch(word):
        return None
    return _grammar_value(word)


#: The value of each morpheme of a numeral accepted by the written grammar (ยี่ and เอ็ด included).
_MORPHEME_DIGITS = {**DIGITS, "ยี่": 2, "เอ็ด": 1}
_POWERS = {word: value for word, value in MULTIPLIERS.items() if word != "ล้าน"}


def _grammar_value(word: str) -> int:
    """The value of a numeral of the written grammar, read morpheme by morpheme as pythainlp
    5.3.5's ``thaiword_to_num`` reads the tokens it splits the word into: a digit waits for its
    place (1 when none is written: สิบ = 10, ร้อย = 100), ล้าน multiplies all before it.
    Without that function's tokenizer run per word (most of its cost);
    ``tests/normalize/test_thai_speed_paths.py`` checks the two agree."""
    accumulated = 0
    next_digit = 1
    for morpheme in _MORPHEME_RE.findall(word):
        digit = _MORPHEME_DIGITS.get(morpheme)
        if digit is not None:
            next_digit = digit
        elif morpheme in _POWERS:
            accumulated += max(next_digit, 1) * _POWERS[morpheme]
            next_digit = 0
        else:  # ล้าน: everything before it, times a million
            accumulated = (accumulated + next_digit) * 1_000_000
            next_digit = 0
    return accumulated + next_digit


def _spelled(word: str) -> str:
    return "".join("0" if m == ZERO else str(DIGITS[m]) for m in _MORPHEME_RE.findall(word))


def load_context(table, step_name: str) -> dict[str, str]:
    """The ``number_context`` lexicon (word -> ``unit`` / ``marker`` / ``name``).

    Raises:
        ConfigError: a role that is not one of :data:`ROLES`.
    """
    for word, role in table.items():
        if role not in ROLES:
            raise ConfigError(f"th number_context lexicon: {word!r} has role {role!r}; use one of {', '.join(ROLES)}")
    return dict(table)


#: What a space-free chunk is to the numbers (:meth:`_Converter._chunk_reading`).
_PLAIN, _WORDS, _READ, _ONE, _OTHER = range(5)


class _Converter:
    """One pass over the tokens of a text; see :func:`thai_numbers` for the rules."""

    def __init__(self, context: dict[str, str]):
        self.context = context
        self.names = frozenset(word for word, role in context.items() if role == "name")
        self.is_part = lru_cache(maxsize=65536)(self._is_part)
        # Per chunk, cached: the same words and number words recur (ราคา, บาท, สาม, สองพัน).
        self.chunk_reading = lru_cache(maxsize=65536)(self._chunk_reading)

    def _is_part(self, token: str) -> bool:
        """A numeral morpheme run that is not a listed name (per token, cached)."""
        return bool(_PART.fullmatch(token)) and self.role(token) != "name"

    def role(self, token: str | None) -> str | None:
        return self.context.get(token) if token is not None else None

    def _chunk_reading(self, chunk: str) -> tuple[int, str | None]:
        """What a space-free ``chunk`` is, with what it becomes where that needs no neighbour:

        - ``(_PLAIN, chunk)``: no numeral morpheme, so no token of it is a numeral part; it
          stays as it is;
        - ``(_WORDS, chunk)``: numeral morphemes only inside words (``เก้าอี้``, ``อยากไปห้าง``):
          no token of it is a run of morphemes (so none is a part, a multiplier or a name that
          is a numeral); it stays as it is, like a plain chunk, but it is tokenized to know that;
        - ``(_READ, output)``: one numeral run of two or more morphemes however ``newmm``
          splits it (morphemes only, no name inside, split only between morphemes:
          :func:`splits_between`), so all its tokens are parts of one run, read without
          context (``สามร้อย`` -> ``300``; spelled digits ``ศูนย์แปดหนึ่ง`` -> ``081``);
        - ``(_ONE, chunk)``: such a run of one morpheme (``หก``), read by its neighbours;
        - ``(_OTHER, None)``: anything else (``สามคน``, ``สามจุดห้า``): its tokens are needed.
        """
        if not _MORPHEME_RE.search(chunk):
            return _PLAIN, chunk
        # No morpheme is a prefix of another (splits_between refuses morphemes that are), so
        # the morphemes found cover the chunk exactly when it is a run of them.
        pieces = _MORPHEME_RE.findall(chunk)
        if (sum(map(len, pieces)) != len(chunk) or any(name in chunk for name in self.names)
                or not splits_between(pieces, MORPHEMES)):
            if any(_PART.fullmatch(token) for token in chunk_tokens(chunk)):
                return _OTHER, None
            return _WORDS, chunk
        if len(pieces) == 1:
            return _ONE, chunk
        return _READ, self._run([chunk], 0, 1)[0]

    def _opaque(self, chunk: str) -> bool:
        """Nothing in ``chunk`` reads the tokens of the chunks beside it: it has no numeral
        run (a plain chunk or one of words), or it is one numeral run of two or more morphemes
        (which needs no context and is no lone multiplier after digits)."""
        return self.chunk_reading(chunk)[0] <= _READ

    def _keep_whole(self, chunks: list[str], index: int) -> bool:
        """Chunk ``index`` need not be tokenized: a whole numeral run (:meth:`_chunk_reading`),
        or a chunk with no numeral morpheme between chunks that read none of its tokens (its
        tokens are no parts and stay as they are; only its first and last could be read, as
        the context of a numeral or as digits before a multiplier, and only from next door)."""
        kind = self.chunk_reading(chunks[index])[0]
        if kind != _PLAIN:  # one of words is tokenized: as one token it could read as a numeral run
            return kind == _READ or kind == _ONE
        return (index == 0 or self._opaque(chunks[index - 1])) and (
            index + 1 == len(chunks) or self._opaque(chunks[index + 1]))

    def convert(self, text: str) -> str:
        """``text`` with its numerals read (the rules: :func:`thai_numbers`)."""
        if tokenizes_by_chunks(text):
            out = self._by_chunks(text.split(" "))
            if out is not None:
                return out
        return self._by_tokens(text)

    def _by_chunks(self, chunks: list[str]) -> str | None:
        """The output from each chunk's :meth:`_chunk_reading` alone, without a token list;
        ``None`` when a chunk's tokens are needed (an ``_OTHER`` chunk; a one-morpheme run
        beside anything but a plain chunk or one of words, or a multiplier after digits: ``5 พัน``).
        ``chunks``: the text split at each single space (an empty chunk: two spaces)."""
        readings = list(map(self.chunk_reading, chunks))
        out = []
        for index, (kind, output) in enumerate(readings):
            if kind == _ONE:
                output = self._one(chunks, readings, index)
            elif kind == _OTHER:
                return None
            if output is None:
                return None
            out.append(output)
        return " ".join(out)

    def _one(self, chunks: list[str], readings: list[tuple[int, str | None]], index: int) -> str | None:
        """A one-morpheme run read from the edge tokens of the chunks beside it, plain or of
        words, as :meth:`_run` reads it from its neighbouring tokens (``None``: another
        neighbour, or digits before a multiplier, which :meth:`_digits_times` reads)."""
        chunk = chunks[index]
        before = after = None
        if index > 0:
            neighbour = chunks[index - 1]
            if readings[index - 1][0] > _WORDS or not neighbour:
                return None
            token = chunk_tokens(neighbour)[-1]
            if chunk in MULTIPLIERS and token[:1].isdigit():
                return None
            before = self.context.get(token)
        if index + 1 < len(chunks):
            neighbour = chunks[index + 1]
            if readings[index + 1][0] > _WORDS or not neighbour:
                return None
            after = self.context.get(chunk_tokens(neighbour)[0])
        value = numeral_value(chunk)
        if value is not None and (after == "unit" or before == "marker"):
            return str(value)
        return chunk

    def _by_tokens(self, text: str) -> str:
        """The output from the text's tokens (:func:`tokenize_by_chunks`)."""
        tokens = tokenize_by_chunks(text, self._keep_whole)
        is_part = list(map(self.is_part, tokens))
        if not any(is_part):
            return text  # no numeral word (digits times a multiplier need one too)
        # A name that is also a numeral (ร้อยเอ็ด, the province) counts only inside a longer run.
        if not self.names.isdisjoint(tokens):
            for i, token in enumerate(tokens):
                if token in self.names and _PART.fullmatch(token) and (
                        (i > 0 and is_part[i - 1]) or (i + 1 < len(tokens) and is_part[i + 1])):
                    is_part[i] = True
        out: list[str] = []
        count = len(tokens)
        i = 0
        while i < count:
            if not is_part[i]:
                # Digits times a multiplier start with a digit (a numeral part never does).
                times = self._digits_times(tokens, i, is_part) if tokens[i][:1].isdigit() else None
                if times is not None:
                    out.append(times[0])
                    i = times[1]
                else:
                    out.append(tokens[i])
                    i += 1
            else:
                end = i
                while end < count and is_part[end]:
                    end += 1
                replaced, i = self._run(tokens, i, end)
                out.append(replaced)
        return "".join(out)

    def _digits_times(self, tokens: list[str], i: int, is_part: list[bool]) -> tuple[str, int] | None:
        """``5 พัน`` / ``2.5ล้าน``: digits then a lone multiplier, as one integer and the index
        after the multiplier (else None)."""
        if not tokens[i][:1].isdigit() or not _ASCII_NUMBER.fullmatch(tokens[i]):
            return None
        j = i + 1
        if j < len(tokens) and tokens[j].isspace():
            j += 1
        if j >= len(tokens) or tokens[j] not in MULTIPLIERS or (j + 1 < len(tokens) and is_part[j + 1]):
            return None
        value = Decimal(tokens[i]) * MULTIPLIERS[tokens[j]]
        if value != value.to_integral_value():
            return None
        return str(int(value)), j + 1

    def _neighbour(self, tokens: list[str], index: int, step: int) -> str | None:
        index += step
        while 0 <= index < len(tokens) and tokens[index].isspace():
            index += step
        return tokens[index] if 0 <= index < len(tokens) else None

    def _run(self, tokens: list[str], start: int, end: int) -> tuple[str, int]:
        word = "".join(tokens[start:end])
        value = numeral_value(word)
        if value is None:
            if _SPELLED_DIGITS.fullmatch(word):
                count = len(_MORPHEME_RE.findall(word))
                # Spelled digits (a phone number, a code): three or more, or a leading zero.
                # Exactly two (สองสาม, สามสี่) is "two or three", an amount, not a number: kept.
                if count >= 3 or (count == 2 and word.startswith(ZERO)):
                    return _spelled(word), end
            return word, end
        # Decimals: "สามจุดหนึ่งสี่" = 3.14 (the digits after จุด are spelled one by one).
        # pythainlp's words_to_num returns a float (3.1400000000000001, 2.0): the string is
        # built here instead, digit by digit, so the written decimals are kept exactly.
        if end + 1 < len(tokens) and tokens[end] == POINT and _SPELLED_DIGITS.fullmatch(tokens[end + 1]):
            last = end + 1
            fraction = tokens[last]
            while last + 1 < len(tokens) and _SPELLED_DIGITS.fullmatch(tokens[last + 1]):
                last += 1
                fraction += tokens[last]
            return f"{value}.{_spelled(fraction)}", last + 1
        morphemes = len(_MORPHEME_RE.findall(word))
        after = self.role(self._neighbour(tokens, end - 1, 1))
        before = self.role(self._neighbour(tokens, start, -1))
        if morphemes >= 2 or after == "unit" or before == "marker":
            return str(value), end
        return word, end


@step("thai_numbers", language="th", libraries=("pythainlp",))
def thai_numbers(config, lexicons):
    """Thai number words become digits in a numeric context.

    - a numeral of two or more morphemes: ``สามร้อยยี่สิบห้า`` = ``325``, ``ยี่สิบเอ็ด`` = ``21``,
      ``สองพันห้าร้อยหกสิบเจ็ด`` = ``2567``;
    - a one-morpheme numeral (``สอง``, ``สิบ``, ``ร้อย``, ``พัน``, ``แสน``) only before a unit or
      classifier (``สองคน`` = ``2คน``, ``ร้อยบาท`` = ``100บาท``) or after a marker (``ที่``,
      ``เลขที่``); otherwise it is a word (``แสนดี`` "very good", ``พันแผล`` "bandage");
    - decimals: ``สามจุดห้า`` = ``3.5``; digits times a multiplier: ``5 พัน`` = ``5000``;
    - spelled digits, three or more or with a leading zero: ``ศูนย์แปดหนึ่ง`` = ``081``;
    - a word that is also a numeral but a name (``ร้อยเอ็ด``, the province) stays, unless it
      is part of a longer numeral (``หนึ่งร้อยเอ็ด`` = ``101``).

    Reads the ``number_context`` lexicon (``configs/th/number_context.tsv``: word -> ``unit``,
    ``marker`` or ``name``). Runs after ``thai_digits`` and ``punctuation`` (a decimal point
    written ``3.5`` is kept there), before ``remove_spaces``.

    Raises:
        ConfigError: the lexicon is not declared, or a role is unknown.
    """
    converter = _Converter(load_context(require_lexicon(lexicons, "number_context", "thai_numbers"), "thai_numbers"))

    def run(text: str) -> str:
        return converter.convert(text)

    return triggered(_MORPHEME_RE, run)  # a text with no numeral morpheme is left as it is


#: In every text thai_percent changes.
_PERCENT_TRIGGER = re.compile("ร้อยละ|เปอร์เซ|%")
_PERCENT = re.compile(r"(?:ร้อยละ *(?P<before>\d+(?:\.\d+)?)|(?P<after>\d+(?:\.\d+)?) *(?:เปอร์เซ็นต์|เปอร์เซนต์|%))")


@step("thai_percent", language="th", idempotent=True)
def thai_percent(config, lexicons):
    """Percentages in one form: ``ร้อยละ 15`` = ``15 เปอร์เซ็นต์`` = ``15%`` (the Royal Institute
    writes ร้อยละ, speech and chat say เปอร์เซ็นต์, print writes %). Runs after
    ``thai_numbers`` (the number is digits by then: ร้อยละสิบห้า is ร้อยละ15), before
    ``remove_spaces``; the ``punctuation`` options keep ``%``."""

    def run(text: str) -> str:
        out = _PERCENT.sub(lambda match: (match.group("before") or match.group("after")) + "%", text)
        return text if out == text else out

    return triggered(_PERCENT_TRIGGER, run)
