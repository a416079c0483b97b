"""The loanword matcher: is a katakana or Hangul word the same name as a Latin one?

Japanese and Korean STT write an English name the speaker said in the script of the
language (Teams / チームズ / 팀즈, Outlook / アウトルック / 아웃룩, Chrome / クローム / 크롬,
Dropbox / ドロップボックス / 드롭박스, Zoom / ズーム / 줌, Figma / フィグマ / 피그마), while the
intended text keeps the Latin spelling. This matcher pairs the two the way the Hindi matcher
pairs Devanagari and Latin (:mod:`.phonetic`): both words are reduced to a *consonant key*
and the pair matches only when

1. one word is pure Latin (ASCII letters, at least :data:`MIN_LATIN_LETTERS`) and the other
   pure katakana (``katakana``) or pure Hangul syllables (``hangul``);
2. the katakana or Hangul word is not on the language's stoplist of native words with an
   English look-alike (소리/sorry, 말/mall, パン/pan: ``configs/<lang>/loanword_stoplist.tsv``);
3. the key has at least :data:`MIN_CONSONANTS` consonants. Two, not the three of Hindi: a
   katakana or Hangul rendering keeps every consonant of the name as its own letter, and the
   short names STT writes most (Zoom = ズーム = 줌, Box, Slack) have two; the stoplist is the
   guard for the native words this lets through;
4. the katakana/Hangul key equals one of the Latin key's readings;
5. the first vowels are compatible (Figma = フィグマ, Fagma ≠ フィグマ).

Key alphabet (sound classes, not letters): ``P`` (p b f v ph; パ/バ/ファ/ヴァ; ㅂ ㅃ ㅍ),
``T`` (t d; タ/ダ行 but チ ヂ ツ; ㄷ ㄸ ㅌ and a final ㅅ ㅆ ㅈ ㅊ ㅎ, which Korean loanword
spelling uses for a final t: 아웃 = out), ``K`` (k g hard c q; カ/ガ行; ㄱ ㄲ ㅋ), ``S`` (s sh
soft c th; サ行 シ; an initial ㅅ ㅆ), ``J`` (z j soft g ch; ザ行 ジ チ; ㅈ ㅉ ㅊ), ``M``, ``N``
(ン, ㄴ, a final ㅇ), ``R`` (r l; ラ行, ㄹ), ``H`` (h before a vowel; ハ ヒ ヘ ホ, ㅎ). Japanese
and Korean do not keep English's voicing contrasts apart in the way its letters do
(Dropbox = ドロップボックス, ㅂ for both p and b), so voiced and voiceless pairs share a class.
Where English spelling has two common renderings a Latin letter has two readings: s reads
S or J after the first letter (Teams = チームズ = 팀즈), t and d before an i or u sound read T
or J (チーム, ユーチューブ), ch reads J or K (Chrome = クローム), a soft g K or J, th S, T or T H
(github), ng N K or N, m before a P-class letter M or N, and an r after a vowel and before a
consonant, a silent e or the end is R or nothing (Docker = ドッカー = 도커, fire = ファイア);
-tion and -tia are S (Notion = ノーション). w, y and silent letters (gh, initial kn/ps, final
mb) are vowels or nothing. Vowels are dropped; two neighbours of one class count once *whatever stands
between them*, since katakana and Hangul add a vowel after every consonant of a cluster
(dropbox: p b are one P, and ドロップボックス's プ ボ one P too).

Near misses: a pair whose first vowels are compatible and whose keys (a reading of the
Latin word at least :data:`MIN_NEAR_KEY` long) differ by one consonant class is a *near
miss* (:func:`near_miss`): not a match; the ``loanwords`` view lists it for review and it
stays an error (no partial credit: that would need the katakana or Hangul spelling of the
English word, which the matcher does not write).

Sources: Hepburn romanization and the Japanese Cabinet notice 外来語の表記 (1991) for the
katakana of loanwords (ティ ディ ファ フィ ヴァ …); 외래어 표기법 (Korean loanword
orthography, 1986; final consonants ㄱ ㄴ ㄹ ㅁ ㅂ ㅅ ㅇ only) for Hangul; the Unicode
Standard, §3.12 (Hangul syllable decomposition by arithmetic).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from rapidfuzz.distance import Levenshtein

from pytest_asrbench.scoring.views.codeswitch.readings import key_readings

MIN_CONSONANTS = 2
MIN_LATIN_LETTERS = 3
MIN_NEAR_KEY = 4
#: How many verdicts one matcher remembers (least recently used dropped first): a pair's
#: verdict is a pure function of its two words, and names recur from turn to turn.
VERDICT_MEMO_SIZE = 1 << 16
VOWEL = "V"

# --- Latin -------------------------------------------------------------------------------

_VOWELS = set("aeiouy")
_I_SOUND = ("i", "ee", "ea", "ie", "y", "u")  # t/d before them: チ ジ, or チュ ジュ (tube)


def is_latin_word(word: str) -> bool:
    """Every character is an ASCII letter."""
    return bool(word) and word.isascii() and word.isalpha()


def _latin_sequence(word: str) -> list[tuple[str, ...] | str]:
    """Sound classes (a tuple where two readings exist) and vowel markers, in order."""
    w = word.lower()
    n = len(w)
    out: list[tuple[str, ...] | str] = []

    def at(offset: int) -> str:
        return w[offset] if 0 <= offset < n else ""

    def i_sound_after(offset: int) -> bool:
        return any(w.startswith(spelling, offset) for spelling in _I_SOUND)

    i = 0
    while i < n:
        c, nxt = w[i], at(i + 1)
        if c in "aeiouy" or c == "w":
            out.append(VOWEL)
        elif c == "h":
            if nxt in _VOWELS and nxt not in "y":
                out.append("H")
        elif c == "c":
            if nxt == "h":
                out.append(("J", "K"))
                i += 1
            elif nxt == "k":
                out.append("K")
                i += 1
            elif nxt in ("e", "i", "y"):
                out.append("S")
            else:
                out.append("K")
        elif c == "s":
            if nxt == "h":
                out.append("S")
                i += 1
            elif i == 0:
                out.append("S")
            else:
                out.append(("S", "J"))
        elif c == "t":
            if nxt == "h":
                out.append(("S", "T", "TH"))  # th, or t then h across a compound: github
                i += 1
            elif nxt == "i" and at(i + 2) in ("o", "a"):
                out.append("S")  # -tion, -tial: notion = ノーション = 노션
            elif nxt == "c" and at(i + 2) == "h":
                pass  # tch: the ch follows
            elif i_sound_after(i + 1):
                out.append(("T", "J"))
            else:
                out.append("T")
        elif c == "d":
            out.append(("T", "J") if i_sound_after(i + 1) else "T")
        elif c == "p":
            if nxt == "h":
                out.append("P")
                i += 1
            elif i == 0 and nxt == "s":
                pass  # psychology
            else:
                out.append("P")
        elif c in "bfv":
            out.append("P")
        elif c == "g":
            if nxt == "h":
                if i == 0:
                    out.append("K")
                i += 1  # gh inside a word is silent (night)
            elif nxt in ("e", "i", "y"):
                out.append(("K", "J"))
            else:
                out.append("K")
        elif c == "k":
            if not (i == 0 and nxt == "n"):
                out.append("K")  # initial kn: know
        elif c == "q":
            out.append("K")
        elif c == "x":
            out.extend(["K", "S"])
        elif c in "zj":
            out.append("J")
        elif c == "n":
            if nxt == "g" and at(i + 2) not in _VOWELS:
                out.append(("NK", "N"))  # ping = ピング = 핑
                i += 1
            else:
                out.append("N")
        elif c == "m":
            if nxt == "b" and i + 2 == n:
                out.append("M")  # final mb: climb
                i += 1
            elif nxt in "pbfv" and nxt:
                out.append(("M", "N"))
            else:
                out.append("M")
        elif c == "r" and i > 0 and at(i - 1) in _VOWELS and (
                nxt not in _VOWELS or (nxt == "e" and at(i + 2) not in _VOWELS)):
            out.append(("R", VOWEL))  # a vowel's r: docker = ドッカー = 도커, fire = ファイア; or spelled out
        elif c in "rl":
            out.append("R")
        i += 1
    return out


def _collapse(symbols) -> str:
    """Drop vowel markers; neighbours of one class count once, whatever vowel stood between."""
    key: list[str] = []
    for symbol in symbols:
        for letter in symbol:
            if letter == VOWEL:
                continue
            if not key or key[-1] != letter:
                key.append(letter)
    return "".join(key)


@lru_cache(maxsize=65536)
def latin_keys(word: str) -> frozenset[str]:
    """Every reading of a Latin word's key: ``"teams"`` -> ``{"TMS", "TMJ", "JMS", "JMJ"}``."""
    return key_readings(_latin_sequence(word), _collapse)


