"""Spoken numbers to digits for the languages text2num parses: one generic step, ``spoken_numbers``.

The parsing itself is ``text_to_num.alpha2digit`` (text2num, pinned in pyproject.toml): a
maintained parser with a Rust core that gets each language's number grammar right, the hard
parts included: German and Dutch compounds glued with the unit before the ten
(``zweihundertdreiundvierzig`` = 243, ``eenentwintig`` = 21), French vigesimal forms and
"et un" (``quatre-vingt-dix-sept`` = 97, ``soixante et onze`` = 71), Spanish and Italian
compounds with their accents (``veintitrés`` = 23, ``ventitré`` = 23), ordinals in each
language's written form (de ``3.``, nl ``3e``, fr ``1er`` / ``3ème``, es and it ``1º`` / ``1ª``)
and decimals with the spoken decimal comma (``zwei Komma fünf`` = ``2,5``). It is called
with ``threshold=0``: every number word is converted, small ones included, so ``zwei Kaffee``
and ``2 Kaffee`` meet.

Where this step overrides text2num, and why (each override is data of the language's
``[options.spoken_numbers]`` table, not code):

- ``ambiguous``: number words that are also ordinary words (de ``ein``/``eine``, nl ``een``,
  fr ``un``/``une``, es ``un``/``una``/``uno``, it ``un``/``una``/``uno``; de ``achten``, the
  verb "to pay attention" that text2num reads as the ordinal "eighth"). With threshold 0
  text2num turns ``ein Kaffee`` into ``1 Kaffee``; here such a word becomes a number only in a
  numeric context: next to a number word (``ein oder zwei``, ``vingt et un``, ``un millón``; a
  number in digits does not count, ``een 3-kamerappartement`` is "a 3-room flat"), before
  a word or two-word phrase of ``numeric_after`` (a currency, es ``de enero``, ``Uhr``, ``Prozent``, ``Komma``, a month), or after a
  word of ``numeric_before`` (de ``am``, ``zum``: ``am achten März``). Source: European reviewer reports ("ein
  Kaffee", "een huis", "une femme", "una barra de pan" stay words).
- ``keep``: words text2num misreads and that are never numbers here (it ``centesimi``, which
  text2num reads as the ordinal "hundredth": ``cinquanta centesimi`` gave ``50 100º``).
- scales after digits: text2num multiplies ``zwei Millionen`` (2000000) but leaves
  ``2 Millionen`` as ``2 1000000`` and ``eine Million`` as ``eine 1000000`` (it: ``2 milioni``
  untouched). A number in digits (or an ``ambiguous`` word, read as 1) followed by a million,
  billion or trillion (in digits, or a word of ``scales``) is multiplied out: ``0,2
  Millionen`` = ``200000`` = ``200.000``; the product in the digits of the number (``๒
  Millionen`` = ``๒๐๐๐๐๐๐``), a number whose digits mix scripts left as written
  (``steps/digit_scripts.py``). A span that ends in a word of ``scales`` is read
  without it and then multiplied, because text2num glues a decimal to the scale (nl ``twee
  komma vijf miljoen`` gave ``2,5000000``).
- ``replacements``: whole-word phrases rewritten before parsing: forms text2num does not know
  (de ``zwo`` = ``zwei``, the spoken 2 of phone numbers and times; es ``veintiún`` =
  ``veintiuno``; es ``primer`` = ``primero``, for which text2num writes ``1.ᵉʳ``) and the
  percent phrases it parses as "per hundred" (fr ``pour cent``, es ``por ciento``, it
  ``per cento`` gave ``25 pour 100``), which become ``%``.

Folds: a language whose ``char_folds`` spell a letter as two (de ``ü`` = ``ue``, ``ß`` =
``ss``) may fold the text before this step. Every word of the option tables is folded the
same way, and a token that text2num does not parse is tried once more with the two-letter
spellings read back as the letter (``fuenf`` -> ``fünf`` = 5), so the original requirements' rule holds: "the
folds are also applied to the number-word vocabulary, so German 'fünf' still parses as 5".

text2num is given only the spans that hold numbers: runs of number tokens (digits, number
words) and the ``inner_words`` between two of them (de ``und``, ``komma``; fr ``et``,
``virgule``; es ``y``, ``coma``), each parsed once per distinct span (cached): a support
call's numbers repeat, and the rest of the text is never parsed. A token or span without a
letter (``836 7350``, ``2,5``, ``2020-86288``) is never handed to text2num, whose number words
are all letters: it reads as itself (a scale after it is still multiplied out). Each distinct
token is read once, on first sight (bounded table), into one class letter: a held or
replacement word, a number that text2num rewrites alone, a number that reads as itself alone
(``2024``), an inner word, or another word; a text's classes form a short string in which one
regex finds the spans. A held word is given its class in the text at hand (a number in a
numeric context, another word elsewhere), and the same regex finds the spans; the
word-by-word reading (``plain`` on the step function, the reference the tests compare with)
is left only for a held number that text2num reads in another spelling than the written one.

Runs after ``punctuation`` on space-separated text in any case: the option words are
compared lowercased and text2num reads any case, leaving the other words as they are, so
the step may run before ``lowercase`` and before the word steps that need capitals and
spelled digits (``spelled_code_runs``, ``spoken_symbols``: ``A B C Bindestrich eins zwei
drei`` = ``ABC-123``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, islice
from decimal import Decimal

from pydantic import Field
from text_to_num import alpha2digit

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import LanguageConfig, StepOptions
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.digit_scripts import in_script, zero_of
from pytest_asrbench.normalize.steps.registry import step

#: The languages ``alpha2digit`` accepts (text2num 3.1.0).
TEXT2NUM_LANGUAGES = ("ca", "da", "de", "en", "es", "fr", "it", "nl", "pt")


class SpokenNumberOptions(StepOptions):
    """``[options.spoken_numbers]``: the language text2num parses and the overrides listed in
    the module docstring (lowercase words; phrases of several words allowed in ``replacements``)."""

    language: str = Field("", description="text2num language code; empty: the config's language.")
    replacements: dict[str, str] = Field(default_factory=dict,
                                         description="Whole-word phrases rewritten before parsing.")
    ambiguous: list[str] = Field(default_factory=list,
                                 description="Number words that are also ordinary words: numbers only in a numeric context.")
    numeric_after: list[str] = Field(default_factory=list,
                                     description="Words (or two-word phrases) after an ambiguous word that make it a number.")
    numeric_before: list[str] = Field(default_factory=list,
                                      description="Words before an ambiguous word that make it a number.")
    joiners: list[str] = Field(default_factory=list,
                               description="Words between two numbers (oder, bis, et): a number across one counts as a neighbour.")
    keep: list[str] = Field(default_factory=list, description="Words never parsed as numbers.")
    inner_words: list[str] = Field(default_factory=list,
                                   description="Words that stand inside a spoken number (und, komma; et, virgule).")
    scales: dict[str, int] = Field(default_factory=dict,
                                   description="Scale words text2num leaves after digits (it milioni = 1000000).")


def folded(words, config: LanguageConfig) -> list[str]:
    """``words`` spelled as the text is after the config's ``char_folds`` (identity without folds).
    Shared by the number and amount steps, whose option tables name words of the text."""
    fold = make_fold(config.char_folds)
    return [fold(word) for word in words]


def folded_keys(table: dict, config: LanguageConfig) -> dict:
    """``table`` with its keys folded like :func:`folded` (values unchanged)."""
    return dict(zip(folded(table, config), table.values()))


def _unfolder(config: LanguageConfig) -> Callable[[str], str] | None:
    """The two-letter fold spellings read back as their letter (``ue`` -> ``ü``), or ``None``
    when the config folds no letter into two."""
    inverse = {target: source for source, target in config.char_folds.items()
               if len(source) == 1 and len(target) >= 2 and source.islower()}
    if not inverse:
        return None
    return make_fold(inverse)


def phrase_pattern(phrases: list[str], ignore_case: bool = False) -> re.Pattern[str] | None:
    """Whole-word alternation of ``phrases`` (longest first) on space-separated text, matching
    any case with ``ignore_case``; ``None`` when there are none."""
    if not phrases:
        return None
    body = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<!\S)(?:{body})(?!\S)", re.IGNORECASE if ignore_case else 0)


#: Distinct tokens whose reading ``spoken_numbers`` keeps per normalizer before starting afresh.
_TOKEN_CACHE_SIZE = 1 << 16

#: The class letter of a token in ``spoken_numbers``: "s" a held word or a replacement's first
#: word (the text takes the general path), "n" a number that text2num rewrites when it stands
#: alone, "d" a number that reads as itself alone (2024), "i" an inner word, "o" any other.
#: A span to parse: numbers across single inner words, or one lone "n".
_PARSED_SPANS = re.compile(r"[nd](?:i?[nd])+|n")
_HELD = re.compile("s")

#: A letter (a word character that is no decimal digit and no underscore). text2num reads
#: numbers only from words of letters (its vocabulary), so a token or span without one (digits,
#: separators, symbols: ``836 7350``, ``2,5``, ``2020-86288``) is its own reading and is never
#: handed to it; ``tests/test_spoken_number_spans.py`` checks the claim against text2num.
_LETTER = re.compile(r"[^\W\d_]")
#: The tokens without a letter that end a span (after its last token with one): `` 526 2992``.
_LETTERLESS_TAIL = re.compile(r"(?: (?:[^\w\s]|[\d_])+)+$")

#: The scales written in digits that are multiplied into the number before them.
_SCALE_VALUES = ("1000000", "1000000000", "1000000000000")


def _scale_rule(words: dict[str, int], ambiguous: list[str], decimal: str) -> Callable[[str], str]:
    """The "number then scale" multiplication of the module docstring, as a ``str -> str``
    (``words``: the scale words of the language; ``ambiguous`` words count as 1)."""
    scales = {**{value: int(value) for value in _SCALE_VALUES}, **words}
    ones = "|".join(re.escape(word) for word in ambiguous)
    number = rf"\d+(?:{re.escape(decimal)}\d+)?" + (f"|{ones}" if ones else "")
    names = "|".join(re.escape(word) for word in sorted(scales, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\S)({number}) ({names})(?!\S)", re.IGNORECASE)  # "Eine Million", it "Milioni"

    def multiply(match: re.Match) -> str:
        head = match.group(1)
        zero = zero_of(head)  # the product is written in the digits of the number it multiplies
        if zero is None:  # a number mixing digit scripts is left as written (steps/digit_scripts.py)
            return match.group(0)
        value = (Decimal(head.replace(decimal, ".")) if head[0].isdigit() else Decimal(1)) * scales[match.group(2).lower()]
        text = format(value.normalize(), "f")
        return in_script(text.replace(".", decimal), zero)

    def run(text: str) -> str:
        # To a fixed point: "5 million million" is 5000000 1000000 after one pass, and the
        # normalizer must give that text's own output (idempotence): 5000000000000.
        # (A number mixing digit scripts is left as it is: the loop ends where nothing moves.)
        while True:
            multiplied = pattern.sub(multiply, text)
            if multiplied == text:
                return text
            text = multiplied

    return run


class _TokenTable(dict):
    """``token -> value`` read once per distinct token by ``read`` on first sight (a dict whose
    misses fill themselves, so a lookup stays one C call), cleared when it holds more than
    ``_TOKEN_CACHE_SIZE`` tokens."""

    def __init__(self, read: Callable[[str], str]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, token: str) -> str:
        if len(self) > _TOKEN_CACHE_SIZE:
            self.clear()
        value = self[token] = self.read(token)
        return value


class _NumberWords:
    """Which single tokens are numbers for one language (digits, or words text2num converts,
    as written or with the folds read back) and the spelling to give text2num; answers are
    cached per token, so a corpus pays for each distinct word once."""

    def __init__(self, language: str, extra: frozenset[str], unfold: Callable[[str], str] | None) -> None:
        self.language = language
        self.unfold = unfold
        self.extra = extra
        self.cache: dict[str, str | None] = {word: word for word in extra}

    def _parses(self, token: str) -> bool:
        return alpha2digit(token, self.language, threshold=0) != token

    def spelling(self, token: str) -> str | None:
        """The token as text2num should read it, or ``None`` when it is no number."""
        if token in self.cache:
            return self.cache[token]
        result: str | None = None
        if token.lower() in self.extra:  # a scale word in any case (it "Milioni")
            result = token.lower()
        elif any(char.isdigit() for char in token):
            result = token
        elif _LETTER.search(token) is None:  # text2num's number words are letters (% or - alone)
            result = None
        elif self._parses(token):
            result = token
        elif self.unfold is not None:
            lowered = token.lower()  # the fold spellings are lowercase: ZWOELF = zwölf
            unfolded = self.unfold(lowered)
            if unfolded != lowered and self._parses(unfolded):
                result = unfolded
        if len(self.cache) > _TOKEN_CACHE_SIZE:
            self.cache = {word: word for word in self.extra}
        self.cache[token] = result
        return result

    def __call__(self, token: str) -> bool:
        return self.spelling(token) is not None


@dataclass(frozen=True)
class _Context:
    """The option lists that decide a numeric context, as sets."""

    ambiguous: frozenset[str]
    numeric_after: frozenset[str]
    numeric_before: frozenset[str]
    joiners: frozenset[str]

    @classmethod
    def of(cls, options: SpokenNumberOptions, config: LanguageConfig) -> _Context:
        return cls(*(frozenset(folded(words, config)) for words in (
            options.ambiguous, options.numeric_after, options.numeric_before, options.joiners)))


def _numeric_context(tokens: list[str], index: int, is_number: Callable[[str], object], options: _Context) -> bool:
    """Whether the ambiguous word at ``index`` is a number: see the module docstring
    (``is_number``: a token's spelling for text2num, empty or ``None`` when it is no number)."""
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    before = tokens[index - 1] if index > 0 else ""
    if after in options.numeric_after or before in options.numeric_before:
        return True
    if " ".join(tokens[index + 1:index + 3]) in options.numeric_after:  # es "uno de enero"
        return True
    if _is_number_word(after, is_number, options) or _is_number_word(before, is_number, options):
        return True
    if after in options.joiners and index + 2 < len(tokens) and is_number(tokens[index + 2]):
        return True
    return before in options.joiners and index >= 2 and bool(is_number(tokens[index - 2]))


def _is_number_word(token: str, is_number: Callable[[str], object], options: _Context) -> bool:
    """A neighbour that makes an ambiguous word a number: a number word (``ein oder zwei``,
    ``eine Million``), not a number in digits, which follows an article as often as a numeral
    (nl ``een 3-kamerappartement``, de ``eine 3-Zimmer-Wohnung``: "a 3-room flat")."""
    return (bool(token) and bool(is_number(token)) and token not in options.ambiguous
            and not any(map(str.isdigit, token)))


@step("spoken_numbers", options=SpokenNumberOptions, libraries=("text2num",),
      before={"spelled_code_runs": "the code steps then see spoken digits as digits (M vier B = M4B)",
              "spoken_symbols": "the code steps then see spoken digits as digits (A B C Bindestrich eins zwei drei = ABC-123)"})
def spoken_numbers(config, lexicons, options: SpokenNumberOptions):
    """Number words to digits with text2num, outside the ambiguous words' ordinary uses.

    Input: text without punctuation, in any case. Output: the same text with each number
    written in digits as text2num writes it (``243``, ``2,5``, ``3.`` / ``3e`` / ``1er`` /
    ``1º``). Rule sources and overrides: the module docstring.

    Raises:
        ConfigError: the language is not one text2num parses.
    """
    language = options.language or config.language
    if language not in TEXT2NUM_LANGUAGES:
        raise ConfigError(f"[options.spoken_numbers] language {language!r}: text2num parses only "
                          f"{', '.join(TEXT2NUM_LANGUAGES)}; set `language` to one of them or drop the step")
    replacements = folded_keys(options.replacements, config)
    replace = phrase_pattern(list(replacements), ignore_case=True)
    context = _Context.of(options, config)
    ambiguous = context.ambiguous
    keep = frozenset(folded(options.keep, config))
    scales = folded_keys(options.scales, config)
    is_number = _NumberWords(language, frozenset(scales), _unfolder(config))
    scale = _scale_rule(scales, sorted(ambiguous), config.decimal_separator)

    inner = frozenset(folded(options.inner_words, config))
    held_words = keep | ambiguous

    @lru_cache(maxsize=1 << 16)
    def words_read(span: str) -> str:
        return alpha2digit(span, language, threshold=0)

    def read(span: str) -> str:
        """text2num's reading of ``span``, without calling it on what has no letter (_LETTER):
        a span without one reads as itself, and so do the tokens without one that end a span
        after a number word (``null fünf 526 2992`` = ``05`` + `` 526 2992``: text2num
        passes digits through, ``tests/test_spoken_number_spans.py``), so the words before
        them are read once for every number they start."""
        if _LETTER.search(span) is None:
            return span
        tail = _LETTERLESS_TAIL.search(span)
        if tail is not None:
            head = span[:tail.start()]
            if head.rpartition(" ")[2].lower() not in inner:  # "zwei komma 5": a decimal, read whole
                return words_read(head) + tail.group(0)
        return words_read(span)

    @lru_cache(maxsize=1 << 16)
    def parse(span: str) -> str:
        # A span ending in a scale word of ``scales`` is read without it, then multiplied:
        # text2num glues a decimal to the scale (nl "twee komma vijf miljoen" = "2,5000000").
        head, _, last = span.rpartition(" ")
        if head and last.lower() in scales:
            return scale(f"{read(head)} {last}")
        return scale(read(span))

    replace_triggers = frozenset(phrase.split()[0] for phrase in replacements)

    def replacement_of(match: re.Match) -> str:
        return replacements[match.group(0).lower()]

    def spelling_of(token: str) -> str:
        return is_number.spelling(token) or ""

    def class_of(token: str) -> str:
        lowered = token.lower()
        if lowered in held_words or lowered in replace_triggers:
            return "s"
        if _LETTER.search(token) is None:
            # No letter (most new tokens: 2374, 6528,31, 2023-62649): a number that reads as
            # itself where it holds a digit, no number otherwise (what ``spelled`` would say,
            # without filling it: ``spellings_of`` does that where a span needs it).
            return "d" if any(map(str.isdigit, token)) else "i" if lowered in inner else "o"
        spelling = spelled[token]
        if spelling:
            if spelling == token and ((token.isalnum() and not token.isalpha()) or _LETTER.search(token) is None):
                # Digits alone (2024, 5,7) or one word of letters and digits (KC9): text2num
                # leaves them (_LETTER; its words hold no digit), and no scale follows.
                return "d"
            return "d" if parse(spelling) == token else "n"
        return "i" if lowered in inner else "o"

    # Per distinct token as written, read on first sight (bounded): its spelling for text2num
    # ("" when it is no number) and its class, one letter (see _PARSED_SPANS), so that a text's
    # classes form a string in which a regex finds the spans in C.
    spelled = _TokenTable(spelling_of)
    classes = _TokenTable(class_of)
    class_letters = classes.__getitem__
    spellings_of = spelled.__getitem__

    def spans(tokens: list[str], spellings: list, is_inner: Callable[[int], bool]) -> str | None:
        """The tokens joined by spaces, each span of numbers parsed (``None``: no number)."""
        # Spans: runs of numbers, joined across one inner word between two numbers. (A
        # spelling is a non-empty word, or empty or None, so ``compress`` keeps the numbers' positions.)
        numbers = list(compress(range(len(spellings)), spellings))
        if not numbers:
            return None
        pieces: list[str] = []
        done = 0
        first = last = numbers[0]
        numbers.append(-1)
        for index in islice(numbers, 1, None):
            if index != -1 and (index == last + 1 or (index == last + 2 and is_inner(last + 1))):
                last = index
                continue
            pieces.extend(tokens[done:first])
            if first == last:  # one number word: its spelling is the span
                pieces.append(parse(spellings[first]))
            else:
                pieces.append(parse(" ".join(spelling or token for spelling, token in
                                             zip(spellings[first:last + 1], tokens[first:last + 1]))))
            done = last + 1
            first = last = index
        pieces.extend(tokens[done:])
        return " ".join(pieces)

    def plain_class(token: str, lowered: str) -> str:
        """The class of a token that is no held word here (a number, an inner or another word)."""
        spelling = spellings_of(token)
        if spelling:
            return "d" if parse(spelling) == token else "n"
        return "i" if lowered in inner else "o"

    def held(text: str, tokens: list[str], codes: str) -> tuple[str, list[str], str] | str:
        """A text with a held word or a replacement's first word (class "s", any case):
        the replacements made, then each such word given the class it has here (a held word
        is a number only in a numeric context). Returns ``(text, tokens, codes)``, or the
        output itself where a number is spelled for text2num otherwise than as written (the
        general path, :func:`spans`)."""
        lowered = text.lower().split()  # the option words are lowercase; text2num reads any case
        if replace is not None and not replace_triggers.isdisjoint(lowered):
            replaced = replace.sub(replacement_of, text)
            if replaced is not text:  # ``sub`` returns the text itself where nothing matched (es "por la")
                text = replaced
                tokens = text.split()
                lowered = text.lower().split()
                codes = "".join(map(class_letters, tokens))
                if "s" not in codes:
                    return text, tokens, codes
        if not any(map(spellings_of, tokens)):  # no number, held or not: the text as it is
            return text
        letters = list(codes)
        for index in [match.start() for match in _HELD.finditer(codes)]:
            token = lowered[index]
            if token in keep:
                letters[index] = "i" if token in inner else "o"
            elif token in ambiguous:  # "eine" alone is no number to text2num, "eine million" is
                if not _numeric_context(lowered, index, spellings_of, context):
                    letters[index] = "i" if token in inner else "o"
                    continue
                written = tokens[index]
                if spellings_of(written) not in ("", written):
                    return general(text, tokens, lowered)
                letters[index] = "d" if parse(written) == written else "n"
            else:  # a replacement's first word that no replacement took here
                letters[index] = plain_class(tokens[index], token)
        return text, tokens, "".join(letters)

    def general(text: str, tokens: list[str], lowered: list[str]) -> str:
        """The word-by-word path: each held word a number only in a numeric context, where it
        is read as written."""
        spellings: list[str | None] = list(map(spellings_of, tokens))
        if not any(spellings):
            return text
        for index, token in enumerate(lowered):
            if token in keep:
                spellings[index] = None
            elif token in ambiguous:
                numeric = _numeric_context(lowered, index, spellings_of, context)
                spellings[index] = tokens[index] if numeric else None
        result = spans(tokens, spellings, lambda index: lowered[index] in inner)
        return text if result is None else result

    def plain(text: str) -> str:
        """The step without its token classes: the replacements, then :func:`general` on
        every text. The same output as ``run`` (``tests/test_spoken_number_spans.py``)."""
        if replace is not None and not replace_triggers.isdisjoint(text.lower().split()):
            text = replace.sub(lambda m: replacements[m.group(0).lower()], text)
        return general(text, text.split(), text.lower().split())

    def run(text: str) -> str:
        tokens = text.split()
        codes = "".join(map(class_letters, tokens))
        if "s" in codes:
            found = held(text, tokens, codes)
            if isinstance(found, str):
                return found
            text, tokens, codes = found
        if "n" not in codes and "d" not in codes:
            return text
        # The same spans as ``spans`` finds (maximal runs of numbers across single inner
        # words); a lone number that reads as itself (class "d": 2024, 5,7) is left as it is.
        pieces: list[str] = []
        done = 0
        for match in _PARSED_SPANS.finditer(codes):
            start, end = match.span()
            pieces.extend(tokens[done:start])
            if end - start == 1:
                pieces.append(parse(spellings_of(tokens[start]) or tokens[start]))
            else:
                pieces.append(parse(" ".join([spellings_of(token) or token for token in tokens[start:end]])))
            done = end
        if done:
            pieces.extend(tokens[done:])
            return " ".join(pieces)
        return " ".join(tokens)

    run.plain = plain  # the reference the tests hold the token classes to
    return run
