"""English numbers: number words to digits, and one written form per spoken number.

Four steps, in this order in ``configs/en.toml``:

``digit_group_commas`` (before ``punctuation``)
    "1,000" = "1000": a comma followed by exactly three digits is a thousands separator.

``negative_numbers`` (before ``punctuation``)
    "-5" = "minus 5": a minus sign that starts a word is read "minus", never dropped.

``number_words``
    Number words become digits. Maximal runs of English number words ("twenty five",
    "one hundred and one", "three point five", "twenty first") are parsed by
    ``text_to_num.alpha2digit``: a maintained parser (Rust core, a few microseconds a
    call) that gets cardinals, ordinals, "and" inside numbers and decimals right. It is
    given only those runs, never the whole text, because on free text it also rewrites
    words we keep ("hundreds" -> "100") and leaves "oh" and "nineteen ninety nine" as
    "19 99". Around it, this module adds:

    - the short scale through decillion: ``text_to_num`` reads up to billion, and a number
      with a larger scale ("two trillion three billion") is read here, each scale's count by
      ``text_to_num``; "a hundred/thousand/million/.../decillion" is "one ...";
    - a scale of a thousand or more that is not below the one before it starts a new number
      (the short scale reads only decreasing scales as one number): "one thousand million" =
      "1000 1000000", "one million billion trillion" = "1000000 1000000000 1000000000000",
      "5 thousand million" = "5000 1000000"; "hundred" multiplies within a group ("two
      hundred thousand" = "200000");
    - a digit number times a scale word: "$5 million" = "$5000000", "2.5 million" = "2500000".
      One form for a number with a scale: its digits ("1.5 million" = "one point five
      million" = "1500000");
    - fractions with a scale: "three and a half million" = "3.5 million" = "3500000",
      "two and a quarter thousand" = "2250", "half a million" = "500000", "a million and a
      half" = "1500000";
    - a plural scale after another number word is part of the number ("one billion
      twenty-five millions" = "1025000000"); it never starts one ("millions of people");
    - "second" is the ordinal only where an ordinal is meant: inside a compound ordinal
      ("twenty second" = "22nd") or on its own ("the second floor" = "2nd floor"), but
      not after a cardinal or a unit word ("one second", "1 second", "per second", "a
      second", "every second" keep "second": source, a reviewer report's "nine gigabits per 2nd");
    - decades: "the nineteen nineties" = "the 1990s", "the nineties" = "the 90s" (= "the
      '90s": the apostrophe goes with the punctuation), "the eighteen hundreds" = "1800s".
      "the '90s" and "the 1990s" stay apart: they are said differently.

    Every number word is converted, "one" included (threshold 0): "no one" becomes "no 1",
    and that is harmless because both sides read it alike and "1" is always said "one".

``number_formats``
    One written form for numbers that are said the same way:

    - "7pm" = "7 pm"; "seven oh five pm" = "7:05 pm";
    - spoken digit sequences with "oh" or a zero-led group: "one oh one" = "101",
      "nineteen oh five" = "1905", "1 01" = "101" ("double oh seven" is not handled);
    - o'clock: "7 o'clock" = "7:00"; "7:00 pm" = "7 pm";
    - pairs of numbers: "at seven thirty" / "7 30 pm" = "7:30" when the first is 1-12, the
      second 10-59, and a time word stands next to them (before: at, by, until, from, to,
      around, before, after, since; after: am, pm, o'clock, tonight, today, tomorrow, in
      the morning/afternoon/evening); without one, "room two fifty" stays "2 50" (not
      2:50). "nineteen ninety nine" / "19 99" = "1999" when the first is 13-20 and the
      second 10-99 (a year);
    - "half past 7" = "7:30", "(a) quarter past 7" = "7:15", "quarter to 7" = "6:45";
    - decimals "3 point 5" = "3.5"; "2 and a half" = "2.5";
    - percent: "25 percent" / "25 per cent" / "25 %" = "25%";
    - decades: "1990's" = "1990s" (the step ``number_words`` reads the spoken decades);
    - dates: a month name followed by 1-31 takes the ordinal ("May 1" = "May first" =
      "may 1st").

Every rule is a compiled regular expression built when the module loads; the steps call
``sub``, except for the three number-pair rules (time after a word, time before a word, year),
which one scan over the candidate pairs applies in the same order (``_number_pairs``). Rules match digits whatever their origin, so "7 30" typed and "seven thirty"
spoken meet; each rule's output can never match a rule again (idempotence).
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from text_to_num import alpha2digit

from pytest_asrbench.normalize.steps.digit_test import has_digit
from pytest_asrbench.normalize.steps.numbers import group_pattern
from pytest_asrbench.normalize.steps.phrases import lowered_words, trie_pattern
from pytest_asrbench.normalize.steps.registry import step

UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
#: The short scale, each a thousand times the one before, thousand through decillion (10**33).
BIG_SCALES = {name: 1000 ** (index + 1) for index, name in enumerate(
    "thousand million billion trillion quadrillion quintillion sextillion septillion octillion nonillion "
    "decillion".split())}
SCALES = {"hundred": 100, **BIG_SCALES}
#: Scales ``text_to_num`` reads itself; a number with a larger one is read here (:func:`_read_big`).
_TEXT2NUM_SCALES = frozenset(("hundred", "thousand", "million", "billion"))
ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
    "thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth hundredth thousandth "
    "millionth billionth"
).split()
MONTHS = (
    "january february march april may june july august september october november december"
).split()



PLURAL_SCALES = [f"{name}s" for name in BIG_SCALES]
DECADES = {word: f"{10 * (index + 2)}s" for index, word in enumerate(
    "twenties thirties forties fifties sixties seventies eighties nineties".split())}
_WORD = "(?:" + trie_pattern(UNITS + TENS + list(SCALES) + ORDINALS) + r")(?![\w'])"
_NEXT_WORD = "(?:" + trie_pattern(UNITS + TENS + list(SCALES) + ORDINALS + PLURAL_SCALES) + r")(?![\w'])"
_SPAN = re.compile(rf"(?<![\w']){_WORD}(?: (?:and |point )?{_NEXT_WORD})*", re.IGNORECASE)
_SPAN_LOWER = re.compile(_SPAN.pattern)  # the same, for lowercased ASCII text
# The same after a space instead of the lookbehind, for lowercased text of _PLAIN_CHARACTERS.
_SPAN_SPACED = re.compile(rf" {_WORD}(?: (?:and |point )?{_NEXT_WORD})*")
_PLAIN_CHARACTERS = b"abcdefghijklmnopqrstuvwxyz0123456789_' "
_SCALE_NAMES = "|".join(SCALES)
_SCALE_WORD = f"(?:{_SCALE_NAMES})(?![\\w'])"
_FRACTION_WORDS = {"half": ("5", "five"), "quarter": ("25", "two five")}
# "three and a half million", "2 and a quarter thousand": the fraction joins the number.
_AND_FRACTION_SCALE = re.compile(
    rf"(?<![\w'])((?:\d+|{_WORD}(?: {_WORD})*)) and (?:a|one) (half|quarter) ({_SCALE_WORD})", re.IGNORECASE)
_HALF_A_SCALE = re.compile(rf"(?<![\w'])half an? ({_SCALE_WORD})", re.IGNORECASE)
_SCALE_AND_HALF = re.compile(rf"(?<![\w'])(?:a|one) ({_SCALE_WORD}) and a half(?![\w'])", re.IGNORECASE)
_DECADE = re.compile(r"(?<![\w'])(?:(1\d|20) )?(" + "|".join(DECADES) + r")(?![\w'])", re.IGNORECASE)
_CENTURY_DECADE = re.compile(r"(?<![\w'])(1\d) hundreds(?![\w'])", re.IGNORECASE)
# Words before a lone "second" that make it the unit of time, not the ordinal.
_SECOND_UNIT_AFTER = frozenset("per a one every each split this that".split())
_CARDINAL_WORDS = frozenset(UNITS)
_ORDINAL_JOINERS = frozenset(TENS + list(SCALES) + ["and"])
_A_SCALE = re.compile(rf"(?<![\w'])a (?=(?:{_SCALE_NAMES})(?![\w']))", re.IGNORECASE)
_DIGITS_TIMES_SCALE = re.compile(
    rf"(?<![\w.])(\d+(?:\.\d+)?)((?: (?:{_SCALE_NAMES})(?![\w']))+)", re.IGNORECASE
)
_DECIMAL_TIMES_SCALE = re.compile(r"(\d+\.\d+)((?: (?:100|1000|1000000|1000000000)(?!\d))+)")
_AM_PM_GLUED = re.compile(r"(\d)(am|pm)(?!\w)", re.IGNORECASE)
_OH_TIME = re.compile(r"(?<!\S)(1[0-2]|[1-9]) (?:oh |0)([1-9])(?= (?:am|pm)(?!\S))", re.IGNORECASE)
_DIGIT_RUN = re.compile(r"(?<!\S)(?:\d+|oh)(?: (?:\d+|oh))+(?!\S)", re.IGNORECASE)

_OCLOCK = re.compile(r"(?<!\S)(1[0-2]|[1-9]) o'?clock(?!\S)", re.IGNORECASE)
# A pair of numbers that is a time (hour 1-12, minutes 10-59) or a year (13-20, then 10-99).
# Only pairs that convert are matched, so a pair that stays never hides its neighbour.
_TIME_BEFORE = "at|by|until|till|from|to|around|about|before|after|since"
_TIME_AFTER = r"am|pm|o'?clock|tonight|today|tomorrow|in the (?:morning|afternoon|evening)"
_TIME_PAIR_AFTER_WORD = re.compile(
    rf"(?<!\S)((?:{_TIME_BEFORE}) )(1[0-2]|[1-9]) ([1-5]\d)(?!\S)", re.IGNORECASE
)
_TIME_PAIR_BEFORE_WORD = re.compile(
    rf"(?<!\S)(1[0-2]|[1-9]) ([1-5]\d)(?= (?:{_TIME_AFTER})(?!\S))", re.IGNORECASE
)
# (The start test sits after the two digits, "not after a non-space 3 characters back":
# the same rule, but the pattern then starts with a character set that re scans for fast.)
_YEAR_PAIR = re.compile(r"(1[3-9]|20)(?<!\S..) ([1-9]\d)(?!\S)")
_PAST_TO = re.compile(r"(?<!\S)(?:a )?(half|quarter) (past|to) (1[0-2]|[1-9])(?!\S)", re.IGNORECASE)
# "10 past 6" = 6:10 (minutes 1-29, "minutes" optional); "20 to 5" = 4:40 only after a time
# word ("at 20 to 5"): "5 to 10 people" is a range.
_MINUTES_PAST = re.compile(r"(?<!\S)([1-9]|[12]\d)(?: minutes?)? past (1[0-2]|[1-9])(?!\S)", re.IGNORECASE)
_MINUTES_TO = re.compile(
    rf"(?<!\S)((?:{_TIME_BEFORE}) )([1-9]|[12]\d)(?: minutes?)? to (1[0-2]|[1-9])(?!\S)", re.IGNORECASE
)
# "double 5", "triple 7" inside a spoken digit run (a digit on either side): 55, 777 (British
# and Indian English read phone numbers so); the run is joined. Without a digit next to it,
# "double 5" stays.
_REPEATED_DIGIT = re.compile(r"(?<!\S)((?:\d )*)(double|triple) (\d|oh)(\d*)((?: \d)*)(?!\S)", re.IGNORECASE)
_ZERO_MINUTES = re.compile(r"(?<!\S)(\d{1,2}):00 (am|pm)(?!\S)", re.IGNORECASE)
# "3 point 14"; the digits after "point" may start with "oh" ("1 point oh 5" = 1.05).
_POINT = re.compile(r"(?<!\S)(\d+) point ((?:oh )*\d+|(?:oh )*oh)(?!\S)", re.IGNORECASE)
_HALF = re.compile(r"(?<!\S)(\d+) and (?:a|one) half(?!\S)", re.IGNORECASE)
_PERCENT = re.compile(r"(?<!\S)(\d+(?:\.\d+)?) ?(?:percent|per cent|%)(?!\S)", re.IGNORECASE)
_DECADE_APOSTROPHE = re.compile(r"(?<![\w'])(\d*0)'s(?![\w'])")
_MONTH_DAY = re.compile(rf"(?<![\w'])({trie_pattern(MONTHS)}) (\d{{1,2}})(?![\w:.%/$€-])", re.IGNORECASE)
_DIGIT_COMMA = group_pattern(",")
# The same rules as the patterns above, spelled to start with a digit and test "not after a
# non-space" right after it (``(?<!\S.)``), where the rule as written starts with the test:
# ``re`` then scans for a digit in C instead of trying the whole pattern at every position
# (two to three times faster). An hour 1-12 is ``[1-9]`` and an optional digit that keeps
# it at most 12. ``tests/test_english_number_gates.py`` compares each with the rule as written.
_HOUR_SCAN = r"([1-9](?<!\S.)\d?)(?:(?<=1[0-2])|(?<!\d\d))"
_OCLOCK_SCAN = re.compile(rf"{_HOUR_SCAN} o'?clock(?!\S)", re.IGNORECASE)
_POINT_SCAN = re.compile(r"(\d(?<!\S.)\d*) point ((?:oh )*\d+|(?:oh )*oh)(?!\S)", re.IGNORECASE)
_HALF_SCAN = re.compile(r"(\d(?<!\S.)\d*) and (?:a|one) half(?!\S)", re.IGNORECASE)
_PERCENT_SCAN = re.compile(r"(\d(?<!\S.)\d*(?:\.\d+)?) ?(?:percent|per cent|%)(?!\S)", re.IGNORECASE)
# Two numbers side by side: the only texts the time and year pair rules can change. (Spelled
# with the space first and the digit before it as a lookbehind: the same matches, but ``re``
# then scans for the literal space in C instead of trying every position.)
_NUMBER_PAIR = re.compile(r" (?<=\d )\d")
# Cheap, exact gates of number_formats rules: a pattern every text the rule can change
# contains (tests/test_english_number_gates.py checks each against its rule).
# A zero-led number ("01"): a digit run without an "oh" changes only around one.
_ZERO_LED = re.compile(r"0(?<!\S0)\d")
# A digit right before "am"/"pm" (searched in the lowercased text): "7pm". (Led by the
# "m", rarer than "a" and "p", that re scans for.)
_GLUED_AM_PM = re.compile(r"m(?<=\d[ap]m)")
# "oh" or a zero before one digit, then " am"/" pm" (lowercased): "7 oh 5 pm", "7 05 pm".
_OH_TIME_GATE = re.compile(r"m(?:(?<= oh \d [ap]m)|(?<= 0\d [ap]m))")
# A number after "to" (lowercased): "at 20 to 5".
_TO_NUMBER = re.compile(r" to \d")
# A month name, a space and a day of one or two digits that no date rule's excluded
# character follows (searched in the lowercased ASCII text): every text the date rule can
# change has one. Led by the space before the day, then one look back per month.
_MONTH_DAY_GATE = re.compile(
    r" \d\d?(?![\w:.%/$€-])(?:" + "|".join(f"(?<={month} \\d)|(?<={month} \\d\\d)" for month in MONTHS) + ")")
_NUMBER_WORDS = frozenset(UNITS + TENS + list(SCALES) + ORDINALS + list(DECADES))
_MONTH_NAMES = frozenset(MONTHS)
# The whole words a rule needs next to its numbers ("7 oh 5 pm", "1 oh 1", "at 20 to 5").
_AM_PM = frozenset({"am", "pm"})
_OH = frozenset({"oh"})
_TIME_BEFORE_WORDS = frozenset(_TIME_BEFORE.split("|"))


def _may_hold(text: str, words: frozenset[str]) -> bool:
    """False only when ``text`` has none of ``words`` (lowercase ASCII) as a whole word: then a
    rule that needs one (matched ignoring case, between spaces) cannot match. Decided for
    ASCII text only (where ignoring case is lowercasing); other text is always "may"."""
    return not text.isascii() or not words.isdisjoint(lowered_words(text))


def ordinal(number: int) -> str:
    """``1`` -> ``1st``, ``12`` -> ``12th``, ``22`` -> ``22nd``."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _plain(value: Decimal) -> str:
    """A Decimal without exponent or trailing fractional zeros: 2500000, 2.5."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _scale_product(number: str, scales: str, values: dict[str, int]) -> str:
    """``number`` times its run of scale words ("5 million" = "5000000"); a scale of a thousand
    or more that is not below the one before starts a new number (:func:`_number_breaks`):
    "5 thousand million" = "5000 1000000"."""
    words = [word.lower() for word in scales.split()]
    value, numbers, last_big = Decimal(number), [], None
    for word in words:
        scale = values[word]
        if scale >= 1000 and last_big is not None and scale >= last_big:
            numbers.append(_plain(value))
            value, last_big = Decimal(1), None
        value *= scale
        if scale >= 1000:
            last_big = scale
    return " ".join([*numbers, _plain(value)])


def _and_fraction_scale(match: re.Match) -> str:
    number, fraction, scale = match.group(1), match.group(2).lower(), match.group(3)
    digits, words = _FRACTION_WORDS[fraction]
    if number.isdigit():
        return f"{number}.{digits} {scale}"
    return f"{number} point {words} {scale}"


def _decade(match: re.Match) -> str:
    century, decade = match.group(1), DECADES[match.group(2).lower()]
    return f"{century}{decade}" if century else decade


def _second_is_unit(words: list[str], index: int, before: str) -> bool:
    """Whether "second" at ``words[index]`` of a number-word span is the unit of time."""
    previous = words[index - 1].lower() if index else before
    if index and previous in _ORDINAL_JOINERS:
        return False  # "twenty second", "one hundred and second": a compound ordinal
    return previous in _CARDINAL_WORDS or previous in _SECOND_UNIT_AFTER or previous[-1:].isdigit()


def _convert_span(match: re.Match) -> str:
    return _convert_span_at(match.string, match.start(), match.end())


def _convert_spans(text: str, lower: str | None = None) -> str:
    """Every number-word span of ``text`` converted (:data:`_SPAN`). ASCII text is matched
    lowercased by :data:`_SPAN_LOWER`, without IGNORECASE, which re runs about 40% faster:
    for ASCII, ignoring case is lowercasing, so the spans are the same; ASCII text of letters,
    digits, "_", "'" and spaces only by :data:`_SPAN_SPACED` (the same spans, found by a scan
    for spaces; ``tests/test_english_number_gates.py`` compares them). ``lower``: the caller's
    ``text.lower()``, when it has it."""
    if not text.isascii():
        return _SPAN.sub(_convert_span, text)
    if lower is None:
        lower = text.lower()
    if lower.encode().translate(None, _PLAIN_CHARACTERS):
        spans = [match.span() for match in _SPAN_LOWER.finditer(lower)]
    else:
        # Only letters, digits, "_", "'" and spaces: a span starts at the text's start or after
        # a space, so the search that starts with a literal space (found by a fast scan) finds
        # the same spans, in the text behind one space (offsets one further).
        spans = [(match.start(), match.end() - 1) for match in _SPAN_SPACED.finditer(" " + lower)]
    if not spans:
        return text
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        span = text[start:end]
        if "second" in lower[start:end]:
            pieces.append(_convert_with_second(span, text[:start].rstrip().rsplit(" ", 1)[-1].lower()))
        else:
            pieces.append(_convert_words(span))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _convert_span_at(text: str, start: int, end: int) -> str:
    """The span ``text[start:end]`` of number words in digits (its context: the word before)."""
    span = text[start:end]
    if "second" in span.lower():
        return _convert_with_second(span, text[:start].rstrip().rsplit(" ", 1)[-1].lower())
    return _convert_words(span)


def _convert_with_second(span: str, before: str) -> str:
    """A span holding "second" in digits; ``before`` is the lowercased word before the span."""
    words = span.split(" ")
    for index, word in enumerate(words):
        if word.lower() == "second" and _second_is_unit(words, index, before):
            head = " ".join(words[:index])
            tail = " ".join(words[index + 1 :])
            parts = [_convert_words(head) if head else "", word, _convert_words(tail) if tail else ""]
            return " ".join(part for part in parts if part)
    return _convert_words(span)


def _big_scale(word: str) -> int | None:
    """The value of a scale word of a thousand or more, singular or plural; ``None`` otherwise."""
    word = word.lower()
    return BIG_SCALES.get(word) or (BIG_SCALES.get(word[:-1]) if word.endswith("s") else None)


def _number_breaks(words: list[str]) -> list[list[str]]:
    """``words`` cut into numbers where a scale of a thousand or more is not below the last one
    of the number it would join (the short scale reads only decreasing scales as one number):
    "one thousand million" is two numbers, "one thousand" and "million" (1000 1000000); "one
    thousand two thousand" cuts after the first scale ("one thousand", "two thousand")."""
    numbers: list[list[str]] = [[]]
    last_big, last_index = None, -1  # the current number's last big scale and its index in it
    for word in words:
        scale = _big_scale(word)
        current = numbers[-1]
        if scale is not None and last_big is not None and scale >= last_big:
            between = current[last_index + 1:]
            numbers[-1] = current[: last_index + 1]
            if between and between[0].lower() == "and":
                numbers.append(["and"])
                between = between[1:]
            numbers.append(between)
            current = numbers[-1]
            last_big = None
        current.append(word)
        if scale is not None:
            last_big, last_index = scale, len(current) - 1
    return [number for number in numbers if number]


