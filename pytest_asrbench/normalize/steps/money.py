"""Money: one written form for an amount, whatever currency mark or name was used.

Source: reviewer reports ("₩460 billion" vs "460 billion won", "£20" vs "twenty pounds", "₹500" vs
"पाँच सौ रुपये" were scored as errors). The rules are generic; the currencies are data, one
table per language:

- lexicon ``currencies``: every way a currency is written or said (symbol, ISO code, spoken
  name in singular and plural) -> the currency's mark in the output ("$", "£", "रुपये").
  A key that is not all lowercase (a symbol "$", a code "USD", "Rs", a form in a script
  without case "रु") may stand before or after the amount ("$5", "5 $", "USD 5"); a
  lowercase key is a spoken name and stands only after it ("5 dollars"). Keys may hold
  several words ("swiss francs") and match in any case;
- lexicon ``currency_minor``: the minor unit's names ("cent", "pence", "पैसे") -> the mark of
  the currency they are a hundredth of.

The step runs after the number steps (amounts are digits). It rewrites:

- an amount with a mark before or after it, glued or not: "$5", "5$", "$ 5", "USD 5",
  "10 €", "5 dollars" -> ``format`` (en: "{mark}{amount}" = "$5"; hi: "{amount} {mark}");
- a following minor amount, with or without "and" and the minor name: "5 dollars and 20
  cents" = "$5 20 cents" = "$5.20"; after a spoken name also the bare minor amount
  ("twenty pounds fifty" = "£20.50", 1-99 only);
- a minor amount alone: "50 cents" = "$0.50";
- with ``hundreds_pairs`` (en), two numbers before a spoken name read as hundreds, as a
  year is: "one fifty five dollars" = "1 55 dollars" = "$155" (a reviewer decision;
  "twelve fifty" without a currency name is left as two numbers).

Amounts are written without trailing ".00" and with two decimals otherwise ("$5", "$5.20",
"$2.50"). An amount takes one mark: in "$ 5 dollars" the name after the amount wins.
"""

from __future__ import annotations

import re
from decimal import Decimal

from pydantic import Field

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.digit_test import has_digit
from pytest_asrbench.normalize.steps.phrases import PhraseTable, casefolded_words, folded_tokens
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

_AMOUNT = re.compile(r"\d+(?:\.\d+)?")
_MINOR = re.compile(r"[0-9]|[1-9][0-9]")
_PAIR_HEAD = re.compile(r"[1-9]\d?")  # "one fifty five": 1-99, then
_PAIR_TAIL = re.compile(r"[1-9]\d")   # 10-99
_CENT = Decimal("0.01")
# An amount as :func:`amount_text` writes it: no leading zero, no ".00", none or two decimals
# (at most 20 digits before the point, well within the Decimal context's 28).
_WRITTEN_AMOUNT = re.compile(r"(?:0|[1-9][0-9]{0,19})(?:\.(?!00)[0-9][0-9])?")


class MoneyOptions(StepOptions):
    """``[options.money]``: how an amount is written, and whether number pairs are hundreds."""

    format: str = Field("{mark}{amount}", description="Output of an amount: '{mark}{amount}' ($5) or "
                                                      "'{amount} {mark}' (500 रुपये).")
    hundreds_pairs: bool = Field(False, description="Read 'N MM <name>' as N*100+MM ('one fifty five "
                                                    "dollars' = $155).")


def amount_text(value: Decimal) -> str:
    """``5`` for a whole amount, ``5.20`` otherwise (two decimals, the minor unit)."""
    if value == value.to_integral_value():
        return str(int(value))
    return str(value.quantize(_CENT))


@step("money", idempotent=True, options=MoneyOptions,
      after={"fillers_any_case": "5 um dollars must meet 5 dollars in one pass"})
