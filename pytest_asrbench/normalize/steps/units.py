"""Units of measure next to a number: one written form for the abbreviation and the name.

Source: reviewer reports ("10 mm" lost its unit, because "mm" is also a filler; "10 mm" = "ten
millimetres" was scored as an error). The step is generic; the units are data:

- lexicon ``units``: every written or spoken form of a unit (abbreviation, singular and
  plural name, several words allowed: "km/h", "degrees c") -> the one form written out
  (en: the plural spoken name, "millimeters"; hi: the Devanagari name, "किलोमीटर");
- ``[options.units] number_words``, and the keys of the config's ``numbers`` lexicon if it
  has one (hi): words that count as a number right before a unit when the step runs
  before the number-word step (en runs it before ``fillers_any_case``, so a
  unit that is also a filler is rewritten first: "ten mm" = "10 mm" = "10 millimeters",
  while a lone "mm" is still a filler).

A form is rewritten only right after a number (digits, a decimal "2.5", or one of the
``number_words``): "a kilometer away" and "the GB team" keep their words. A unit glued to
its number is split first ("10mm", "5GB", "2.5kg", hi "25%"): that split is limited to
forms without digits after the number, so a code such as "A4" or "B12" is never touched. Matching ignores case ("GB" =
"gb"); the lexicon decides the ambiguous ones (en leaves out "m", "g" and "in").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.phrases import PhraseTable, folded_tokens, trie_pattern
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*")


def _split_glued(match: re.Match) -> str:
    """"10mm" -> "10 mm" (a function, not a "\\1 \\2" template: re parses a template on every call)."""
    return f"{match[1]} {match[2]}"


def glued_test(forms: list[str]) -> Callable[[str], bool]:
    """A test true for every text where a digit is followed by a first character of one of
    ``forms``, ignoring case as ``re.IGNORECASE`` does: the only texts the glued split can change.

    In ASCII text the digits are 0-9, so there the test is a plain class of the ASCII
    characters that the class ignoring case matches (listed once: "k" brings "K", and so does
    the Kelvin sign), which ``re`` scans faster; other text gets the pattern ignoring case.
    """
    first = f"[{re.escape(''.join(sorted({form[0] for form in forms})))}]"
    any_case = re.compile(rf"\d{first}", re.IGNORECASE).search
    cases = re.findall(first, "".join(map(chr, range(128))), re.IGNORECASE)
    if not cases:
        return lambda text: not text.isascii() and any_case(text) is not None
    ascii_search = re.compile(rf"[0-9][{re.escape(''.join(cases))}]").search
    return lambda text: (ascii_search(text) if text.isascii() else any_case(text)) is not None


class UnitOptions(StepOptions):
    """``[options.units]``: words that count as a number before a unit."""

    number_words: list[str] = Field(default_factory=list, description="Number words that may stand right before "
                                                                      "a unit ('ten', 'half'); digits always do.")


@step("units", idempotent=True, options=UnitOptions,
      before={"fillers": "10 mm is millimetres: a filler step would remove the mm"})
def units(config, lexicons, options: UnitOptions):
    """Rewrite a unit right after a number to its one written form (module docstring); reads
    the ``units`` lexicon and the shared ``char_folds``.

    Raises:
        ConfigError: the lexicon is missing, or two keys fold together with different values.
    """
    fold = make_fold(config.char_folds)
    table = PhraseTable(require_lexicon(lexicons, "units", "units"), fold, f"{config.language} units lexicon")
    spoken = [*options.number_words, *lexicons.get("numbers", {})]
    number_words = frozenset(fold(word.casefold()) for word in spoken)
    single = sorted((phrase[0] for phrase in table.values if len(phrase) == 1 and not any(char.isdigit() for char in phrase[0])),
                    key=len, reverse=True)
    glued = (re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)({trie_pattern(single)})(?![\w'])", re.IGNORECASE)
             if single else None)
    may_be_glued = glued_test(single) if single else None

    def is_number(token: str, folded: str) -> bool:
        return folded in number_words or bool(_NUMBER.fullmatch(token))

    def run(text: str) -> str:
        if may_be_glued is not None and may_be_glued(text):
            text = glued.sub(_split_glued, text)
        # The text has been through char_folds (the step is listed after it), so its
        # words meet the folded keys without folding again.
        if not table.first_word_search(text):
            return text
        tokens = text.split()
        folded = folded_tokens(text, tokens, fold)
        out: list[str] = []
        index, count = 0, len(tokens)
        while index < count:
            found = table.match(folded, index) if index and is_number(tokens[index - 1], folded[index - 1]) else None
            if found is None:
                out.append(tokens[index])
                index += 1
                continue
            out.append(table.values[found[0]])
            index += found[1]
        joined = " ".join(out)
        # The same object when nothing changed: the pipeline then skips a repeated
        # idempotent step (number_formats) after this one.
        return text if joined == text else joined

    return run