def _read_big(words: list[str]) -> str | None:
    """One number whose scales decrease, with a scale above billion, in digits ("two
    trillion three billion" = "2000000003000000000"); each scale's count ("twenty five", "two
    point five", none: one) read by ``alpha2digit``. ``None`` when a count is not one number."""
    total, count = Decimal(0), []
    for word in [*words, None]:
        scale = _big_scale(word) if word is not None else 1
        if scale is None:
            count.append(word)
            continue
        if count and count[0].lower() == "and":
            count = count[1:]
        if count:
            read = alpha2digit(" ".join(count), "en", threshold=0)
            if not re.fullmatch(r"\d+(?:\.\d+)?", read):
                return None
            value = Decimal(read)
        else:
            value = Decimal(1 if word is not None else 0)
        total += value * scale
        count = []
    return _plain(total)


@lru_cache(maxsize=16384)
def _convert_words(span: str) -> str:
    """A span of number words in digits; cached: spans repeat ("twenty five"), and
    ``alpha2digit`` is pure. Scales that do not decrease start a new number
    (:func:`_number_breaks`); a number with a scale above billion is read by :func:`_read_big`."""
    words = span.split(" ")
    if not any(_big_scale(word) for word in words):
        return _alpha2digit_span(span)
    pieces = []
    for number in _number_breaks(words):
        big = None
        if any(_big_scale(word) and _big_scale(word) > BIG_SCALES["billion"] for word in number):
            big = _read_big(number)
        pieces.append(big if big is not None else _alpha2digit_span(" ".join(number)))
    return " ".join(pieces)


