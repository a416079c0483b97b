"""Number machinery shared by every language: decimal and group separators.

Each config says how its language writes numbers (``decimal_separator``, ``group_separator``;
de: ``","`` and ``"."``, en: ``"."`` and ``","``). From them:

- :func:`group_pattern` finds a group separator inside a digit run: a separator between a
  digit and exactly three digits (``1.000.000`` in de, ``25,000`` in en); the generic
  ``digit_groups`` step (before ``punctuation``) drops it, so ``1.000`` = ``1000``;
- :func:`number_marks` finds what the ``punctuation`` step must keep inside a number: the
  decimal separator between two digits (``0,2`` in de, ``5.3`` in hi, ``3.14`` in th) and a
  minus sign that starts a number (``-3.14``, U+2212 written as ``-``).

- the ``phone_numbers`` step writes a phone number as its digits (the groupings are the
  config's ``[options.phone_numbers]``).

Source: the reviewer reports ("``5.3`` is ``5 3`` in hi, ``-3.14`` is ``314`` in
th, ``0,2 Millionen`` is ``0 2 millionen`` in de"); the separators follow CLDR's number
symbols for each locale (``decimal`` and ``group``).
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.registry import step

#: Minus signs that start a number: ASCII hyphen-minus and U+2212 MINUS SIGN.
MINUS_SIGNS = "-\u2212"


def group_pattern(group: str) -> re.Pattern[str] | None:
    """The group separator ``group`` between a digit and exactly three digits (``None``
    when the language has no group separator)."""
    if not group:
        return None
    return re.compile(rf"(?<=\d){re.escape(group)}(?=\d{{3}}(?!\d))")


def number_marks(decimal: str, ordinal_dot: bool = False) -> str:
    """A regex (one alternative, two groups) for the marks kept inside numbers: group 1 is
    the decimal separator between two digits, or (``ordinal_dot``) a dot after digits that a
    space and a letter follow (de ``3. März``); group 2 a minus sign at the start of a word
    followed by a digit. Used by the ``punctuation`` step before its own rules."""
    ordinal = r"|(?<=\d)\.(?= [^\W\d_])" if ordinal_dot else ""
    return (rf"(?<=\d)({re.escape(decimal)}(?=\d){ordinal})"
            rf"|(?:^|(?<=\s))([{re.escape(MINUS_SIGNS)}])(?=\d)")


@step("digit_groups", idempotent=True,
      before={"punctuation": "punctuation removes the group separator it reads (3.400 would be 3 400)"})
def digit_groups(config, lexicons):
    """Drop the language's group separators inside digit runs (``1.000.000`` = ``1000000``
    in de); run before ``punctuation``. Reads the shared ``group_separator``."""
    pattern = group_pattern(config.group_separator)
    if pattern is None:
        return lambda text: text
    # The trigger: the separator between a digit and three digits, wherever the pattern
    # matches (a superset), led by the separator, which ``re`` scans for in C (a digit-led
    # test retries at every digit; the separator alone, de ".", is in nearly every text).
    separator = re.escape(config.group_separator)
    gate = re.compile(rf"{separator}(?<=\d{separator})\d{{3}}")
    return triggered(gate, lambda text: pattern.sub("", text))


class PhoneOptions(StepOptions):
    """``[options.phone_numbers]``: the digit groupings a phone number is written in."""

    groupings: list[str] = Field(default_factory=lambda: ["3-3-4"], description="Group sizes of a written phone "
                                                                               "number, joined by '-' ('3-3-4').")

    @field_validator("groupings")
    @classmethod
    def _sizes(cls, value: list[str]) -> list[str]:
        for grouping in value:
            sizes = grouping.split("-")
            if len(sizes) < 2 or not all(size.isdigit() and int(size) > 0 for size in sizes):
                raise ValueError(f"grouping {grouping!r}: write two or more group sizes joined by '-', e.g. '3-3-4'")
        return value


@step("phone_numbers", idempotent=True, options=PhoneOptions,
      after={"punctuation": "the brackets of (555) 010-4477 must be gone"})
def phone_numbers(config, lexicons, options: PhoneOptions):
    """One written form for a phone number: its digits, without the group separators.

    "(555) 010-4477" = "555-010-4477" = "555 010 4477" = "555.010.4477" = "5550104477" (and,
    through the spelled-code and number steps, "five five five zero one zero ..."). A number
    is a run of digit groups of exactly the sizes of one of ``groupings`` (en: 3-3-4 and
    3-4; hi: 5-5 and 3-3-4), separated by one space, hyphen or dot each, and not part of a
    longer run of digit groups ("5555 010 4477" is left alone). Source: reviewer reports (the North
    American 3-3-4 grouping of ITU-T E.123's national notation; India's 5-5 mobile grouping).
    Runs after ``punctuation`` (the brackets of "(555)" are gone by then).
    """
    shapes = []
    for grouping in sorted(options.groupings, key=lambda g: -sum(int(size) for size in g.split("-"))):
        shapes.append(r"[ .-]".join(rf"(\d{{{size}}})" for size in grouping.split("-")))
    # Not inside a longer run of digit groups either ("5555 010 4477" is no phone number).
    pattern = re.compile(rf"(?<![\w.-])(?<!\d[ .-])(?:{'|'.join(f'(?:{shape})' for shape in shapes)})"
                         rf"(?![\w-]|\.\d)(?![ .-]\d)")

    def join(match: re.Match) -> str:
        return "".join(group for group in match.groups() if group)

    # The trigger, found wherever the pattern matches (a superset): a separator with at least
    # the shortest first group's digits before it and the shortest second group's after it,
    # led by the separator's character class, which ``re`` scans for in C (a digit-led test
    # retries at every digit of a long number).
    sizes = [[int(size) for size in grouping.split("-")] for grouping in options.groupings]
    if not sizes:
        return lambda text: text
    first, second = min(size[0] for size in sizes), min(size[1] for size in sizes)
    gate = re.compile(rf"[ .-](?<=\d{{{first}}}[ .-])\d{{{second}}}")
    return triggered(gate, lambda text: pattern.sub(join, text))


# Digits in groups of three split by spaces: "3 400", "1 000 000" (fr, es; after
# unicode_whitespace has made the no-break and narrow no-break spaces plain spaces). The first
# group has 1-3 digits, does not start with 0, and has no digit, comma or dot before it; the last is not followed by a digit.
_SPACED_GROUPS = re.compile(r"(?=[1-9])(?<![\d,.])(?<!\d )[1-9]\d{0,2}(?: \d{3})+(?![\d])")
# The trigger of ``spaced_digit_groups``: a space between a digit and three digits, wherever
# _SPACED_GROUPS matches (a superset), led by the space (fewer tries than at every digit).
_MAY_BE_SPACED_GROUPS = re.compile(r" (?<=\d )\d{3}")


class SpacedDigitGroupOptions(StepOptions):
    """``[options.spaced_digit_groups]``: whether the language writes thousands with spaces."""

    join: bool = Field(True, description="Join digit groups written with spaces (3 400 = 3400); false for a "
                                         "language that writes them otherwise (de 3.400), where 12 345 is two numbers.")


@step("spaced_digit_groups", options=SpacedDigitGroupOptions, idempotent=True,
      after={"spoken_numbers": "number words side by side come out as 101 100, which a second pass must join alike",
             "unicode_whitespace": "the no-break spaces between digit groups must be plain spaces"})
def spaced_digit_groups(config, lexicons, options: SpacedDigitGroupOptions):
    """Join digit groups written with spaces: ``3 400`` = ``3400``, ``1 000 000`` = ``1000000``.

    For languages whose convention separates thousands with a (narrow no-break) space: CLDR
    fr (U+202F), and the RAE's rule for es (Ortografía 2010, 4.2.1.2: a space, not a dot, in
    numbers of more than four digits). Run after ``spoken_numbers`` (and so after
    ``punctuation``, which keeps the decimal separator): number words side by side can come
    out as ``101 100``, and a second normalization must join them alike (idempotence). A run of single or two-digit groups (``06 12 34``, a phone number) never
    matches; two numbers side by side whose second has exactly three digits are read as one
    (``12 345``), which is how such a text is written in these languages. With ``join =
    false`` (de, nl, it, listing it through the shared European base) the step does nothing.
    """
    if not options.join:
        return lambda text: text

    return triggered(_MAY_BE_SPACED_GROUPS, lambda text: _SPACED_GROUPS.sub(_unspaced, text))


def _unspaced(match: re.Match) -> str:
    return match.group(0).replace(" ", "")
