"""Thai word-level steps: marks and vowels put right, and mai yamok as one form.

Sources: pythainlp 5.3.5's ``normalize`` and ``expand_maiyamok`` (their rules), and the Thai
reviewer cases (``cases/th/``). Rules and examples: ``docs/thai.md``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pytest_asrbench.normalize.languages.th.library import expand_maiyamok, thai_normalize
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.registry import step

MAI_YAMOK = "\u0e46"  # ๆ, the repetition mark (a letter of category Lm, not punctuation)
# Spaces typed before the mark: "เด็ก ๆ" is "เด็กๆ" (the Royal Institute style spaces it, chat
# and ASR output attach it; the spoken form is the same).
_MAI_YAMOK_RE = re.compile(MAI_YAMOK)
_SPACES_BEFORE_YAMOK = re.compile(rf"\s+(?={MAI_YAMOK})")


@step("thai_marks", language="th", libraries=("pythainlp",), before={"remove_spaces": "it reads the spaces (a mark left dangling after one)"},
      after={"unicode_whitespace": "it reads the spaces, so every space must be a plain one"})
def thai_marks(config, lexicons):
    """pythainlp's ``normalize``: tone marks and vowels typed in the wrong order put right
    (``นำ้`` = ``น้ำ``), doubled ones made one (``ก่่อน`` = ``ก่อน``, ``เเ`` = ``แ``), zero-width
    spaces and non-joiners removed, a mark left dangling after a space removed, runs of spaces
    made one. Well-formed text is unchanged. Runs after ``unicode_whitespace`` (it reads spaces)
    and before ``remove_spaces``."""

    normalize = thai_normalize()

    def run(text: str) -> str:
        return normalize(text)

    return triggered(_MIGHT_CHANGE, run)  # a text it misses is one pythainlp's normalize leaves as it is


# Every condition under which pythainlp 5.3.5's ``normalize`` changes a text (its source,
# ``pythainlp/util/normalize.py``, rule by rule): zero-width space or non-joiner; a newline,
# two spaces, or whitespace at either end (remove_dup_spaces strips); a space before a
# non-base character, or a non-base character first (remove_spaces_before_marks,
# remove_dangling); เเ, a tone mark or thanthakhat before an above or below vowel, nikhahit
# (then tone marks) before sara aa, a follow vowel before a tone mark, lakkhangyao
# (reorder_vowels); a repeated vowel or sign, spaces between allowed, and two tone marks
# (remove_repeat_vowels). A text matching none is returned as it is, without the call.
_TONES = "่-๋"
_ABOVE_BELOW = "ัิ-ืํ็ุู"
_DANGLING = f"{_ABOVE_BELOW}{_TONES}ฺ์ํ๎"
_NOREPEAT = "ะาำๅเ-ไัิ-ืํ็ฺุู์๎"
# Alternatives that start alike are merged (the search tries fewer branches per character):
# ^\s and a leading mark; two spaces and a mark after a space; a tone mark before an above or
# below vowel or before another tone mark; เเ is a repeated vowel.
_MIGHT_CHANGE = re.compile(
    rf"[\u200b\u200c\n\u0e45]|^[\s{_DANGLING}]|\s$| [ {_DANGLING}]|[{_TONES}][{_ABOVE_BELOW}{_TONES}]"
    rf"|\u0e4c[{_ABOVE_BELOW}]|\u0e4d[{_TONES}]*\u0e32|[\u0e30\u0e32\u0e33\u0e45][{_TONES}]|([{_NOREPEAT}]) *\1")


def might_change(text: str) -> bool:
    """Whether pythainlp's ``normalize`` can change ``text`` (a superset test: ``False``
    means it returns ``text`` unchanged; ``tests/normalize/test_thai_speed_paths.py`` checks it)."""
    return _MIGHT_CHANGE.search(text) is not None


@lru_cache(maxsize=65536)  # a pure function of one chunk; the same chunks recur (เด็กๆ, ทุกวันๆ)
def _expand_word(chunk: str) -> str:
    """Mai yamok in one space-free chunk replaced by the word before it (pythainlp's tokenizer
    chooses the word: ``ทุกวันๆ`` -> ``ทุกวันทุกวัน``). A mark with no word before it (at
    the start of the chunk) is kept: pythainlp would drop it silently, and a stray mark is an
    error a score should show."""
    body = chunk.lstrip(MAI_YAMOK)
    lead = chunk[: len(chunk) - len(body)]
    if MAI_YAMOK not in body:
        return chunk
    return lead + "".join(expand_maiyamok()(body))


@step("thai_maiyamok", language="th", libraries=("pythainlp",),
      after={"punctuation": "a mark next to ๆ must be gone (เด็กๆ, tokenizes like เด็กๆ)"},
      before={"thai_numbers": "the numbers read the repeated word"})
def thai_maiyamok(config, lexicons):
    """Mai yamok written attached, spaced or expanded is one form, the expanded one (what is
    spoken): ``เด็กๆ`` = ``เด็ก ๆ`` = ``เด็กเด็ก``; ``ๆๆ`` repeats twice (``นกๆๆ`` = ``นกนกนก``).
    Runs after ``punctuation`` (``เด็กๆ,`` tokenizes like ``เด็กๆ``) and before ``thai_numbers``."""

    def run(text: str) -> str:
        text = _SPACES_BEFORE_YAMOK.sub("", text)
        return " ".join(_expand_word(chunk) for chunk in text.split(" "))

    return triggered(_MAI_YAMOK_RE, run)
