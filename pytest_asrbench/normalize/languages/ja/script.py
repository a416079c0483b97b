"""Japanese width folds: full-width Latin and digits are ASCII, half-width katakana is full width.

Rule: the compatibility decompositions of Unicode's Halfwidth and Fullwidth Forms block
(U+FF00..U+FFEF), i.e. NFKC applied to the characters of that block only. ``ＧＰＳ１`` =
``GPS1``, ``ｶﾞｲﾄﾞ`` = ``ガイド`` (the half-width voiced mark composes with its kana),
``ｰ`` = ``ー``. NFKC is not applied to the whole text: it would also rewrite characters
that are written on purpose and read differently (``①`` → ``1``, ``㍻`` → ``平成``, ``ゟ`` →
``より``, the spacing voiced mark ``゛`` → a space and a combining mark). Iteration marks
(``々``, ``ゝ``, ``ヽ``) and small kana (``ぁ``, ``ッ``, ``ャ``) are outside the block and stay
as written. Source: Unicode Standard, chapter 18.1 and UnicodeData.txt (``<wide>`` and
``<narrow>`` decompositions); reviewer example ＧＰＳ１ = GPS1.
"""

from __future__ import annotations

import re
import unicodedata

from pytest_asrbench.normalize.steps.registry import step

#: A run of characters of the Halfwidth and Fullwidth Forms block. A half-width voiced or
#: semi-voiced mark (U+FF9E, U+FF9F) belongs to the run of its kana, so NFKC composes them.
WIDTH_FORMS = re.compile(r"[\uff00-\uffef]+")


def fold_width(text: str) -> str:
    """``text`` with every run of width-variant characters replaced by its NFKC form."""
    if not text or max(text) < "\uff00":  # the common case: no character of the block
        return text
    return WIDTH_FORMS.sub(lambda match: unicodedata.normalize("NFKC", match.group(0)), text)


@step("ja_width", idempotent=True, language="ja",
      before={"lowercase": "full-width letters (ＧＰＳ) are lowercased once narrowed",
              "punctuation": "full-width punctuation is removed once narrowed"})
def ja_width(config, lexicons):
    """Width folds (:func:`fold_width`): ``ＧＰＳ１`` = ``GPS1``, ``ﾃﾞｰﾀ`` = ``データ``.
    Runs after ``nfc`` and before ``lowercase`` (a full-width capital becomes an ASCII
    capital first) and before ``punctuation`` (``，`` and ``．`` become ASCII)."""
    return fold_width