_LATIN_FIRST_VOWEL = {
    # Latin first-vowel spelling -> the vowel classes (A I U E O) a rendering may use.
    "a": {"A", "E", "O"},
    "e": {"E", "I", "A"},
    "i": {"I", "A"},
    "o": {"O", "A", "U"},
    "u": {"U", "A", "O"},
    "y": {"A", "I"},
    "ea": {"I", "E"},
    "ee": {"I"},
    "ie": {"I", "A"},
    "ai": {"E", "A"},
    "ay": {"E", "A"},
    "au": {"O", "A"},
    "aw": {"O", "A"},
    "oa": {"O"},
    "oo": {"U", "O"},
    "ou": {"A", "U", "O"},
    "ow": {"A", "O"},
    "oi": {"O"},
    "oy": {"O"},
    "ei": {"E", "I", "A"},
    "ey": {"E", "I", "A"},
    "ue": {"U", "I"},
    "ui": {"U", "I"},
    "eu": {"U", "I"},
    "ew": {"U"},
}


def latin_first_vowel(word: str) -> tuple[str, int]:
    """The spelling of the first vowel and how many consonant letters come before it."""
    letters = word.lower()
    index = 0
    if letters.startswith("y") and len(letters) > 1 and letters[1] in "aeiou":
        index = 1
    while index < len(letters) and letters[index] not in _VOWELS:
        index += 1
    if index >= len(letters):
        return "", index
    pair = letters[index: index + 2]
    return (pair if pair in _LATIN_FIRST_VOWEL else letters[index]), index