def _alpha2digit_span(span: str) -> str:
    """``alpha2digit`` on ``span``, decimals times a scale multiplied out."""
    converted = alpha2digit(span, "en", threshold=0)
    if "." in converted:
        # "two point five million": alpha2digit gives "2.5 1000000".
        converted = _DECIMAL_TIMES_SCALE.sub(
            lambda m: _scale_product(m.group(1), m.group(2), {str(v): v for v in SCALES.values()}), converted
        )
    return converted


def _join_digit_run(match: re.Match) -> str:
    tokens = match.group(0).split(" ")
    start, end = 0, len(tokens)
    while start < end and tokens[start].lower() == "oh":
        start += 1
    while end > start and tokens[end - 1].lower() == "oh":
        end -= 1
    core = tokens[start:end]
    if len(core) < 2 or not any(token.lower() == "oh" or (token[0] == "0" and len(token) > 1) for token in core):
        return match.group(0)
    joined = "".join("0" if token.lower() == "oh" else token for token in core)
    return " ".join(tokens[:start] + [joined] + tokens[end:])


def _past_to(match: re.Match) -> str:
    """"half past 7" = "7:30", "quarter past 7" = "7:15", "quarter to 7" = "6:45"."""
    part, direction, hour = match.group(1).lower(), match.group(2).lower(), int(match.group(3))
    if direction == "past":
        return f"{hour}:{30 if part == 'half' else 15}"
    if part == "half":  # "half to" is not said in English
        return match.group(0)
    return f"{hour - 1 or 12}:45"


