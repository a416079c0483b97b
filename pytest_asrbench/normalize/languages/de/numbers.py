"""German numbers: which written ``3.`` is an ordinal (``ordinal_dots``).

German writes an ordinal as digits and a dot (``am 3. März``, ``der 2. Platz``), the very
mark that also ends a sentence (``Ich habe 3. Dann ...``). The ``punctuation`` step keeps a
dot after digits before a word (``ordinal_dot = true``); this step, listed before it, first
removes the dots that are not ordinals. A dot is an ordinal when the word after it is in
``after`` (the month names: a date) or the word before it is in ``before`` (an article or a
preposition with its article: ``der``, ``am``, ``zum`` ...), or when the number starts the
text (a heading or list item: ``1. Stock``); otherwise it ends a sentence and goes. Source:
issue 13 ("ordinals ... only where an ordinal is meant"); Duden, "Zahlen und Ziffern"
(ordinal numbers in digits take a full stop).

The spoken ordinal (``dritten``) is written ``3.`` by text2num (``spoken_numbers``), so
``am 3. März`` and ``am dritten März`` meet.
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.registry import step

# A dot after 1-3 digits, then a space and a word: (word before or start) (digits) . (word after)
_DOT = re.compile(r"(?:(?<=\s)|^)(\d{1,3})\.(?= ([^\W\d_][\w'-]*))")


class OrdinalDotOptions(StepOptions):
    """``[options.ordinal_dots]``: the words that make ``<digits>.`` an ordinal (lowercase)."""

    before: list[str] = Field(default_factory=list, description="Words before the number (der, am, zum).")
    after: list[str] = Field(default_factory=list, description="Words after the number (month names).")


@step("ordinal_dots", options=OrdinalDotOptions, idempotent=True, language="de")
def ordinal_dots(config, lexicons, options: OrdinalDotOptions):
    """Remove the dot after digits unless it marks an ordinal (module docstring).

    Input: lowercase text with its punctuation, before ``punctuation``. Output: the same text
    with the sentence-ending dots after numbers removed.
    """
    before = frozenset(options.before)
    after = frozenset(options.after)

    def decide(match: re.Match, text: str) -> str:
        start = match.start()
        previous = text[:start].rstrip().rsplit(" ", 1)[-1] if start else ""
        if start == 0 or previous in before or match.group(2) in after:
            return match.group(0)
        return match.group(1)

    def run(text: str) -> str:
        if "." not in text:
            return text
        return _DOT.sub(lambda m: decide(m, text), text)

    return run