def _leading_consonants(word: str) -> int:
    """How many sound classes stand before the Latin word's first vowel (chrome: K R = 2)."""
    count = 0
    for item in _latin_sequence(word):
        if item == VOWEL:
            break
        count += 1
    return count


# --- katakana ----------------------------------------------------------------------------

_KANA_ROWS = {
    "K": "カキクケコガギグゲゴヵヶ",
    "S": "サスセソシ",
    "J": "ザズゼゾジチヂヅ",
    "T": "タテトダデド",
    "N": "ナニヌネノン",
    "H": "ハヒヘホ",
    "P": "フバビブベボパピプペポヴ",
    "M": "マミムメモ",
    "R": "ラリルレロ",
}
_KANA_CLASS = {kana: symbol for symbol, row in _KANA_ROWS.items() for kana in row}
_KANA_CLASS["ツ"] = "TS"  # tsu: cats = キャッツ
_KANA_VOWEL = {}
for _row, _vowel in (("アカサタナハマヤラワガザダバパャァ", "A"), ("イキシチニヒミリギジヂビピィヰ", "I"),
                     ("ウクスツヌフムユルグズヅブプュゥヴ", "U"), ("エケセテネヘメレゲゼデベペェヱ", "E"),
                     ("オコソトノホモヨロヲゴゾドボポョォ", "O")):
    _KANA_VOWEL.update({kana: _vowel for kana in _row})
_SMALL_VOWELS = set("ァィゥェォャュョヮ")
_SILENT_KANA = set("ッー・ヽヾ")


def is_katakana_word(word: str) -> bool:
    """Every character is a katakana letter, the long-vowel mark or a small kana (U+30A1-30FC)."""
    return bool(word) and all("\u30a1" <= char <= "\u30fa" or char == "\u30fc" for char in word)


@lru_cache(maxsize=65536)
def katakana_key(word: str) -> str:
    """The key of a katakana word: チームズ -> ``"JMJ"``, ドロップボックス -> ``"TRPKS"``."""
    return _collapse(_KANA_CLASS.get(char, VOWEL) for char in word)