def _minutes_past(match: re.Match) -> str:
    return f"{match[2]}:{int(match[1]):02d}"


def _minutes_to(match: re.Match) -> str:
    hour = int(match[3])
    return f"{match[1]}{hour - 1 or 12}:{60 - int(match[2]):02d}"


def _repeated_digit(match: re.Match) -> str:
    before, word, digit, rest, after = match[1], match[2], match[3], match[4], match[5]
    if not (before or rest or after):
        return match[0]  # no digit next to it: "a double 5 shot"
    repeated = ("0" if digit.lower() == "oh" else digit) * (2 if word.lower() == "double" else 3)
    return before.replace(" ", "") + repeated + rest + after.replace(" ", "")


def _month_day(match: re.Match) -> str:
    day = int(match.group(2))
    if 1 <= day <= 31 and not match.group(2).startswith("0"):
        return f"{match.group(1)} {ordinal(day)}"
    return match.group(0)


# Replacements as functions, not "\\1" templates: CPython 3.11 re-parses a template string on
# every ``sub`` call, matched or not (about 0.8 microseconds each; number_formats makes a
# dozen calls per text). Every group used here takes part in every match.
def _spaced(match: re.Match) -> str:
    return f"{match[1]} {match[2]}"


def _on_the_hour(match: re.Match) -> str:
    return f"{match[1]}:00"


