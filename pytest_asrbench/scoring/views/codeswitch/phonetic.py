"""The phonetic matcher: is a Devanagari word the same English word as a Latin one?

Source: the original requirements' "Phonetic matcher" section. Hindi speakers' English words are written
in Devanagari on one side (नेटवर्क) and in Latin on the other (network). Both are reduced
to a *consonant key*, and the pair matches only when:

1. one word is pure Devanagari and the other pure Latin (single words only);
2. the Devanagari word is not on the stoplist of native words with an English look-alike
   (कल/call, बस/bus, कमरा/camera, मिलना/million ...: ``configs/hi/phonetic_stoplist.tsv``);
3. the key has at least three consonants (two are too few to tell words apart);
4. the Devanagari key equals one of the Latin key's readings (a soft g reads g or j:
   manager = मैनेजर, target = टारगेट; an s between vowels reads s or z: reason = रीज़न,
   basic = बेसिक; ch reads ch or k; th reads t or d);
5. the first vowels are compatible (booking = बुकिंग, backing ≠ बुकिंग).

Key alphabet: ``k g c j t d n p f b m r l v s h``. Aspiration is dropped (थ = त = t), ट/त
and ड/द are one (English has one t and one d), श/ष/स and sh are ``s``, ज/झ/z/j are ``j``
(nukta folds make ज़ and ज one letter), व/w/v are ``v``. य and y are vowel-like and not
counted. Anusvara is ``m`` before प/ब/भ/म and ``n`` elsewhere (नंबर = number). The same
consonant twice with no vowel between counts once (pp, क्क); across a vowel it counts
twice, so another form of the word does not match (refunded ≠ रिफंड, numbers ≠ नंबर).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from pytest_asrbench.scoring.views.codeswitch.readings import key_readings

MIN_CONSONANTS = 3
VOWEL = "V"

# --- Devanagari --------------------------------------------------------------------------

_DEV_CONSONANTS = {
    "क": "k", "ख": "k", "ग": "g", "घ": "g", "ङ": "n",
    "च": "c", "छ": "c", "ज": "j", "झ": "j", "ञ": "n",
    "ट": "t", "ठ": "t", "ड": "d", "ढ": "d", "ण": "n",
    "त": "t", "थ": "t", "द": "d", "ध": "d", "न": "n",
    "प": "p", "फ": "f", "ब": "b", "भ": "b", "म": "m",
    "य": VOWEL, "र": "r", "ल": "l", "ळ": "l", "व": "v",
    "श": "s", "ष": "s", "स": "s", "ह": "h",
    "क़": "k", "ख़": "k", "ग़": "g", "ज़": "j", "ड़": "d", "ढ़": "d", "फ़": "f", "य़": VOWEL,
    "ऩ": "n", "ऱ": "r", "ऴ": "l",
}
_DEV_CONSONANTS = {unicodedata.normalize("NFC", letter): symbol for letter, symbol in _DEV_CONSONANTS.items()}
_LABIALS = set("पबभम")  # anusvara before these is m (a rule of the original requirements); before anything else n
_VIRAMA = "\u094d"
_NUKTA = "\u093c"
_ANUSVARA = "\u0902"
_CHANDRABINDU = "\u0901"
_VISARGA = "\u0903"

# Vowel classes, for the first-vowel check.
_DEV_VOWEL_CLASS = {
    "अ": "A", "आ": "AA", "ा": "AA", "इ": "I", "ि": "I", "ई": "I", "ी": "I", "ऋ": "I", "ृ": "I",
    "उ": "U", "ु": "U", "ऊ": "U", "ू": "U", "ए": "E", "े": "E", "ऐ": "AI", "ै": "AI",
    "ऍ": "AI", "ॅ": "AI", "ओ": "O", "ो": "O", "औ": "AU", "ौ": "AU", "ऑ": "OO", "ॉ": "OO",
    "ॆ": "E", "ॊ": "O", "ऎ": "E", "ऒ": "O",
}
INHERENT = "A"


def is_devanagari_word(word: str) -> bool:
    """Every character is in the Devanagari block (letters, signs; no digits from elsewhere)."""
    return bool(word) and all("\u0900" <= char <= "\u097f" for char in word)


def is_latin_word(word: str) -> bool:
    """Every character is an ASCII letter (or an apostrophe inside, as in "don't")."""
    return bool(word) and word.replace("'", "").isascii() and word.replace("'", "").isalpha()


def _nfc(word: str) -> str:
    # NFC keeps nukta letters decomposed (क + ़); map them through the table as pairs.
    return unicodedata.normalize("NFC", word)


@lru_cache(maxsize=65536)
def devanagari_key(word: str) -> str:
    """The consonant key of a Devanagari word: नेटवर्क -> "ntvrk", नंबर -> "nmbr"."""
    chars = _nfc(word)
    sequence: list[str] = []
    index = 0
    while index < len(chars):
        char = chars[index]
        if index + 1 < len(chars) and chars[index + 1] == _NUKTA and char + _NUKTA in _DEV_CONSONANTS:
            symbol, width = _DEV_CONSONANTS[char + _NUKTA], 2
        elif char in _DEV_CONSONANTS:
            symbol, width = _DEV_CONSONANTS[char], 1
        elif char in (_ANUSVARA, _CHANDRABINDU):
            following = chars[index + 1] if index + 1 < len(chars) else ""
            sequence.append("m" if following in _LABIALS else "n")
            index += 1
            continue
        elif char in _DEV_VOWEL_CLASS:
            sequence.append(VOWEL)
            index += 1
            continue
        else:  # virama, nukta, visarga, avagraha: no sound of their own in the key
            index += 1
            continue
        sequence.append(symbol)
        index += width
        following = chars[index] if index < len(chars) else ""
        if following != _VIRAMA and following not in _DEV_VOWEL_CLASS:
            sequence.append(VOWEL)  # the inherent vowel
    return _collapse(sequence)


def devanagari_first_vowel(word: str) -> str:
    """The class of the first vowel sound: an initial vowel letter, a vowel sign, or inherent a."""
    chars = _nfc(word)
    for index, char in enumerate(chars):
        if char in _DEV_VOWEL_CLASS:
            return _DEV_VOWEL_CLASS[char]
        if char in _DEV_CONSONANTS and _DEV_CONSONANTS[char] != VOWEL:
            rest = chars[index + 1 :].lstrip(_NUKTA)
            if not rest or rest[0] != _VIRAMA:
                return _DEV_VOWEL_CLASS.get(rest[:1], INHERENT)
    return INHERENT


# --- Latin -------------------------------------------------------------------------------

_VOWELS = set("aeiouy")
_FIRST_VOWEL_COMPATIBLE = {
    # Latin first-vowel spelling -> Devanagari vowel classes it may be written with.
    "a": {"A", "AA", "AI", "E", "OO"},
    "e": {"E", "AI", "I", "A"},
    "i": {"I", "A", "AA"},
    "o": {"O", "OO", "A", "AA", "U", "AU"},
    "u": {"U", "A"},
    "y": {"I", "AA", "AI"},
    "ea": {"I", "E", "A"},
    "ee": {"I"},
    "ai": {"E", "AI"},
    "ay": {"E", "AI"},
    "au": {"OO", "O", "AA", "AU"},
    "aw": {"OO", "O", "AA", "AU"},
    "oa": {"O"},
    "oo": {"U", "O"},
    "ou": {"AU", "A", "U", "AA", "O"},
    "oi": {"OO", "AU", "O"},
    "oy": {"OO", "AU", "O"},
    "ie": {"I", "AA"},
    "ei": {"E", "I", "AA"},
    "ey": {"E", "I", "AA"},
    "ue": {"U", "I"},
    "ui": {"U", "I"},
    "eu": {"U"},
    "ew": {"U"},
}


def latin_first_vowel(word: str) -> str:
    """The spelling of the first vowel: "booking" -> "oo", "reason" -> "ea", "yes" -> "e"."""
    letters = word.lower().replace("'", "")
    index = 0
    if letters.startswith("y") and len(letters) > 1 and letters[1] in "aeiou":
        index = 1
    while index < len(letters) and letters[index] not in _VOWELS:
        index += 1
    if index >= len(letters):
        return ""
    pair = letters[index : index + 2]
    return pair if pair in _FIRST_VOWEL_COMPATIBLE else letters[index]


def _latin_sequence(word: str) -> list[str | tuple[str, ...]]:
    """Consonant symbols (a tuple where two readings exist) and vowel markers, in order."""
    w = word.lower().replace("'", "")
    out: list[str | tuple[str, ...]] = []
    n = len(w)

    def at(offset: int) -> str:
        return w[offset] if 0 <= offset < n else ""

    i = 0
    while i < n:
        c = w[i]
        nxt = at(i + 1)
        if c in "aeiou":
            out.append(VOWEL)
        elif c == "y":
            out.append(VOWEL)  # semivowel or vowel; Devanagari य is not counted either
        elif c == "w":
            if nxt == "h":
                out.append("v")
                i += 1
            elif i == 0 and nxt == "r":
                pass  # write
            elif nxt in _VOWELS:
                out.append("v")
            else:
                out.append(VOWEL)  # new, show, down: part of a vowel
        elif c == "h":
            if nxt in _VOWELS and nxt != "y":
                out.append("h")
        elif c == "c":
            if nxt == "h":
                out.append(("c", "k"))
                i += 1
            elif nxt == "k":
                out.append("k")
                i += 1
            elif nxt in "eiy" and nxt:
                out.append("s")
            else:
                out.append("k")
        elif c == "s":
            if nxt == "h":
                out.append("s")
                i += 1
            elif w.startswith("sion", i) and i > 0:
                out.extend([("s", "j"), VOWEL, "n"])
                i += 4
                continue
            elif at(i - 1) in _VOWELS and nxt in _VOWELS and i > 0:
                out.append(("s", "j"))
            else:
                out.append("s")
        elif c == "t":
            if w.startswith("tion", i) and i > 0:
                out.extend(["s", VOWEL, "n"])
                i += 4
                continue
            if w.startswith("ture", i) and i > 0:
                out.extend(["c", VOWEL, "r"])
                i += 3  # the final e is handled as a vowel
                continue
            if nxt == "h":
                out.append(("t", "d"))
                i += 1
            elif nxt == "c" and at(i + 2) == "h":
                pass  # tch: the ch follows
            else:
                out.append("t")
        elif c == "p":
            if nxt == "h":
                out.append("f")
                i += 1
            elif i == 0 and nxt == "s":
                pass  # psychology
            else:
                out.append("p")
        elif c == "g":
            if nxt == "h":
                if i == 0:
                    out.append("g")
                i += 1  # gh inside a word is silent (flight, night)
            elif nxt in "eiy" and nxt:
                out.append(("g", "j"))
            else:
                out.append("g")
        elif c == "k":
            if i == 0 and nxt == "n":
                pass  # know
            else:
                out.append("k")
        elif c == "q":
            out.append("k")
            if nxt == "u":
                out.append("v")
                i += 1
        elif c == "x":
            out.extend(["k", "s"])
        elif c == "z" or c == "j":
            out.append("j")
        elif c == "d" and nxt == "g" and at(i + 2) in ("e", "i", "y"):
            out.append("j")
            i += 1
        elif c == "m" and nxt == "b" and i + 2 == n:
            out.append("m")
            i += 1
        elif c in "bdflmnprv":
            out.append(c)
        i += 1
    return out


def _collapse(sequence: tuple[str, ...]) -> str:
    """Drop vowel markers; the same consonant twice with no vowel between counts once."""
    key: list[str] = []
    previous = None
    for symbol in sequence:
        if symbol == VOWEL:
            previous = None
            continue
        if symbol != previous:
            key.append(symbol)
        previous = symbol
    return "".join(key)


@lru_cache(maxsize=65536)
def latin_keys(word: str) -> frozenset[str]:
    """Every reading of a Latin word's consonant key: "manager" -> {"mngr", "mnjr"}."""
    return key_readings(_latin_sequence(word), _collapse)