def _katakana_morae(word: str) -> list[tuple[str, str]]:
    """``(class, vowel)`` per mora: a small vowel after a kana replaces its vowel (フィ = fi)."""
    morae: list[tuple[str, str]] = []
    for char in word:
        if char in _SMALL_VOWELS and morae:
            morae[-1] = (morae[-1][0], _KANA_VOWEL.get(char, morae[-1][1]))
        elif char in _KANA_VOWEL:
            morae.append((_KANA_CLASS.get(char, ""), _KANA_VOWEL[char]))
        elif char in _SMALL_VOWELS:
            morae.append(("", _KANA_VOWEL.get(char, "")))
    return morae


def katakana_first_vowel(word: str, cluster: int) -> str:
    """The first vowel of a rendering, past the vowels katakana adds to a Latin word's initial
    consonant cluster of ``cluster`` consonants (クローム: ク's u is added, ロ's o is the vowel)."""
    morae = _katakana_morae(word)
    skip = max(cluster - 1, 0)
    index = 0
    while skip and index < len(morae) - 1 and morae[index][1] in ("U", "O") and morae[index][0]:
        index += 1
        skip -= 1
    return morae[index][1] if morae else ""


# --- Hangul ------------------------------------------------------------------------------

_HANGUL_BASE = 0xAC00
_HANGUL_LAST = 0xD7A3
# Initial consonants in Unicode order: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ.
_INITIALS = ("K", "K", "N", "T", "T", "R", "M", "P", "P", "S", "S", "", "J", "J", "J", "K", "T", "P", "H")
# Final consonants in Unicode order (index 0: none): loanword spelling writes a final t as ㅅ.
_FINALS = ("", "K", "K", "KS", "N", "NJ", "N", "T", "R", "RK", "RM", "RP", "RS", "RT", "RP", "R",
           "M", "P", "PS", "T", "T", "N", "T", "T", "K", "T", "P", "T")
# Medial vowels in Unicode order: ㅏ ㅐ ㅑ ㅒ ㅓ ㅔ ㅕ ㅖ ㅗ ㅘ ㅙ ㅚ ㅛ ㅜ ㅝ ㅞ ㅟ ㅠ ㅡ ㅢ ㅣ.
# ㅓ (eo) renders English's a, e, i, o and u alike (업 up, 서버 server, 퍼스트 first): any class.
_MEDIALS = ("A", "E", "A", "E", "*", "E", "*", "E", "O", "A", "E", "E", "O", "U", "O", "E", "I", "U", "-", "I", "I")


def is_hangul_word(word: str) -> bool:
    """Every character is a precomposed Hangul syllable (U+AC00-D7A3)."""
    return bool(word) and all(_HANGUL_BASE <= ord(char) <= _HANGUL_LAST for char in word)


def _decompose(char: str) -> tuple[int, int, int]:
    offset = ord(char) - _HANGUL_BASE
    return offset // (21 * 28), (offset // 28) % 21, offset % 28


@lru_cache(maxsize=65536)
def hangul_key(word: str) -> str:
    """The key of a Hangul word: 드롭박스 -> ``"TRPKS"``, 아웃룩 -> ``"TRK"``, 줌 -> ``"JM"``."""
    symbols: list[str] = []
    for char in word:
        initial, _, final = _decompose(char)
        symbols.append(_INITIALS[initial] or VOWEL)
        symbols.append(VOWEL)
        symbols.append(_FINALS[final] or VOWEL)
    return _collapse(symbols)


def hangul_first_vowel(word: str) -> str:
    """The first vowel class, past ㅡ (the vowel Korean adds to a consonant cluster: 크롬)."""
    for char in word:
        vowel = _MEDIALS[_decompose(char)[1]]
        if vowel != "-":
            return vowel
    return ""


# --- the matcher -------------------------------------------------------------------------


@dataclass(frozen=True)
class LoanwordVerdict:
    """The matcher's answer for one pair: ``matched``, the words, the key and the reason.

    ``distance`` is the number of consonant classes that differ (0 for a match; 1 for a
    near miss, see :func:`near_miss`; ``None`` when the keys were not compared).
    """

    matched: bool
    reason: str
    script_word: str = ""
    latin: str = ""
    key: str = ""
    distance: int | None = None


