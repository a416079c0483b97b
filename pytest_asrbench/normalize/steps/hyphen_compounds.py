"""Join hyphenated compounds into their closed form (the ``hyphen_compounds`` step).

Source: the seed's reviewer examples. A TTS voice says "Anmelde-Konto" as one word and the
STT writes "Anmeldekonto"; Hindi writers use both ई-मेल and ईमेल. Counting the two
spellings as two errors is a normalizer fault, not a recognition error.

The hyphen is kept (the word is left alone) when joining would lose information:

- next to a number: a digit string or a word of the language's ``numbers`` lexicon
  (``दो-तीन`` "two or three", ``COVID-19``);
- next to an acronym (two or more capitals, optionally with digits: ``HR-Fragen``), which
  STT often writes open ("HR Fragen"): there the hyphen becomes a space, so the open and
  hyphenated forms meet and a second pass (after ``lowercase`` removed the capitals) has
  nothing left to join. This is why the step must run before ``lowercase``;
- in a reduplication, where two parts are the same word (Hindi ``बार-बार``, ``धीरे-धीरे``).

The step is generic: a language that lists it in ``steps`` joins compounds (it takes no
option table).
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.steps.basic import is_word_char, make_fold
from pytest_asrbench.normalize.steps.registry import step

# ASCII hyphen-minus, Unicode hyphen and non-breaking hyphen. En and em dashes are
# sentence punctuation, not compound hyphens.
HYPHENS = "-\u2010\u2011"
_HYPHEN_SPLIT = re.compile(f"[{HYPHENS}]")
_TOKEN = re.compile(r"\S+")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]+$")


def _split_edges(token: str) -> tuple[str, str, str]:
    """(leading punctuation, core, trailing punctuation) of a whitespace token."""
    start = 0
    end = len(token)
    while start < end and not is_word_char(token[start]):
        start += 1
    while end > start and not is_word_char(token[end - 1]):
        end -= 1
    return token[:start], token[start:end], token[end:]


def keeps_hyphen(parts: list[str], number_words: frozenset[str], fold=lambda text: text) -> bool:
    """Whether a compound with these ``parts`` keeps its hyphen: a number or a reduplication."""
    for part in parts:
        if part.isdigit() or fold(part.lower()) in number_words:
            return True
    return any(left.lower() == right.lower() for left, right in zip(parts, parts[1:]))


def has_acronym(parts: list[str]) -> bool:
    """Whether a part is an acronym (``HR``, ``B2B``): the compound is then written open."""
    return any(_ACRONYM.match(part) for part in parts)


@step("hyphen_compounds")
def hyphen_compounds(config, lexicons):
    """Join ``a-b`` into ``ab`` unless a part is a number or acronym, or the parts repeat.
    Reads the shared ``char_folds`` and the optional ``numbers`` lexicon."""
    fold = make_fold(config.char_folds)
    number_words = frozenset(fold(word.lower()) for word in lexicons.get("numbers", {}))

    def join_token(match: re.Match) -> str:
        token = match.group(0)
        lead, core, trail = _split_edges(token)
        if not _HYPHEN_SPLIT.search(core):
            return token
        parts = _HYPHEN_SPLIT.split(core)
        if any(not part or not all(is_word_char(c) for c in part) for part in parts):
            return token  # a stray or doubled hyphen, or other punctuation inside: not a compound
        if keeps_hyphen(parts, number_words, fold):
            return token
        if has_acronym(parts):
            return lead + " ".join(parts) + trail
        return lead + "".join(parts) + trail

    return lambda text: _TOKEN.sub(join_token, text)
