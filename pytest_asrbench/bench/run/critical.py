"""Critical tokens: the spans whose wrong transcription costs most, counted on their own.

The Mandarin protocol's "numbers, dates, addresses, IDs, currency, URLs" slice asks for
critical-token errors with no automatic normalisation: one wrong digit in a phone number is
a failed token even when the utterance's CER is low. Four categories, matched in this order
(a span matched by one is not matched again):

- ``date``: ``2026-03-05``, ``2026/3/5``, ``2026年3月5日``, ``3月5日``;
- ``code``: letters and digits mixed, or alphanumeric runs joined by ``- _ . / :``
  (``A3``, ``MSK-2041``, ``v1.2``, ``example.com``);
- ``latin``: a Latin-letter word (``GitHub``, ``Confluence``, ``C++``);
- ``digits``: a number (``2026``, ``3.5``, ``1,000``).

In a language written in Latin letters (:data:`LATIN_SCRIPT_LANGUAGES`) every word would be a
``latin`` token, so there the category is not counted (:func:`categories_for`); dates, codes
and digits are.

Both sides are folded first: full-width ASCII to half-width (U+FF01..U+FF5E, the ideographic
space) and Latin case. A reference token fails when the hypothesis holds fewer tokens of the
same category with the same folded text (multiset difference), so ``2026`` heard as
``二零二六`` fails, as the protocol wants (numerals are not converted).
"""

from __future__ import annotations

import re
from collections import Counter

CATEGORIES = ("date", "code", "latin", "digits")
#: Shipped languages written in Latin letters: a Latin word is no critical token there.
LATIN_SCRIPT_LANGUAGES = frozenset({"en", "de", "nl", "fr", "es", "it"})


def categories_for(language: str) -> tuple[str, ...]:
    """The categories counted for ``language`` (a config tag): all but ``latin`` in a
    language of :data:`LATIN_SCRIPT_LANGUAGES`."""
    if language.split("-")[0].split("_")[0] in LATIN_SCRIPT_LANGUAGES:
        return tuple(c for c in CATEGORIES if c != "latin")
    return CATEGORIES
_PATTERNS = {
    "date": r"\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?|\d{1,2}\s*月\s*\d{1,2}\s*日",
    # not a plain number (3.5 is digits); a joined run first, so v1.2 is one token
    "code": r"(?!\d+(?:[.,]\d+)*(?![a-z\d_/:-]))(?:[a-z\d]+(?:[-_./:][a-z\d]+)+|[a-z]+\d[a-z\d]*|\d+[a-z][a-z\d]*)",
    "latin": r"[a-z]+(?:['+#]+[a-z]*)*\+*",
    "digits": r"\d+(?:[.,]\d+)*",
}
_TOKEN = re.compile("|".join(f"(?P<{name}>{_PATTERNS[name]})" for name in CATEGORIES), re.ASCII)


def fold(text: str) -> str:
    """Full-width ASCII and the ideographic space to half-width, then Latin case folded."""
    out = []
    for char in text:
        code = ord(char)
        if 0xFF01 <= code <= 0xFF5E:
            char = chr(code - 0xFEE0)
        elif code == 0x3000:
            char = " "
        out.append(char)
    return "".join(out).lower()


def critical_tokens(text: str) -> list[tuple[str, str]]:
    """``[(category, folded token)]`` of ``text`` in order."""
    return [(match.lastgroup, match.group()) for match in _TOKEN.finditer(fold(text))]


def token_failures(reference: str, hypothesis: str, categories: tuple[str, ...] = CATEGORIES) -> dict[str, dict]:
    """``{category: {"total": n, "failed": k, "tokens": [failed tokens]}}`` of one pair, for
    the ``categories`` present in the reference."""
    wanted = Counter(t for t in critical_tokens(reference) if t[0] in categories)
    heard = Counter(critical_tokens(hypothesis))
    out: dict[str, dict] = {}
    for (category, token), count in wanted.items():
        entry = out.setdefault(category, {"total": 0, "failed": 0, "tokens": []})
        entry["total"] += count
        missed = max(0, count - heard.get((category, token), 0))
        entry["failed"] += missed
        entry["tokens"].extend([token] * missed)
    return out


def sum_failures(items, categories: tuple[str, ...] = CATEGORIES) -> dict[str, dict[str, int]]:
    """``{category: {"total", "failed"}}`` over pairs (every category of ``categories``
    listed, zeros included)."""
    totals = {category: {"total": 0, "failed": 0} for category in categories}
    for item in items:
        for category, entry in item.items():
            totals[category]["total"] += entry["total"]
            totals[category]["failed"] += entry["failed"]
    return totals
