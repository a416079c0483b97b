"""Romanized Hindi: a Latin-script word that transliterates a Devanagari word (mujhe = मुझे).

Off by default: a config turns it on with ``romanized_matching = true`` (``configs/hi.toml``
declares it ``false``; a project config that ``extends = "hi"`` may set it). Whether STT
output in Latin script counts as correct Hindi is a decision of the evaluation, not a fact
(the original requirements left it open: "Romanized Hindi in the STT output ... is a separate
decision"), so the score's ``details.code_switch.romanized_matching`` says when it was on.

How a pair is compared (:func:`romanizes`):

1. the Devanagari word is transliterated to ITRANS by indic-transliteration (the
   ``sanscript`` module: a maintained, table-driven scheme converter; pinned in
   ``pyproject.toml``, so its tables are part of every signature);
2. its *inherent* vowels (an ``a`` ITRANS writes after a consonant with no vowel sign) may be
   silent, as Hindi speech drops them (schwa deletion): at the end of the word always
   (कल = kal), inside it in any combination (समझना = samajhna or samajhana), never in the
   first syllable;
3. both spellings are folded to one loose form, for the romanization variants of everyday
   writing: case, long vowels as short (aa = a, ee = ii = i, oo = uu = u), w = v, a doubled
   letter as one (and chch, cch, chh as ch: accha = achchha), a nasal (anusvara,
   candrabindu, a final n after a vowel) dropped at the end (hai = hain, mein = me), a final ey as e (mujhey = mujhe), ei as e, sh = s, ph = f,
   z = j (nukta letters are already folded by the Hindi config), the retroflex and dental
   letters as one (ट = त);
4. the pair matches when the folded Latin word equals one folded reading of the Devanagari
   word, and the Latin word has at least :data:`MIN_LATIN_LETTERS` letters.

Only the Devanagari side's inherent vowels may vanish, never a letter of the Latin side:
``bahut`` matches बहुत, and does not match भूत (bhuta: its one inherent vowel is final).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations

from pytest_asrbench.scoring.views.codeswitch.phonetic import PhoneticVerdict, is_devanagari_word, is_latin_word

MIN_LATIN_LETTERS = 2
_MAX_SILENT = 4  # inherent vowels inside a word tried silent, at most (2**4 readings)
#: The prefix of a romanized verdict's ``key``, so the rescue's audit line can say how it matched.
KEY_PREFIX = "romanized:"

_ITRANS_CONSONANT = re.compile(r"(?:[kgcjtdnpbmyrlvwshfzqKGCJTDNPBMYRLVWSHFZQ~.]|\^)$")
_FOLDS = (
    ("chch", "ch"), ("cch", "ch"), ("chh", "ch"), ("aa", "a"), ("ee", "i"), ("ii", "i"), ("oo", "u"), ("uu", "u"), ("w", "v"), ("sh", "s"), ("ph", "f"),
    ("z", "j"), ("ei", "e"), ("x", "ks"), ("q", "k"),
)


@lru_cache(maxsize=1)
def _transliterate():
    from indic_transliteration import sanscript

    return lambda word: sanscript.transliterate(word, sanscript.DEVANAGARI, sanscript.ITRANS)


def fold(spelling: str) -> str:
    """The loose form of a romanization (see the module docstring, rule 3)."""
    text = spelling.lower()
    text = re.sub(r"ey$", "e", text)
    for old, new in _FOLDS:
        text = text.replace(old, new)
    text = re.sub(r"(.)\1+", r"\1", text)
    text = re.sub(r"(?<=[aeiou])n$", "", text)
    return text


def _itrans(word: str) -> str:
    """ITRANS of ``word`` with anusvara and candrabindu as ``n`` (``m`` before a labial)."""
    text = _transliterate()(word)
    text = re.sub(r"M(?=[pbm])", "m", text)
    return text.replace(".N", "n").replace("M", "n").replace(".n", "n").replace("~N", "n").replace("~n", "n") \
        .replace(".D", "D").replace(".h", "").replace("H", "h")


def _inherent_positions(itrans: str) -> list[int]:
    """Indices of the inherent ``a`` vowels of an ITRANS spelling that may be silent: an ``a``
    after a consonant letter that is not the start of ``aa``, ``ai`` or ``au`` (vowel signs),
    and not the word's first vowel (Hindi keeps the vowel of the first syllable: कल is kal)."""
    positions = []
    first_vowel = next((index for index, char in enumerate(itrans) if char in "aeiouAEIOU"), len(itrans))
    for index, char in enumerate(itrans):
        if char != "a" or index <= first_vowel:
            continue
        following = itrans[index + 1: index + 2]
        if following in ("a", "i", "u") or itrans[index - 1] in "aeiouAEIOU":
            continue
        positions.append(index)
    return positions


@lru_cache(maxsize=65536)
def readings(word: str) -> frozenset[str]:
    """Every folded reading of a Devanagari word: its inherent vowels kept or silent.

    ``word`` is one Devanagari word (normalized by the Hindi config). The final inherent
    vowel is always silent; up to :data:`_MAX_SILENT` inner ones are tried both ways.
    """
    itrans = _itrans(word)
    inherent = _inherent_positions(itrans)
    if inherent and inherent[-1] == len(itrans) - 1:
        itrans = itrans[:-1]
        inherent = inherent[:-1]
    inner = inherent[:_MAX_SILENT]
    found = set()
    for size in range(len(inner) + 1):
        for silent in combinations(inner, size):
            spelling = "".join(char for index, char in enumerate(itrans) if index not in silent)
            found.add(fold(spelling))
    return frozenset(found)


def romanizes(devanagari: str, latin: str) -> bool:
    """Whether ``latin`` is a romanization of ``devanagari`` (see the module docstring)."""
    return (is_devanagari_word(devanagari) and is_latin_word(latin) and len(latin) >= MIN_LATIN_LETTERS
            and fold(latin) in readings(devanagari))


class RomanizedMatcher:
    """The Hindi rescue's matcher with romanized Hindi accepted too.

    Wraps the phonetic matcher (``phonetic``, or ``None`` when the config leaves it off): a
    pair is matched when the phonetic matcher pairs it (an English word), else when the Latin
    word romanizes the Devanagari one; the verdict's ``key`` is then :data:`KEY_PREFIX` and the
    folded spelling. Every Devanagari word may match (the phonetic stoplist is for English
    look-alikes: कल = kal is a romanization, कल = call is not).
    """

    def __init__(self, phonetic=None):
        self.phonetic = phonetic

    def could_match(self, devanagari: str) -> bool:
        return is_devanagari_word(devanagari)

    def check(self, first: str, second: str) -> PhoneticVerdict:
        if self.phonetic is not None:
            verdict = self.phonetic.check(first, second)
            if verdict.matched:
                return verdict
        devanagari, latin = (first, second) if is_devanagari_word(first) else (second, first)
        if romanizes(devanagari, latin):
            return PhoneticVerdict(True, "romanized Hindi", devanagari, latin, KEY_PREFIX + fold(latin))
        return PhoneticVerdict(False, "neither an English word nor a romanization", devanagari, latin)

    def match(self, first: str, second: str) -> bool:
        return self.check(first, second).matched