def money(config, lexicons, options: MoneyOptions):
    """One written form per amount of money (module docstring); reads the ``currencies`` and
    ``currency_minor`` lexicons and the shared ``char_folds``.

    Raises:
        ConfigError: a lexicon is missing, or two of its keys fold together with different marks.
    """
    fold = make_fold(config.char_folds)
    majors = PhraseTable(require_lexicon(lexicons, "currencies", "money"), fold,
                         f"{config.language} currencies lexicon")
    minors = PhraseTable(require_lexicon(lexicons, "currency_minor", "money"), fold,
                         f"{config.language} currency_minor lexicon")
    fmt = options.format
    # A key that may stand before the amount: not a spoken name (lowercase). Where the amount
    # is written first ("{amount} {mark}", hi), a key that is itself an output mark ("डॉलर")
    # binds only to the amount before it, so the step's own output ("5 डॉलर 5") reads the same
    # on a second pass.
    amount_first = fmt.index("{amount}") < fmt.index("{mark}")
    output_marks = set(majors.values.values())
    spoken = {phrase for phrase, key in majors.written.items() if key.islower()}
    before_ok = {phrase for phrase, key in majors.written.items()
                 if phrase not in spoken and not (amount_first and key in output_marks)}
    # Marks glued to an amount: the keys that are neither letters nor digits ("$", "₹").
    symbols = sorted((key for key in majors.written.values() if not any(ch.isalnum() for ch in key)),
                     key=len, reverse=True)
    glued = None
    if symbols:
        alternation = "|".join(re.escape(fold(symbol)) for symbol in symbols)
        glued = re.compile(rf"(?:(?P<before>{alternation})(?P<a1>\d+(?:\.\d+)?)|(?P<a2>\d+(?:\.\d+)?)(?P<after>{alternation}))")
    triggers = majors.first_words | minors.first_words
    # The characters of the folded symbols: a token without any of them is never glued.
    glued_chars = frozenset("".join(fold(symbol) for symbol in symbols))
    symbol_chars = "".join(sorted(set("".join(symbols))))
    # Any of those characters in a text: one scan in C, not a set lookup per character.
    symbol_search = re.compile(f"[{re.escape(symbol_chars)}]").search if symbol_chars else None
    # In ASCII text only the ASCII ones can occur ("$"): a substring test each, faster than the search.
    ascii_symbol_chars = tuple(char for char in symbol_chars if char.isascii())

    def has_symbol(text: str) -> bool:
        if text.isascii():
            for char in ascii_symbol_chars:
                if char in text:
                    return True
            return False
        return symbol_search is not None and symbol_search(text) is not None

    def written(mark: str, value: Decimal) -> str:
        return fmt.format(mark=mark, amount=amount_text(value))

    def minor_after(tokens: list[str], folded: list[str], index: int, mark: str, bare: bool):
        """A minor amount of ``mark`` at ``index`` ("and 20 cents", "20"): (value, next index)."""
        start = index + 1 if index < len(folded) and folded[index] == "and" else index
        if start < len(tokens) and _MINOR.fullmatch(tokens[start]):
            found = minors.match(folded, start + 1)
            if found and minors.values[found[0]] == mark:
                return Decimal(tokens[start]) * _CENT, start + 1 + found[1]
            if bare and start == index and not (start + 1 < len(tokens) and _AMOUNT.fullmatch(tokens[start + 1])):
                if majors.match(folded, start + 1) is None and minors.match(folded, start + 1) is None:
                    return Decimal(tokens[start]) * _CENT, start + 1
        return None

    def written_as_is(text: str, tokens: list[str], folded: list[str]) -> bool:
        """Whether the step leaves ``text`` as it is, for a text of which no token is a
        currency word or mark (``folded``: its tokens folded): then an amount starts only at
        a token with a symbol glued to its amount ("$706.65"), and nothing follows it (a
        minor amount needs a minor unit's name), so the text stays when it is single-spaced
        and every such token is already written as the step writes it: the mark the symbol
        stands for, then an amount that ``amount_text`` gives back unchanged (no leading zero,
        no ".00", two decimals or none; at most 20 digits before the point, within the
        Decimal context's precision). Decided without Decimal arithmetic; ``False`` sends the
        text through the token walk."""
        if glued is None or " ".join(tokens) != text:
            return False
        for token, word in zip(tokens, folded):
            if word.isalnum() or glued_chars.isdisjoint(word):
                continue
            found = glued.fullmatch(word)
            if found is None:
                continue  # no amount starts here ("us$5" is no key): the token stays
            amount = found.group("a1") or found.group("a2")
            symbol = found.group("before") or found.group("after")
            if _WRITTEN_AMOUNT.fullmatch(amount) is None:
                return False
            if fmt.format(mark=majors.values[(symbol,)], amount=amount) != token:
                return False
        return True

    def run(text: str, every_token: bool = False) -> str:
        """The amounts of ``text`` rewritten; ``every_token``: try an amount at every token
        (the plain definition, for tests) instead of only near the currency words and symbols."""
        if not has_digit(text):
            return text
        # After char_folds (the step is listed after it): casefolded words meet the folded keys.
        if not has_symbol(text) and triggers.isdisjoint(casefolded_words(text)):
            return text
        tokens = text.split()
        folded = folded_tokens(text, tokens, fold)
        count = len(tokens)
        if not every_token and triggers.isdisjoint(folded) and written_as_is(text, tokens, folded):
            return text

        def amount_at(index: int) -> tuple[str, int] | None:
            """The amount that starts at token ``index``: (its written form, the index after
            it), or ``None`` when none starts there."""
            token = tokens[index]
            mark = value = None
            bare = False
            after = index + 1
            glued_match = glued.fullmatch(folded[index]) if glued else None
            if glued_match:
                symbol = glued_match.group("before") or glued_match.group("after")
                mark = majors.values[(symbol,)]
                value = Decimal(glued_match.group("a1") or glued_match.group("a2"))
            elif _AMOUNT.fullmatch(token):
                pair = None
                if (options.hundreds_pairs and index + 2 < count and _PAIR_HEAD.fullmatch(token)
                        and _PAIR_TAIL.fullmatch(tokens[index + 1])):
                    named = majors.match(folded, index + 2)
                    if named and named[0] in spoken:
                        pair = named
                if pair:
                    mark, value = majors.values[pair[0]], Decimal(int(token) * 100 + int(tokens[index + 1]))
                    after, bare = index + 2 + pair[1], True
                elif found := majors.match(folded, index + 1):
                    mark, value, after = majors.values[found[0]], Decimal(token), index + 1 + found[1]
                    bare = found[0] in spoken
                elif found := minors.match(folded, index + 1):
                    return written(minors.values[found[0]], Decimal(token) * _CENT), index + 1 + found[1]
            elif (found := majors.match(folded, index)) and found[0] in before_ok:
                following = index + found[1]
                # A mark after the amount wins ("$ 5 dollars"): an amount takes one mark.
                if (following < count and _AMOUNT.fullmatch(tokens[following])
                        and majors.match(folded, following + 1) is None):
                    mark, value, after = majors.values[found[0]], Decimal(tokens[following]), following + 1
            if mark is None:
                return None
            if value == value.to_integral_value():
                cents = minor_after(tokens, folded, after, mark, bare)
                if cents:
                    value += cents[0]
                    after = cents[1]
            return written(mark, value), after

        # An amount starts only at a token that holds a currency symbol or is a currency
        # word, or one or two tokens before a currency word ("5 dollars", "1 55 dollars"):
        # only those tokens are tried, in order, and the tokens between them are copied
        # (the same output as trying every token, without a pattern test per word).
        starts: set[int] = set(range(count)) if every_token else set()
        for index, word in enumerate([] if every_token else folded):
            if word in triggers:
                starts.update((index - 2, index - 1, index))
            elif not word.isalnum() and not glued_chars.isdisjoint(word):
                starts.add(index)
        out: list[str] = []
        position = 0
        for index in sorted(starts):
            if index < position:
                continue
            out.extend(tokens[position:index])
            found = amount_at(index)
            if found is None:
                out.append(tokens[index])
                position = index + 1
            else:
                out.append(found[0])
                position = found[1]
        out.extend(tokens[position:])
        joined = " ".join(out)
        # The same object when nothing changed: the pipeline then skips a repeated
        # idempotent step (number_formats) after this one.
        return text if joined == text else joined

    run.plain = lambda text: run(text, every_token=True)
    return run