# --- the matcher -------------------------------------------------------------------------


@dataclass(frozen=True)
class PhoneticVerdict:
    """The matcher's answer for one pair: ``matched``, the keys, and why it (did not) match."""

    matched: bool
    reason: str
    devanagari: str = ""
    latin: str = ""
    key: str = ""

    @property
    def home(self) -> str:
        """The word in the home language's script (the matcher protocol of :mod:`.matchers`)."""
        return self.devanagari

    @property
    def second(self) -> str:
        """The word in the second language's script (Latin)."""
        return self.latin


class PhoneticMatcher:
    """Pairs a Devanagari and a Latin word by consonant key (see the module docstring).

    ``stoplist``: Devanagari words (already normalized and folded) never matched. Registered
    as the code-switch matcher ``devanagari_phonetic`` (:mod:`.matchers`); its audit records
    name the two words ``devanagari`` and ``latin``.
    """

    record_fields = ("devanagari", "latin")

    def __init__(self, stoplist: frozenset[str] | set[str] = frozenset()):
        self.stoplist = frozenset(stoplist)

    def check(self, first: str, second: str) -> PhoneticVerdict:
        """Compare two single words, in either order."""
        if is_devanagari_word(first) and is_latin_word(second):
            devanagari, latin = first, second
        elif is_latin_word(first) and is_devanagari_word(second):
            devanagari, latin = second, first
        else:
            return PhoneticVerdict(False, "needs one Devanagari and one Latin word")
        if devanagari in self.stoplist:
            return PhoneticVerdict(False, "stoplist: a native Hindi word", devanagari, latin)
        key = devanagari_key(devanagari)
        if len(key) < MIN_CONSONANTS:
            return PhoneticVerdict(False, f"fewer than {MIN_CONSONANTS} consonants ({key!r})", devanagari, latin, key)
        readings = latin_keys(latin)
        if key not in readings:
            return PhoneticVerdict(
                False, f"keys differ: {key!r} vs {'/'.join(sorted(readings))!r}", devanagari, latin, key
            )
        spelled = latin_first_vowel(latin)
        spoken = devanagari_first_vowel(devanagari)
        if spoken not in _FIRST_VOWEL_COMPATIBLE.get(spelled, set()):
            return PhoneticVerdict(
                False, f"first vowels differ: {spelled!r} vs {spoken}", devanagari, latin, key
            )
        return PhoneticVerdict(True, f"consonant key {key!r}", devanagari, latin, key)

    def could_match(self, devanagari: str) -> bool:
        """Whether some Latin word could match ``devanagari`` (not stoplisted, key long enough)."""
        return (is_devanagari_word(devanagari) and devanagari not in self.stoplist
                and len(devanagari_key(devanagari)) >= MIN_CONSONANTS)

    def match(self, first: str, second: str) -> bool:
        return self.check(first, second).matched