def _oh_minutes(match: re.Match) -> str:
    return f"{match[1]}:0{match[2]}"


def _word_and_time(match: re.Match) -> str:
    return f"{match[1]}{match[2]}:{match[3]}"


def _time(match: re.Match) -> str:
    return f"{match[1]}:{match[2]}"


def _joined(match: re.Match) -> str:
    return match[1] + match[2]


def _decimal(match: re.Match) -> str:
    return f"{match[1]}.{match[2].lower().replace('oh', '0').replace(' ', '')}"


def _and_a_half(match: re.Match) -> str:
    return f"{match[1]}.5"


def _percent(match: re.Match) -> str:
    return f"{match[1]}%"


def _decade_plural(match: re.Match) -> str:
    return f"{match[1]}s"


def _one_and_a_half_scale(match: re.Match) -> str:
    return f"1.5 {match[1]}"


def _half_a_scale(match: re.Match) -> str:
    return f"0.5 {match[1]}"


def _century_decade(match: re.Match) -> str:
    return f"{match[1]}00s"


# The three number-pair rules (time after a word, time before a word, year) in one pass:
# every candidate pair is found once, by one digit-led scan, and the rules are applied in the
# order the step lists them (tests/test_english_number_gates.py compares the pass with the
# three substitutions on every arrangement of up to four hours, minutes, years and time words,
# and on seeded strings with other separators). Three substitutions scanned the text three
# times, two of them trying a look-behind at every position; the candidates of nearly every
# text are one pair.
# A candidate: a number of one or two digits (no leading zero) that starts a word, one space,
# and a two-digit number (10-99) that ends a word; the second number is read ahead, so that a
# number can be the second of one candidate and the first of the next ("19 12 30 pm").
_PAIR_CANDIDATE = re.compile(r"([1-9](?<!\S.)\d?)(?= ([1-9]\d)(?!\S))")
_AFTER_TIME_WORD = re.compile(
    "|".join(f"(?<=(?<!\\S){word} )" for word in _TIME_BEFORE.split("|")), re.IGNORECASE)