@dataclass(frozen=True)
class _Script:
    name: str
    is_word: object
    key: object
    first_vowel: object
    letters: re.Pattern  # finds a letter of the script in a text


_SCRIPTS = {
    "katakana": _Script("katakana", is_katakana_word, katakana_key, katakana_first_vowel,
                        re.compile("[\u30a1-\u30fa\u30fc]")),
    "hangul": _Script("hangul", is_hangul_word, hangul_key, lambda word, cluster: hangul_first_vowel(word),
                      re.compile("[\uac00-\ud7a3]")),
}

#: The scripts a config may name in ``loanword_matcher``.
MATCHER_SCRIPTS = tuple(sorted(_SCRIPTS))


class LoanwordMatcher:
    """Pairs a katakana or Hangul word with a Latin word by key (see the module docstring).

    ``script``: ``"katakana"`` or ``"hangul"``; ``stoplist``: words of that script (already
    normalized) never matched.

    Raises:
        ValueError: an unknown ``script`` (the message lists :data:`MATCHER_SCRIPTS`).
    """

    def __init__(self, script: str, stoplist: frozenset[str] | set[str] = frozenset()):
        if script not in _SCRIPTS:
            raise ValueError(f"unknown loanword matcher {script!r}; known: {', '.join(MATCHER_SCRIPTS)}")
        self.script = _SCRIPTS[script]
        self.stoplist = frozenset(stoplist)
        #: ``check``'s verdicts, memoized per word pair and bounded (:data:`VERDICT_MEMO_SIZE`).
        self.verdicts = lru_cache(maxsize=VERDICT_MEMO_SIZE)(self._check)

    def is_script_word(self, word: str) -> bool:
        """Whether ``word`` is written wholly in the matcher's script."""
        return self.script.is_word(word)

    def check(self, latin: str, script_word: str) -> LoanwordVerdict:
        """Compare a Latin word with a katakana or Hangul word (both normalized, single words).
        Verdicts are memoized per pair, at most :data:`VERDICT_MEMO_SIZE` of them."""
        return self.verdicts(latin, script_word)

    def _check(self, latin: str, script_word: str) -> LoanwordVerdict:
        if not is_latin_word(latin) or not self.script.is_word(script_word):
            return LoanwordVerdict(False, f"needs one Latin and one {self.script.name} word")
        if len(latin) < MIN_LATIN_LETTERS:
            return LoanwordVerdict(False, f"fewer than {MIN_LATIN_LETTERS} Latin letters", script_word, latin)
        if script_word in self.stoplist:
            return LoanwordVerdict(False, "stoplist: a native word", script_word, latin)
        key = self.script.key(script_word)
        if len(key) < MIN_CONSONANTS:
            return LoanwordVerdict(False, f"fewer than {MIN_CONSONANTS} consonants ({key!r})", script_word, latin, key)
        spelled, _ = latin_first_vowel(latin)
        rendered = self.script.first_vowel(script_word, _leading_consonants(latin))
        if rendered != "*" and rendered not in _LATIN_FIRST_VOWEL.get(spelled, set()):
            return LoanwordVerdict(False, f"first vowels differ ({spelled!r} vs {rendered!r})", script_word, latin, key)
        readings = latin_keys(latin)
        if key in readings:
            return LoanwordVerdict(True, "consonant keys equal", script_word, latin, key, 0)
        distance = min(Levenshtein.distance(key, reading) for reading in readings) if readings else len(key)
        return LoanwordVerdict(False, f"keys differ: {key!r} vs {'/'.join(sorted(readings))!r}",
                               script_word, latin, key, distance)


def near_miss(verdict: LoanwordVerdict) -> bool:
    """A verdict that failed on one consonant class only, with keys long enough to tell
    (at least :data:`MIN_NEAR_KEY`): Confluence / コンフュエンス (``KNPRNS`` vs ``KNPNS``)."""
    return (not verdict.matched and verdict.distance == 1 and len(verdict.key) >= MIN_NEAR_KEY - 1
            and any(len(reading) >= MIN_NEAR_KEY for reading in latin_keys(verdict.latin)))
