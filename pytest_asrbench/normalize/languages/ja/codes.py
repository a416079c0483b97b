"""Japanese spelled codes: letters and digits said in katakana or kana become the code.

Japanese speakers spell a code (an order number, a ticket key, a product code) letter by
letter in katakana names (イー・エム・ピー) and digit by digit in kana or kanji (さん, 三,
ゼロ, マル), and the ASR writes either that or the code itself. Source: the original requirements'
"Japanese" section (イー・エム・ピー、さん = EMP3; 三、一、八、五、ゼロ、四 = 318504) and
Japanese reviewers. Only runs of two or more code tokens are codes, so single ordinary words stay
(エース, ビーフ, ワイシャツ do not even split into letter names; アイ alone is a word).

Code tokens (tables ``code_letters`` and ``code_digits`` in ``configs/ja/``):

- a whole katakana word (no katakana right before or after it) that splits completely into
  letter names and katakana digit readings, with at least one letter name: イーエムピー is
  three tokens (e, m, p). A word that is one letter name said twice (ワイワイ, ピーピー) is
  an onomatopoeia and stays; spaced or dotted (ピー・ピー) it is a code;
- a katakana digit reading alone (ゼロ, マル, サン);
- a run of kanji digits with no kanji next to it (三, 〇三); three or more of them are a
  digit string on their own (〇三一二三四 = 031234), a pair alone is not (二三 may be "two
  or three"); positional numerals (三百) belong to :mod:`.numbers`;
- an ASCII run of letters and digits (emp, 3);
- a hiragana digit reading (さん, いち, ぜろ), only as a word of its own: after a separator
  (a space: the ``punctuation`` step has made 、 and ・ spaces) or at the start, and followed
  by a space, the end or a particle (:data:`PARTICLES`):
  イー・エム・ピー、さんです is emp3です, エムさん ("Mr M") stays.

A digit (ASCII or kanji) with a kanji or a counter right after it is no code token: 3年,
三つ and 3ページ are numbers with their counters (:mod:`.numbers`). Tokens follow each other directly or with spaces between them. The run becomes the letters
and digits joined (``emp3``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial

from pytest_asrbench.normalize.steps.registry import require_lexicon, step

KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff"  # katakana letters, ー and the iteration marks (not ・)
HIRAGANA = "\u3041-\u309f"
#: Kanji (CJK unified ideographs and extension A), 々 and 〇: a kanji digit next to one of
#: these is part of a word or a positional numeral, not a spelled digit.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\u3005\u3007"
#: Particles and the copula that may follow the last spelled hiragana digit (さんです).
PARTICLES = ("です", "でした", "で", "の", "は", "を", "が", "と", "も", "まで", "から", "ね", "よ")

# Maximal runs: scanning left to right, a run is always matched from its first character.
_KATAKANA_WORD = rf"[{KATAKANA}]+"
_GAP = re.compile(r" *")
_KATAKANA_GROUP = re.compile(rf"[{KATAKANA}]+(?: +[{KATAKANA}]+)+")


@dataclass(frozen=True)
class Token:
    """One candidate code token: where it is, what it spells, how many code tokens it is."""

    start: int
    end: int
    value: str
    count: int
    hiragana: bool = False


def _split(word: str, names: Mapping[str, str]) -> tuple[str, ...] | None:
    """The values of ``word`` split completely into ``names`` (longest name first at each
    position, backtracking when the rest does not split), or ``None``."""
    longest = max(map(len, names))
    dead: set[int] = set()

    def split_from(position: int) -> list[str] | None:
        if position == len(word):
            return []
        if position in dead:
            return None
        for size in range(min(longest, len(word) - position), 0, -1):
            piece = word[position:position + size]
            if piece in names:
                rest = split_from(position + size)
                if rest is not None:
                    return [piece, *rest]
        dead.add(position)
        return None

    pieces = split_from(0)
    return None if pieces is None else tuple(pieces)


class CodeReader:
    """Finds and rewrites spelled codes with one language's letter and digit tables."""

    def __init__(self, letters: Mapping[str, str], digits: Mapping[str, str], counters: Iterable[str] = ()):
        self.letters = dict(letters)
        self.kana_digits = {k: v for k, v in digits.items() if re.fullmatch(f"[{KATAKANA}]+", k)}
        self.hiragana_digits = {k: v for k, v in digits.items() if re.fullmatch(f"[{HIRAGANA}]+", k)}
        self.kanji_digits = {k: v for k, v in digits.items() if len(k) == 1 and re.fullmatch(f"[{HAN}]", k)}
        self.katakana_names = {**self.kana_digits, **self.letters}
        # katakana word -> its split; words recur (product names), so splits are cached (bounded)
        self._split = lru_cache(maxsize=2**16)(partial(_split, names=self.katakana_names))
        hira = "|".join(sorted(map(re.escape, self.hiragana_digits), key=len, reverse=True))
        particles = "|".join(PARTICLES)
        kanji = "".join(self.kanji_digits)
        # A digit with a counter after it (3年, 三つ, 3ページ) is a number, not a code token.
        counted = "|".join(sorted(map(re.escape, counters), key=len, reverse=True))
        no_counter = f"(?!{counted})" if counted else ""
        self.pattern = re.compile(
            rf"(?P<kata>{_KATAKANA_WORD})|(?P<ascii>[A-Za-z0-9]+(?![A-Za-z0-9]){no_counter})"
            rf"|(?P<kanji>(?<![{HAN}])[{kanji}]+(?![{HAN}]){no_counter})"
            rf"|(?P<hira>(?<![^ ])(?:{hira})(?=$| |{particles}))")

    def _token(self, match: re.Match) -> Token | None:
        text, start, end = match.group(0), match.start(), match.end()
        if match.lastgroup == "ascii":
            return Token(start, end, text, 1)
        if match.lastgroup == "kanji":
            # Three or more kanji digits are a digit string on their own (〇三一二); a pair
            # alone may be a range (二三 "two or three"), so it needs a neighbour token.
            return Token(start, end, "".join(self.kanji_digits[c] for c in text), len(text) if len(text) > 2 else 1)
        if match.lastgroup == "hira":
            return Token(start, end, self.hiragana_digits[text], 1, hiragana=True)
        if text in self.kana_digits:
            return Token(start, end, self.kana_digits[text], 1)
        pieces = self._split(text)
        if not pieces or not any(piece in self.letters for piece in pieces):
            return None
        if len(set(pieces)) == 1 and len(pieces) > 1:
            return None  # ワイワイ, ピーピー: one name repeated in one word is an onomatopoeia
        return Token(start, end, "".join(self.katakana_names[p] for p in pieces), len(pieces))

    def _splits_as_code(self, word: str) -> bool:
        pieces = self._split(word)
        return bool(pieces) and any(p in self.letters for p in pieces) and len(set(pieces)) > 1

    def _merge_broken_words(self, match: re.Match) -> str:
        """Katakana words with spaces between them, one of which is no code token alone,
        are read as one word when together they spell a code (イー エ ム is イーエム): the
        space fell inside a letter name. So a second pass, which sees the words joined
        (``remove_spaces``), reads them as the first did."""
        words = match.group(0).split()
        joined = "".join(words)
        if self._splits_as_code(joined) and not all(
                word in self.kana_digits or self._splits_as_code(word) or word in self.letters for word in words):
            return joined
        return match.group(0)

    def _runs(self, text: str) -> list[list[Token]]:
        runs: list[list[Token]] = []
        current: list[Token] = []
        for match in self.pattern.finditer(text):
            token = self._token(match)
            if token is None:
                if current:
                    runs.append(current)
                current = []
                continue
            if current:
                gap = text[current[-1].end:token.start]
                spaced = bool(gap)
                joins = _GAP.fullmatch(gap) is not None and (spaced or not (token.hiragana or current[-1].hiragana))
                if not joins:
                    runs.append(current)
                    current = []
            current.append(token)
        if current:
            runs.append(current)
        return runs

    def __call__(self, text: str) -> str:
        text = _KATAKANA_GROUP.sub(self._merge_broken_words, text)
        pieces: list[str] = []
        position = 0
        for run in self._runs(text):
            if sum(token.count for token in run) < 2 or all(t.value == text[t.start:t.end] for t in run):
                continue
            pieces.append(text[position:run[0].start])
            pieces.append("".join(token.value for token in run))
            position = run[-1].end
        pieces.append(text[position:])
        return "".join(pieces)


@step("ja_codes", language="ja", after={"ja_loanwords": "a loanword (ジラ) is no code"})
def ja_codes(config, lexicons):
    """Spelled codes (:class:`CodeReader`): ``イー エム ピー さん`` -> ``emp3``, ``三 一 八 五
    ゼロ 四`` -> ``318504``; single words stay. Reads the lexicons ``code_letters``,
    ``code_digits`` and ``counters`` (a digit before a counter is a number, not a code). Runs after ``lowercase`` and ``punctuation`` (、 and ・ are spaces
    then) and before ``ja_numbers`` and ``remove_spaces``."""
    reader = CodeReader(require_lexicon(lexicons, "code_letters", "ja_codes"),
                        require_lexicon(lexicons, "code_digits", "ja_codes"),
                        require_lexicon(lexicons, "counters", "ja_codes"))
    return lambda text: reader(text) if text else text