_BEFORE_TIME_WORD = re.compile(rf" (?:{_TIME_AFTER})(?!\S)", re.IGNORECASE)
_HOURS = frozenset(str(hour) for hour in range(1, 13))
_YEAR_HEADS = frozenset(str(head) for head in range(13, 21))


def _number_pairs(text: str) -> str:
    """``_YEAR_PAIR.sub(_joined, _TIME_PAIR_BEFORE_WORD.sub(_time, _TIME_PAIR_AFTER_WORD.sub(
    _word_and_time, text)))`` in one scan of ``text``.

    Why one pass gives the same text: each rule rewrites a pair "A B" of whole words in
    place ("7 30" -> "7:30", "19 99" -> "1999") and nothing around it, so a later rule sees
    the earlier rules' candidates unchanged, except those that share a number with a
    rewritten pair (that number now touches a ":" or another digit, so no rule's word
    boundary holds there any more). No two time rewrites share a number (a time after a word
    has that word, not a number, before its hour; a time before a word has that word, not a
    number, after its minutes); the year rule, last and left to right, takes the first of
    two candidates that share a number, and a joined year (four digits) starts no candidate."""
    found = _PAIR_CANDIDATE.search(text)
    if found is None:
        return text
    start, end, first, second = found.start(), found.end(), found[1], found[2]
    if _PAIR_CANDIDATE.search(text, end) is None:
        # One candidate (nearly every text): the first rule that takes it.
        if first in _HOURS and second < "60" and (
                _AFTER_TIME_WORD.match(text, start) is not None
                or _BEFORE_TIME_WORD.match(text, end + 3) is not None):
            return f"{text[:start]}{first}:{second}{text[end + 3:]}"
        if first in _YEAR_HEADS:
            return f"{text[:start]}{first}{second}{text[end + 3:]}"
        return text
    candidates = [(match.start(), match.end(), match[1], match[2]) for match in _PAIR_CANDIDATE.finditer(text)]
    # rule per candidate: 1 time after a word, 2 time before a word, 3 year; 0 none.
    rules = [0] * len(candidates)
    for index, (start, end, first, second) in enumerate(candidates):
        if first in _HOURS and second < "60" and _AFTER_TIME_WORD.match(text, start) is not None:
            rules[index] = 1
    last = len(candidates) - 1
    for index, (start, end, first, second) in enumerate(candidates):
        if rules[index] or first not in _HOURS or second >= "60":
            continue
        if (index and rules[index - 1] == 1 and candidates[index - 1][1] + 1 == start) or (
                index < last and rules[index + 1] == 1 and end + 1 == candidates[index + 1][0]):
            continue  # shares a number with a rewritten time
        if _BEFORE_TIME_WORD.match(text, end + 3) is not None:
            rules[index] = 2
    taken_end = -1
    for index, (start, end, first, second) in enumerate(candidates):
        if rules[index] or first not in _YEAR_HEADS or start <= taken_end:
            continue
        if (index and rules[index - 1] and candidates[index - 1][1] + 1 == start) or (
                index < last and rules[index + 1] and end + 1 == candidates[index + 1][0]):
            continue
        rules[index] = 3
        taken_end = end + 3
    if not any(rules):
        return text
    pieces: list[str] = []
    position = 0
    for index, (start, end, first, second) in enumerate(candidates):
        rule = rules[index]
        if rule:
            pieces.append(text[position:start])
            pieces.append(f"{first}{second}" if rule == 3 else f"{first}:{second}")
            position = end + 3
    pieces.append(text[position:])
    return "".join(pieces)


