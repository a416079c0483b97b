"""Invisible and control characters never count as errors, in every shipped language.

Property: for EVERY code point of general category Cc or Cf (as the
``regex`` module and Python's ``unicodedata`` know them), inserted into a reference or a
hypothesis of each language's sample pair,

- a character the normalizer removes (``invisible_characters``), inserted anywhere (inside a
  word, between words, at either end), leaves the normalized form and the score (rate, hits,
  substitutions, deletions, insertions, reference length) exactly as for the clean pair;
- a word-boundary character (``unicode_whitespace``: TAB, LF, VT, FF, CR, U+001C..U+001F,
  NEL, ZWSP) inserted between words (next to a space, in place of a space, or at either end)
  leaves the score as for the clean pair, and inside a word acts exactly as a space there;
- normalizing the dirty text twice gives the same as once.

Hypothesis draws the pair side and the positions; every example runs every code point.
The classes themselves are pinned against the Unicode properties they come from
(configs/README.md, "Invisible and control characters").
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_asrbench import score
from pytest_asrbench.normalize import explain, known_languages, normalize_text
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.normalize.steps.basic import INVISIBLE, WHITESPACE

LANGUAGES = known_languages()

# One pair per shipped language, with errors, so a character that moved a word boundary
# or became a word would change the counts. A new language needs its pair here.
PAIRS = {
    "de": ("das Anmeldekonto ist gesperrt", "das Anmelde Konto ist gesperrt"),
    "es": ("una barra de pan por favor", "una barra de pan por favo"),
    "en": ("the cat sat on the mat at seven thirty", "the bat sat on mat at 7:30"),
    "fr": ("je voudrais un café s'il vous plaît", "je voudrais ma café s'il vous plait"),
    "hi": ("मेरी फ़्लाइट seven बजे है क्ष", "मेरी फ्लाइट 7 बजे थी क्ष"),
    "it": ("vorrei un caffè per favore", "vorrei un caffe per favore"),
    "ja": ("今日は 良い 天気です", "今日は 良い 天気でした"),
    "ko": ("삼월 이십오일 회의", "삼월 이십오 일 회의"),
    "nl": ("het e-mailadres is geblokkeerd", "het emailadres is geblokkeerd"),
    "th": ("สวัสดีครับ ยินดีต้อนรับ", "สวัสดีค่ะ ยินดีต้อนรับ"),
    "zh": ("今天 天气 很好", "今天 天气 不错"),
}


#: Every code point, once: one ``regex`` scan per property and one ``unicodedata`` pass.
_ALL = "".join(map(chr, range(sys.maxunicode + 1)))
_PYTHON_CATEGORY = {char: category for char in _ALL if (category := unicodedata.category(char)) in ("Cc", "Cf")}


def _code_points(pattern: str, category: str) -> set[str]:
    """Code points of general category ``category`` as ``regex`` (``pattern``) or Python's
    ``unicodedata`` knows them (their Unicode versions may differ)."""
    return set(regex.findall(pattern, _ALL)) | {char for char, found in _PYTHON_CATEGORY.items() if found == category}


CONTROL = _code_points(r"\p{Cc}", "Cc")
FORMAT = _code_points(r"\p{Cf}", "Cf")
EVERY = sorted(CONTROL | FORMAT)
BOUNDARY = [char for char in EVERY if WHITESPACE.fullmatch(char)]
REMOVED = [char for char in EVERY if not WHITESPACE.fullmatch(char)]

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _counts(result) -> tuple:
    return (
        result.rate,
        result.hits,
        result.substitutions,
        result.deletions,
        result.insertions,
        result.reference_length,
    )


def _with(pair: tuple[str, str], side: int, text: str) -> tuple[str, str]:
    return (text, pair[1]) if side == 0 else (pair[0], text)


def _inside_positions(text: str) -> list[int]:
    """Indices strictly inside a word (between two non-space characters)."""
    return [i for i in range(1, len(text)) if text[i - 1] != " " and text[i] != " "]


def _gap_positions(text: str) -> list[int]:
    """Indices next to a space or at either end: between words."""
    return sorted({0, len(text)} | {i for i, char in enumerate(text) if char == " "} | {
        i + 1 for i, char in enumerate(text) if char == " "
    })


def test_the_classes_cover_every_control_and_format_character():
    assert len(CONTROL) == 65 and len(FORMAT) >= 160
    # The boundaries are exactly the separator controls and the zero width space.
    assert BOUNDARY == [*"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f", "\x85", "\u200b"]
    # Everything else is removed, and so is every default-ignorable code point but ZWSP.
    assert all(INVISIBLE.fullmatch(char) for char in REMOVED)
    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if ignorable.match(chr(code)) and chr(code) != "\u200b" and not INVISIBLE.fullmatch(chr(code))
    ]
    assert missed == []


def test_combining_marks_and_letters_are_not_invisible():
    # Text survives the step: vowel signs, virama, nukta, accents, letters of every script.
    for char in "\u093f\u094d\u093c\u0902\u0301\u0e31\u3099aअ한漢":
        assert not INVISIBLE.match(char), f"U+{ord(char):04X}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_removes_invisible_characters_first(language):
    steps = get_config(language).steps
    assert language in PAIRS, f"add a sample pair for {language!r} to PAIRS"
    assert steps[0] == "invisible_characters", f"{language}: list invisible_characters first, before nfc"
    assert "unicode_whitespace" in steps


@pytest.mark.slow  # a Hypothesis sweep of every removed code point over every language's pair
@pytest.mark.parametrize("language", LANGUAGES)
@SETTINGS
@given(data=st.data())
def test_removed_characters_add_no_error_anywhere(language, data):
    pair = PAIRS[language]
    clean = _counts(score(*pair, language))
    side = data.draw(st.sampled_from([0, 1]), label="side")
    text = pair[side]
    clean_form = normalize_text(text, language)
    inside = data.draw(st.sampled_from(_inside_positions(text)), label="inside a word")
    gap = data.draw(st.sampled_from(_gap_positions(text)), label="between words")
    for char in REMOVED:
        for at in (inside, gap):
            dirty = text[:at] + char + text[at:]
            form = normalize_text(dirty, language)
            assert form == clean_form, f"U+{ord(char):04X} at {at} of {text!r}"
            assert normalize_text(form, language) == form
            assert _counts(score(*_with(pair, side, dirty), language)) == clean, f"U+{ord(char):04X} at {at}"


@pytest.mark.parametrize("language", LANGUAGES)
@SETTINGS
@given(data=st.data())
def test_boundary_characters_are_word_boundaries(language, data):
    pair = PAIRS[language]
    clean = _counts(score(*pair, language))
    side = data.draw(st.sampled_from([0, 1]), label="side")
    text = pair[side]
    gap = data.draw(st.sampled_from(_gap_positions(text)), label="between words")
    space = data.draw(st.sampled_from([i for i, char in enumerate(text) if char == " "]), label="a space")
    inside = data.draw(st.sampled_from(_inside_positions(text)), label="inside a word")
    for char in BOUNDARY:
        name = f"U+{ord(char):04X}"
        for dirty in (text[:gap] + char + text[gap:], text[:space] + char + text[space + 1 :]):
            form = normalize_text(dirty, language)
            assert normalize_text(form, language) == form, name
            assert _counts(score(*_with(pair, side, dirty), language)) == clean, f"{name} in {dirty!r}"
        split = text[:inside] + char + text[inside:]
        spaced = text[:inside] + " " + text[inside:]
        assert normalize_text(split, language) == normalize_text(spaced, language), name
        assert _counts(score(*_with(pair, side, split), language)) == _counts(
            score(*_with(pair, side, spaced), language)
        ), name


@pytest.mark.parametrize("language", LANGUAGES)
@SETTINGS
@given(run=st.lists(st.sampled_from(EVERY), min_size=1, max_size=6), data=st.data())
def test_runs_of_mixed_invisible_characters(language, run, data):
    # Several classes at one spot (a BOM then an LRM then a TAB): still no new error
    # between words, and idempotent; inside a word, a boundary in the run splits it once.
    pair = PAIRS[language]
    side = data.draw(st.sampled_from([0, 1]), label="side")
    text = pair[side]
    space = data.draw(st.sampled_from([i for i, char in enumerate(text) if char == " "]), label="a space")
    dirty = text[:space] + "".join(run) + text[space:]
    form = normalize_text(dirty, language)
    assert normalize_text(form, language) == form
    assert _counts(score(*_with(pair, side, dirty), language)) == _counts(score(*pair, language))


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("\u200ehello world", "hello world"),  # the reported example: was WER 0.5
        ("\ufeffhello world", "hello world"),  # BOM at the start of a pasted file
        ("hel\x00lo wo\x7frld", "hello world"),  # NUL and DEL inside words
        ("\u202bhello\u202c \u2067world\u2069", "hello world"),  # embedding, isolate
        ("hello\u061c world\u200f", "hello world"),  # ALM, RLM
        ("hel\u00adlo wor\u2060ld", "hello world"),  # soft hyphen, word joiner
        ("hello\x85world\x0bagain\x1fend", "hello world again end"),  # NEL, VT, US: boundaries
        ("hello\U000e0041\U000e007f world", "hello world"),  # tag characters
        ("e\u200e\u0301t\u00e9", "\u00e9t\u00e9"),  # an LRM between a letter and its accent: NFC still composes
    ],
)
def test_pinned_examples_in_english(text, expect):
    assert normalize_text(text, "en") == expect


def test_explain_shows_the_step():
    trace = dict(explain("\u200eHello\ufeff", "en"))
    assert trace["input"] == "\u200eHello\ufeff"
    assert trace["invisible_characters"] == "Hello"


@pytest.mark.parametrize(
    ("language", "texts"),
    [("en", ("\u200ehello", "hel\u00adlo wor\u2060ld")), ("hi", ("\u200eनमस्ते", "क्\u200dष", "नम\u00adस्ते"))],
)
def test_untouched_kind_sees_words_as_the_normalizer_does(language, texts):
    # The `untouched` kind compares each word of the full normalizer's output with the
    # language's surface steps; both must remove the same invisible characters, or a word
    # with a ZWJ or an LRM is reported as rewritten.
    from pytest_asrbench.cases.text_forms import surface_normalizer

    for text in texts:
        assert surface_normalizer(language)(text) == normalize_text(text, language)


def test_the_step_trigger_matches_every_character_the_step_removes():
    """The pipeline skips ``invisible_characters`` where its trigger finds nothing: the trigger
    must match every character INVISIBLE matches (checked on every code point, outside the
    surrogates), and pass printable ASCII and ordinary spaces by."""
    from pytest_asrbench.normalize.pipeline import trigger_of
    from pytest_asrbench.normalize.registry import get_normalizer
    from pytest_asrbench.normalize.steps.basic import INVISIBLE

    step = next(step for step in get_normalizer("en").steps if step.name == "invisible_characters")
    trigger = trigger_of(step.function)
    assert trigger is not None
    missed = [hex(code) for code in range(0x110000)
              if not 0xD800 <= code <= 0xDFFF and INVISIBLE.match(chr(code)) and not trigger.search(chr(code))]
    assert missed == []
    assert trigger.search("Hello, world! 25 $ (a) \t\n\u00a0\u200b café") is None
