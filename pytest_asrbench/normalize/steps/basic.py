"""Language-independent steps: Unicode form, whitespace, case, punctuation, fillers, folds."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from functools import partial

import regex

from pydantic import Field

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.char_classes import beyond_bmp, bmp_class
from pytest_asrbench.normalize.steps.numbers import MINUS_SIGNS, number_marks
from pytest_asrbench.normalize.steps.registry import step

# Word boundaries: every character Python treats as whitespace (``str.isspace``: category
# Zs, or bidirectional class B, S or WS, which takes in the separator controls TAB, LF, VT,
# FF, CR, U+001C..U+001F and NEL U+0085, and the separators U+2028/U+2029), plus the zero
# width space U+200B (a line-break opportunity, Unicode line breaking class ZW, UAX #14: the
# word separator of scripts written without spaces).
WHITESPACE = re.compile(r"[\s\u200b]+")
# Characters that are not text: removed, never a boundary (a boundary inside a word would
# split it in two). Every format character (Cf), every default-ignorable code point
# (Default_Ignorable_Code_Point, DerivedCoreProperties.txt, UAX #44; assigned or reserved)
# and every control (Cc), less the boundaries above. That is: bidi marks, embeddings,
# overrides and isolates (LRM, RLM, U+061C ALM, U+202A..U+202E, U+2066..U+2069; UAX #9),
# ZWNJ/ZWJ (Devanagari half forms: क्‍ष is क्ष; emoji sequences), word joiner,
# BOM/ZWNBSP, soft hyphen, invisible operators, variation selectors, tag characters, the
# combining grapheme joiner, Hangul fillers, Mongolian free variation selectors, NUL, DEL
# and the other C0/C1 controls (ISO/IEC 6429 functions with no meaning as text, Unicode
# Standard section 23.1), and the visible-but-unspoken format characters (Arabic number
# signs, interlinear annotation anchors, Egyptian hieroglyph format controls).
# (The separator controls are the controls of bidirectional class B, S or WS, the very ones
# ``str.isspace`` and so WHITESPACE take in; the ``regex`` module's own ``\s`` leaves out
# U+001C..U+001F, so it is not used here.)
INVISIBLE = regex.compile(
    r"[[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]"
    r"--[\p{Bidi_Class=B}\p{Bidi_Class=S}\p{Bidi_Class=WS}\u200b]]+",
    regex.V1,
)

#: The trigger of ``invisible_characters``: any character of the Basic Multilingual Plane that
#: :data:`INVISIBLE` matches (134 of them), or any character beyond it. Derived from
#: :data:`INVISIBLE` (so never narrower than it) as a plain ``re`` class, which texts without
#: such characters (nearly all, CJK and Hangul text included) pass in one C scan, several
#: times faster than the ``regex`` search (``re`` tests a large class by table lookup only in
#: that plane). Built at import from one scan of the plane's 65,536 code points (~10 ms).
def _may_be_invisible() -> re.Pattern[str]:
    plane = "".join(map(chr, range(0x10000)))
    found = sorted(set("".join(INVISIBLE.findall(plane))))
    return re.compile("[" + "".join(re.escape(char) for char in found) + "\U00010000-\U0010ffff]")


_MAY_BE_INVISIBLE = _may_be_invisible()


@step("invisible_characters", idempotent=True,
      before={"nfc": "a mark removed between a letter and its accent lets NFC compose them"})
def invisible_characters(config, lexicons):
    """Remove the characters that are not text (:data:`INVISIBLE`): format characters,
    default-ignorable code points and controls that are not whitespace.

    Runs first, before ``nfc``: removing a mark between a letter and its combining accent
    lets NFC compose them, so the output is NFC and normalizing it again changes nothing.
    Separator controls (TAB, LF, VT, FF, CR, U+001C..U+001F, NEL) and the zero width space
    are left for ``unicode_whitespace``, which makes them word boundaries. Combining marks
    other than the default-ignorable ones (the CGJ, variation selectors) are untouched.
    Rule sources: Unicode ``Default_Ignorable_Code_Point`` (UAX #44), general categories
    Cc and Cf, UAX #9 (bidi controls), Unicode Standard section 23.1 (control codes).
    """
    # A search first: cheaper than a sub that finds nothing, the usual case; and the trigger
    # before it, a plain ``re`` scan that most texts (printable ASCII) pass in C.
    return triggered(_MAY_BE_INVISIBLE,
                     lambda text: INVISIBLE.sub("", text) if INVISIBLE.search(text) else text)


@step("nfc", before={"char_folds": "the fold tables are written composed: a decomposed letter would miss its fold"})
def nfc(config, lexicons):
    """Unicode NFC, so a precomposed and a decomposed 'é' (or nukta letter) compare equal."""
    return partial(unicodedata.normalize, "NFC")  # called in C: no Python frame per text


@step("unicode_whitespace")
def unicode_whitespace(config, lexicons):
    """Any Unicode whitespace (tab, LF, NEL, NBSP, ideographic space, line separator) and the
    zero width space become one ASCII space (:data:`WHITESPACE`): a word boundary."""

    def run(text: str) -> str:
        # Nothing to do when the only whitespace is single ASCII spaces: every character
        # ``str.isspace`` takes in, but the ASCII space, and the zero width space are
        # non-printable (category Z* or C*; tests/test_word_step_gates.py checks every code point).
        if text.isprintable() and "  " not in text:
            return text
        # Same result as ``WHITESPACE.sub(" ", text)``, without a regex call per space:
        # ``str.split()`` splits at the very characters ``\s`` matches (``str.isspace``).
        if "\u200b" in text:
            text = text.replace("\u200b", " ")
        words = text.split()
        if not words:
            return " " if text else ""
        joined = " ".join(words)
        if text[0].isspace():
            joined = " " + joined
        if text[-1].isspace():
            joined += " "
        return joined

    return run


@step("lowercase")
def lowercase(config, lexicons):
    """Lowercase cased scripts (``str.lower``; uncased scripts are unchanged)."""
    return str.lower


# Letters, digits and combining marks: what may stand on both sides of inner punctuation.
_WORD_CHAR = r"[\p{L}\p{N}\p{M}]"
# Combining marks with no base before them (text start or a space).
_ORPHAN_MARKS = regex.compile(r"(?:^|(?<=\s))\p{M}+")


class PunctuationOptions(StepOptions):
    """``[options.punctuation]``: which symbols survive the ``punctuation`` step."""

    keep_symbols: str = Field("", description="Symbol characters always kept ('$€£%' in en).")
    inner_punctuation: str = Field(
        "", description="Punctuation kept only between two letters or digits ('-_/' keeps ABC-123).")
    ordinal_dot: bool = Field(
        False, description="Keep a '.' right after digits when a word follows (de ordinals: 3. März).")


@step("punctuation", options=PunctuationOptions)
def punctuation(config, lexicons, options: PunctuationOptions):
    """Remove punctuation and symbols (Unicode categories P* and S*) by replacing them with a space.

    Inside a number, the language's ``decimal_separator`` between two digits stays
    (``0,2`` in de, ``5.3`` in hi) and a minus sign that starts a number stays as ``-``
    (``-3.14``; see :mod:`.numbers`); with ``ordinal_dot``, a dot after digits before a word
    stays too (German ordinals ``3. März``; the German step ``ordinal_dots`` first removes the
    dots that end a sentence). Characters in ``keep_symbols`` always stay; characters
    in ``inner_punctuation`` stay only between two letters or digits (so ``abc-123`` keeps its hyphen, a trailing
    hyphen goes). Combining marks (category M) of a word are never touched, so a Devanagari
    word is never split at a vowel sign, virama or nukta; a mark with no base left (after a
    removed symbol or a space) is dropped with it, so it never becomes a word of its own.

    The rules are Unicode property classes of the ``regex`` package (``\\p{P}``, ``\\p{S}``,
    ``\\p{M}``); :func:`_fast_punctuation` runs the same rules as plain ``re`` patterns over
    those classes listed for the Basic Multilingual Plane (:mod:`.char_classes`), and a text with a
    character beyond the plane takes the ``regex`` form.
    """
    exact = _exact_punctuation(config.decimal_separator, options)
    return _fast_punctuation(config.decimal_separator, options, exact)


def _exact_punctuation(decimal: str, options: PunctuationOptions) -> Callable[[str], str]:
    """The punctuation rules as one ``regex`` pass with a replacement function per match,
    then the orphan marks: the statement of the rules, run on any text."""
    keep = "".join(regex.escape(char) for char in options.keep_symbols)
    symbols = rf"[[\p{{P}}\p{{S}}]--[{keep}]]" if keep else r"[\p{P}\p{S}]"
    alternatives = [number_marks(decimal, options.ordinal_dot)]  # groups 1 and 2
    if options.inner_punctuation:
        inner = "".join(regex.escape(char) for char in options.inner_punctuation)
        alternatives.append(rf"(?<={_WORD_CHAR})([{inner}])(?={_WORD_CHAR})")  # group 3
    pattern = regex.compile("|".join([*alternatives, symbols]), regex.V1)

    def replace(match) -> str:
        if match.group(1):
            return match.group(1)
        if match.group(2):
            return "-"
        return (match.group(3) if options.inner_punctuation else None) or " "

    def run(text: str) -> str:
        text = pattern.sub(replace, text)
        return text if text.isascii() else _ORPHAN_MARKS.sub("", text)  # ASCII has no marks

    return run


def _fast_punctuation(decimal: str, options: PunctuationOptions, exact: Callable[[str], str]) -> Callable[[str], str]:
    """:func:`_exact_punctuation`'s output, in one C scan with a constant replacement.

    Every character the rules replace is one of P* or S*, and each rule decides on one such
    character from its neighbours in the input: the decimal separator between two digits,
    the ordinal dot (a digit before it, a space and a letter after it) and an inner mark
    between two word characters stay as they are; a minus sign with a space or the text
    start before it and a digit after it stays as ``-``; any other character of P* or S*
    outside ``keep_symbols`` becomes a space. So the pattern is the class of those characters
    (the scan jumps from one to the next) with the kept contexts as negative lookarounds, and
    ``U+2212`` before a number is first written ``-`` (it and ``-`` are alike to every
    neighbour's rule: neither is a digit, a space or a word character). Each class is the
    ``regex`` class of the rules listed for U+0000..U+FFFF; a text beyond that plane is
    handed to ``exact``.
    """
    v1 = regex.V1
    not_space = bmp_class(r"\s", v1, negate=True)
    digit = bmp_class(r"\d", v1)
    keep = "".join(regex.escape(char) for char in options.keep_symbols)
    symbols = bmp_class(rf"[[\p{{P}}\p{{S}}]--[{keep}]]" if keep else r"[\p{P}\p{S}]", v1)
    decimal_mark = re.escape(decimal)
    kept = [rf"(?!(?<={digit}{decimal_mark}){digit})"]
    if options.ordinal_dot:
        letter = bmp_class(r"[^\W\d_]", v1)
        kept.append(rf"(?!(?<={digit}\.) {letter})")
    kept.append(rf"(?!(?<=-)(?<!{not_space}-){digit})")
    if options.inner_punctuation:
        word = bmp_class(_WORD_CHAR, v1)
        inner = "".join(re.escape(char) for char in options.inner_punctuation)
        kept.append(rf"(?!(?<={word}[{inner}]){word})")
    replaced = re.compile(symbols + "".join(kept)).sub
    other_minus = "".join(sign for sign in MINUS_SIGNS if sign != "-")
    minus_before_number = re.compile(rf"(?<!{not_space})[{re.escape(other_minus)}](?={digit})").sub
    marks = bmp_class(r"\p{M}")
    not_space_v0 = bmp_class(r"\s", negate=True)  # _ORPHAN_MARKS is a V0 pattern
    orphan_marks = re.compile(rf"{marks}(?<!{not_space_v0}{marks}){marks}*").sub
    # One scan for all that needs more than the replacement: a mark, U+2212, a character beyond the plane.
    special = re.compile(rf"[{marks[1:-1]}{re.escape(other_minus)}\U00010000-\U0010ffff]").search

    def run(text: str) -> str:
        if text.isascii() or special(text) is None:
            return replaced(" ", text)
        if beyond_bmp(text):
            return exact(text)
        if "\u2212" in text:
            text = minus_before_number("-", text)
        return orphan_marks("", replaced(" ", text))

    if len(decimal) != 1 or decimal in MINUS_SIGNS or other_minus != "\u2212":
        return exact  # outside what the reasoning above covers: the rules as stated
    return run


@step("collapse_whitespace", idempotent=True)
def collapse_whitespace(config, lexicons):
    """Collapse runs of spaces to one and strip both ends."""
    return _collapse


def _collapse(text: str) -> str:
    # An ASCII text as it is (the same object, which lets the steps after it share its split)
    # when it is already its words joined by single spaces: every whitespace character but the
    # space is non-printable (tests/test_word_step_gates.py checks every code point). Other
    # text is split and joined at once (a short CJK text costs less so than tested).
    if text.isascii() and "  " not in text and text.isprintable() and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


@step("remove_spaces")
def remove_spaces(config, lexicons):
    """Drop every space (character-scored languages list this step: ja, zh, th)."""
    return lambda text: text.replace(" ", "")


@step("fillers")
def fillers(config, lexicons):
    """Remove the config's filler words, as whole words only (so 'um' leaves 'umbrella' alone)."""
    words = frozenset(config.fillers)
    if not words:
        return lambda text: text
    disjoint = words.isdisjoint

    def run(text: str) -> str:
        tokens = text.split()
        if disjoint(tokens):  # the usual text: no filler, only the spaces change
            return " ".join(tokens)
        return " ".join(word for word in tokens if word not in words)

    return run


def make_fold(folds: Mapping[str, str]) -> Callable[[str], str]:
    """``char_folds`` as a ``str -> str`` function, longest source first (identity when empty).

    Shared by the ``char_folds`` step and by every step or table that must see text folded
    the same way (number words, the phonetic stoplist, hyphen compounds).
    """
    if not folds:
        return lambda text: text
    pattern = re.compile("|".join(re.escape(source) for source in sorted(folds, key=len, reverse=True)))

    def replace(match: re.Match) -> str:
        return folds[match.group(0)]

    # The pattern changes a text only where a source is a substring of it: most texts hold
    # none, and a few substring tests say so for less than the pattern's pass (source_test).
    # ASCII text, most text in Latin-script languages, can hold only the ASCII sources (none
    # in most tables: curly quotes, dashes, the degree sign; the European tables list the
    # backtick).
    holds_source = source_test(folds)
    ascii_sources = tuple(source for source in folds if source.isascii())
    if not ascii_sources:
        return lambda text: text if text.isascii() or not holds_source(text) else pattern.sub(replace, text)
    if len(ascii_sources) == 1:
        (only,) = ascii_sources

        def fold_one(text: str) -> str:
            if (only not in text) if text.isascii() else not holds_source(text):
                return text
            return pattern.sub(replace, text)

        return fold_one

    def fold(text: str) -> str:
        if not (any_in(ascii_sources, text) if text.isascii() else holds_source(text)):
            return text
        return pattern.sub(replace, text)

    return fold


#: Up to this many fold sources, substring tests (one C search each) find whether a text holds
#: one faster than the sources' alternation searches it; beyond, the search is faster
#: (benchmarks/README.md, "substring tests before folds": 7 sources 0.40 against 0.89 us,
#: 15 sources 0.57 against 0.74 us, on an 88-character text).
_SUBSTRING_TESTS_UP_TO = 16


def source_test(folds: Mapping[str, str]) -> Callable[[str], bool]:
    """``holds(text)``: whether any source of ``folds`` is a substring of ``text`` (where a fold
    can change it): a substring test per source for a short table, the sources' alternation
    searched for a long one."""
    sources = tuple(sorted(folds, key=len))
    if len(sources) <= _SUBSTRING_TESTS_UP_TO:
        return lambda text: any_in(sources, text)
    search = re.compile("|".join(re.escape(source) for source in sources)).search
    return lambda text: search(text) is not None


def any_in(pieces: tuple[str, ...], text: str) -> bool:
    """Whether any of ``pieces`` is a substring of ``text`` (a loop, not ``any()`` over a
    generator: no generator frame per call)."""
    for piece in pieces:
        if piece in text:
            return True
    return False


def _normalized_key(text: str, fold: Callable[[str], str]) -> str:
    return fold(unicodedata.normalize("NFC", text).lower())


def folded_table(table: Mapping[str, str], fold: Callable[[str], str], what: str) -> dict[str, str]:
    """Fold the keys of a lexicon; two keys that fold together must agree on their value.

    Raises:
        ConfigError: two spellings fold to one key with different values.
    """
    folded: dict[str, str] = {}
    origin: dict[str, str] = {}
    for key, value in table.items():
        new_key = _normalized_key(key, fold)
        if new_key in folded and folded[new_key] != value:
            raise ConfigError(
                f"{what}: {origin[new_key]!r} and {key!r} fold to the same word {new_key!r} but map to "
                f"{folded[new_key]!r} and {value!r}; keep one of them"
            )
        folded[new_key] = value
        origin[new_key] = key
    return folded


def is_word_char(char: str) -> bool:
    """A letter, digit or combining mark (a Devanagari vowel sign is part of its word)."""
    return char.isalnum() or unicodedata.category(char)[0] == "M"


@step("char_folds", before={"punctuation": "punctuation keeps only the apostrophe and hyphen it knows between letters: a curly one must be folded to it first"})
def char_folds(config, lexicons):
    """Apply ``char_folds`` (longest source first) so two spellings of a character compare equal."""
    return make_fold(config.char_folds)