_NEGATIVE = re.compile(r"(?<!\S)[-\u2212](?=\d)")


@step("negative_numbers", language="en", before={"punctuation": "punctuation removes the minus sign of -5"})
def negative_numbers(config, lexicons):
    """A minus sign before a number is read "minus": "-5 degrees" = "minus five degrees".

    Source: a fresh-user report; the punctuation step used to drop the sign, so "-5" scored
    as "5". Only a sign that starts a word counts (555-1234 and ABC-123 are left alone);
    ASCII hyphen-minus and U+2212 MINUS SIGN alike. Runs before ``punctuation``.
    """

    def run(text: str) -> str:
        if "-" not in text and "\u2212" not in text:
            return text
        return _NEGATIVE.sub("minus ", text)

    return run


@step("digit_group_commas", language="en", before={"punctuation": "punctuation removes the comma of 1,000"})
def digit_group_commas(config, lexicons):
    """Drop thousands separators: "1,000,000" -> "1000000" (run before ``punctuation``)."""

    def run(text: str) -> str:
        if "," not in text:
            return text
        return _DIGIT_COMMA.sub("", text)

    return run


@step("number_words", language="en", libraries=("text2num",),
      after={"split_hyphens": "twenty-five is two number words once its hyphen is a space",
             "fillers_any_case": "seven um thirty must read 7:30"})
