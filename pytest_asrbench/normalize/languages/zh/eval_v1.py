"""The steps of zh-eval-v1, the frozen text cleaning of the Mandarin evaluation protocol.

Source: the Mandarin evaluation protocol (its "Scorer and dataset contract"). The
protocol's views read these steps through the profiles ``eval_v1_punct``, ``eval_v1`` and
``eval_v1_script_<script>`` of ``configs/zh.toml``:

1. ``zh_eval_v1_nfc``: Unicode NFC (canonical composition only; never NFKC, which would also
   rewrite circled digits, compatibility ideographs, superscripts and ligatures);
2. ``zh_eval_v1_width``: the explicit table :data:`WIDTH_FOLDS`, nothing else:
   U+FF01..U+FF5E (full-width ``！`` .. ``～``) to U+0021..U+007E (``!`` .. ``~``), the
   ideographic space U+3000 to U+0020, and the full-width signs U+FFE0..U+FFE6
   (``￠￡￢￣￤￥￦``) to ``¢ £ ¬ ¯ ¦ ¥ ₩``. CJK punctuation (``。、「」《》``) is not a
   width form and stays;
3. ``zh_eval_v1_latin_case``: letters of the Latin script lowercased (``str.lower``, letter
   by letter, so ``ＡＰＰ`` -> ``APP`` -> ``app``); other scripts are untouched;
4. ``zh_eval_v1_whitespace``: every whitespace character removed (``str.isspace``);
5. ``zh_eval_v1_punctuation``: every character of a Unicode punctuation category (``P*``)
   removed, except the signs :data:`SPOKEN_SIGNS` (``% ‰ ‱ # & @``: Unicode files them as
   punctuation, but they are read aloud, 百分之, 井号, ...); symbols (``+ ¥ $ =``, category
   ``S*``) and digits stay.

Numerals are not converted, and the text is measured in code points, not words.

:data:`PROTOCOL` registers the protocol (:mod:`pytest_asrbench.normalize.protocols`) with the
frozen step list of each profile; a config whose profiles differ is refused by name.
Frozen: a change is a new protocol (zh-eval-v2, steps ``zh_eval_v2_*``, profiles
``eval_v2*``), never an edit of these steps or of the v1 profiles;
``tests/test_zh_eval_v1.py`` pins a golden table of pairs and their four rates.
"""

from __future__ import annotations

import unicodedata

import regex

from pytest_asrbench.normalize.protocols import EvalProtocol, register_protocol
from pytest_asrbench.normalize.steps.registry import step

#: The protocol's published name.
NAME = "zh-eval-v1"
#: The frozen step list of each profile of zh-eval-v1 (``configs/zh.toml`` must define them so).
_CLEANING = ("zh_eval_v1_nfc", "zh_eval_v1_width", "zh_eval_v1_latin_case", "zh_eval_v1_whitespace")
_NORMALIZED = (*_CLEANING, "zh_eval_v1_punctuation")
#: zh-eval-v1 as registered: the views' profiles, the scripts in tie-break order (Simplified first).
PROTOCOL = register_protocol(EvalProtocol(
    name=NAME,
    language="zh",
    punct_profile="eval_v1_punct",
    normalized_profile="eval_v1",
    script_profiles=(("simplified", "eval_v1_script_simplified"), ("traditional", "eval_v1_script_traditional")),
    steps={
        "eval_v1_punct": _CLEANING,
        "eval_v1": _NORMALIZED,
        "eval_v1_script_simplified": (*_NORMALIZED, "zh_eval_v1_to_simplified"),
        "eval_v1_script_traditional": (*_NORMALIZED, "zh_eval_v1_to_traditional"),
    },
))


def _width_folds() -> dict[int, str]:
    folds = {code: chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5E + 1)}
    folds[0x3000] = " "
    folds.update({0xFFE0: "\u00a2", 0xFFE1: "\u00a3", 0xFFE2: "\u00ac", 0xFFE3: "\u00af",
                  0xFFE4: "\u00a6", 0xFFE5: "\u00a5", 0xFFE6: "\u20a9"})
    return folds


#: ``{code point: half-width text}``: the whole width table of zh-eval-v1 (102 entries), a
#: ``str.translate`` table.
WIDTH_FOLDS: dict[int, str] = _width_folds()

#: Characters of a punctuation category that zh-eval-v1 keeps: they stand for spoken words.
SPOKEN_SIGNS = "%\u2030\u2031#&@"

_LATIN = regex.compile(r"\p{Script=Latin}+")
_PUNCTUATION = regex.compile(r"[\p{P}--[" + regex.escape(SPOKEN_SIGNS) + r"]]+", regex.VERSION1)


def fold_width(text: str) -> str:
    """``text`` with every code point of :data:`WIDTH_FOLDS` replaced by its half-width form."""
    return text.translate(WIDTH_FOLDS)


def fold_latin_case(text: str) -> str:
    """``text`` with its Latin-script letters lowercased; Han, kana, Greek ... untouched."""
    return _LATIN.sub(lambda match: match.group().lower(), text)


def remove_whitespace(text: str) -> str:
    """``text`` without any whitespace character (``str.isspace``: spaces, tabs, U+3000 ...)."""
    return "".join(text.split())


def remove_punctuation(text: str) -> str:
    """``text`` without characters of the Unicode punctuation categories (``Pc Pd Ps Pe Pi Pf Po``)
    other than :data:`SPOKEN_SIGNS`."""
    return _PUNCTUATION.sub("", text)


@step("zh_eval_v1_nfc", language="zh", idempotent=True)
def zh_eval_v1_nfc(config, lexicons):
    """Unicode NFC (``unicodedata.normalize("NFC", text)``)."""
    return lambda text: unicodedata.normalize("NFC", text)


@step("zh_eval_v1_width", language="zh", idempotent=True)
def zh_eval_v1_width(config, lexicons):
    """Full-width to half-width by :data:`WIDTH_FOLDS` only."""
    return fold_width


@step("zh_eval_v1_latin_case", language="zh", idempotent=True)
def zh_eval_v1_latin_case(config, lexicons):
    """Latin letters lowercased (:func:`fold_latin_case`)."""
    return fold_latin_case


@step("zh_eval_v1_whitespace", language="zh", idempotent=True)
def zh_eval_v1_whitespace(config, lexicons):
    """Every whitespace character removed (:func:`remove_whitespace`)."""
    return remove_whitespace


@step("zh_eval_v1_punctuation", language="zh", idempotent=True)
def zh_eval_v1_punctuation(config, lexicons):
    """Every Unicode punctuation character removed (:func:`remove_punctuation`)."""
    return remove_punctuation