def number_words(config, lexicons):
    """English number words to digits (``text_to_num`` on runs of number words)."""
    scale_values = dict(SCALES)

    def times_scale(match: re.Match) -> str:
        return _scale_product(match.group(1), match.group(2), scale_values)

    def run(text: str) -> str:
        # Cheap test first: a set lookup of the words (the text is punctuation-free and
        # space-separated here) instead of a case-insensitive scan.
        if _NUMBER_WORDS.isdisjoint(lowered_words(text)):
            return text
        lower = text.lower()
        entering = text
        if "hundred" in lower or "thousand" in lower or "illion" in lower:
            if "half" in lower or "quarter" in lower:
                text = _SCALE_AND_HALF.sub(_one_and_a_half_scale, text)
                text = _HALF_A_SCALE.sub(_half_a_scale, text)
                text = _AND_FRACTION_SCALE.sub(_and_fraction_scale, text)
            text = _A_SCALE.sub("one ", text)
            text = _DIGITS_TIMES_SCALE.sub(times_scale, text)
        text = _convert_spans(text, lower if text is entering else None)
        if "ties" in lower:
            text = _DECADE.sub(_decade, text)
        if "hundreds" in lower:
            text = _CENTURY_DECADE.sub(_century_decade, text)
        return text

    return run


@step("number_formats", idempotent=True, language="en")
def number_formats(config, lexicons):
    """One written form per spoken number: digit sequences, times, years, decimals, percent, money, dates."""

    # Each rule runs only when a cheap substring test says it can match; the tests look at
    # the text as it enters the step (a rule's output never needs a later rule's trigger
    # except where both are listed).
    def convert(text: str) -> str:
        if not has_digit(text):
            return text
        # Read first, on the text as it enters (its words are split once: the rules below
        # that ask for words ask about this very object until one of them changes it).
        months = not _MONTH_NAMES.isdisjoint(lowered_words(text))
        lower = text.lower()
        if ("am" in lower or "pm" in lower) and _GLUED_AM_PM.search(lower):
            text = _AM_PM_GLUED.sub(_spaced, text)
            lower = text.lower()  # "7:00pm" has just become "7:00 pm" (the next rules' gates)
        if "clock" in lower:
            text = _OCLOCK_SCAN.sub(_on_the_hour, text)
        if ":00" in text and ("am" in lower or "pm" in lower):
            text = _ZERO_MINUTES.sub(_spaced, text)
            lower = text.lower()  # "7 05:00 am" has just become "7 05 am" (the next rule's)
        if ("am" in lower or "pm" in lower) and _OH_TIME_GATE.search(lower) and _may_hold(text, _AM_PM):
            text = _OH_TIME.sub(_oh_minutes, text)
        if "double" in lower or "triple" in lower:
            text = _REPEATED_DIGIT.sub(_repeated_digit, text)
        pair = _NUMBER_PAIR.search(text) is not None
        # A digit run changes only around an "oh" word or a zero-led number ("01"); a run
        # without an "oh" holds a digit pair.
        if ("oh" in lower and _may_hold(text, _OH)) or (pair and _ZERO_LED.search(text)):
            before = text
            text = _DIGIT_RUN.sub(_join_digit_run, text)
            if text is not before:
                pair = _NUMBER_PAIR.search(text) is not None
        if pair:
            text = _number_pairs(text)
        if ("half" in lower or "quarter" in lower) and ("past" in lower or " to " in lower):
            text = _PAST_TO.sub(_past_to, text)
        if "past" in lower:
            text = _MINUTES_PAST.sub(_minutes_past, text)
        if " to " in lower and _TO_NUMBER.search(text.lower()) and _may_hold(text, _TIME_BEFORE_WORDS):
            text = _MINUTES_TO.sub(_minutes_to, text)
        if "point" in lower:
            text = _POINT_SCAN.sub(_decimal, text)
        if " and a half" in lower or " and one half" in lower:
            text = _HALF_SCAN.sub(_and_a_half, text)
        if "%" in text or "per cent" in lower or "percent" in lower:
            text = _PERCENT_SCAN.sub(_percent, text)
        if "'s" in text:
            text = _DECADE_APOSTROPHE.sub(_decade_plural, text)
        if not months or (text.isascii() and _MONTH_DAY_GATE.search(text.lower()) is None):
            return text
        return _MONTH_DAY.sub(_month_day, text)

    return convert
