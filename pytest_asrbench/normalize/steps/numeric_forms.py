"""Written numeric forms read before ``punctuation`` removes their marks: ranges with an en dash
and numeric dates.

``number_ranges``
    An en dash (U+2013) or a figure dash (U+2012) between two digits is the hyphen: ``10–12``
    = ``10-12`` (Duden, "Bis-Strich"; Lexique des règles typographiques: the range of two
    numbers is written with the en dash, keyboards and STT write the hyphen). Between words or
    with spaces round it the dash stays sentence punctuation (``Berlin – Hamburg``).

``numeric_dates``
    A numeric date ``day<sep>month<sep>year`` with a four-digit year is the date the speaker
    reads: the day's number, the month's name, the year (``[options.numeric_dates]``, data of
    each language): de ``3.10.2024`` = ``3 oktober 2024`` (spoken ``am dritten Oktober
    zweitausendvierundzwanzig``, whose ordinal day the ``amounts`` step writes ``3 oktober``),
    es ``03/10/2024`` = ``3 de octubre de 2024`` (``el tres de octubre de dos mil
    veinticuatro``). Day 1-31 and month 1-12, a leading zero allowed; the two separators must
    be the same, and a digit, letter or another separator and digit right before or after the
    date leaves it as written: a version ``1.2.3``, a decimal ``3.5``, a time ``14.30``, a
    group ``3.400`` and a date without its year (``3.10.``) are never read as one. Sources:
    DIN 5008 (de ``TT.MM.JJJJ``), the RAE, Treccani and the Lexique des règles typographiques
    (``jj/mm/aaaa``), and the Taalunie (nl ``3-10-2024``, ``3.10.2024``).
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.number_words import folded
from pytest_asrbench.normalize.steps.registry import step

_RANGE_DASH = re.compile(r"(?<=\d)[\u2012\u2013](?=\d)")
_MAY_BE_RANGE = re.compile(r"[\u2012\u2013]")


@step("number_ranges", idempotent=True,
      before={"punctuation": "punctuation removes an en dash (it is P*) and keeps the hyphen between digits"})
def number_ranges(config, lexicons):
    """``<digit>–<digit>`` -> ``<digit>-<digit>`` (module docstring). Input: any text before
    ``punctuation``; output: the same text with the dashes between two digits as hyphens."""
    return triggered(_MAY_BE_RANGE, lambda text: _RANGE_DASH.sub("-", text))


class NumericDateOptions(StepOptions):
    """``[options.numeric_dates]``: how a numeric date is written and read in the language."""

    separators: str = Field("", description="Characters between day, month and year ('.' de, '/' fr); "
                                            "empty: the step does nothing.")
    months: list[str] = Field(default_factory=list,
                              description="The twelve month names in order, as the text writes them lowercase.")
    format: str = Field("{day} {month} {year}", description="The date as read: '{day} de {month} de {year}' (es).")

    @field_validator("months")
    @classmethod
    def _twelve(cls, value: list[str]) -> list[str]:
        if value and len(value) != 12:
            raise ValueError(f"numeric_dates.months lists {len(value)} names: list the twelve months in order, "
                             "January first (one name each)")
        return value


@step("numeric_dates", options=NumericDateOptions, idempotent=True,
      before={"punctuation": "punctuation removes the dots and slashes that make the date",
              "digit_groups": "a date's dots are no group dots: the date is read before digit_groups joins 3.400"},
      after={"char_folds": "it writes the month names folded, as the text around them is"})
def numeric_dates(config, lexicons, options: NumericDateOptions):
    """``D<sep>M<sep>YYYY`` -> the format with the day's number, the month's name and the year
    (module docstring).

    Raises:
        ConfigError: ``separators`` is set and ``months`` is empty (a list of another length
            than twelve is refused when the options are read).
    """
    if not options.separators:
        return lambda text: text
    if not options.months:
        raise ConfigError(f"[options.numeric_dates] of {config.language}: separators is set but numeric_dates.months is empty: "
                         "list the twelve month names in order, January first")
    months = folded(options.months, config)
    seps = re.escape(options.separators)
    pattern = re.compile(rf"(?<![\w{seps}])(?<![{seps}]\d)(0?[1-9]|[12]\d|3[01])([{seps}])(0?[1-9]|1[0-2])\2(\d{{4}})"
                         rf"(?!\w|[{seps},]\d)", re.ASCII)

    def replace(match: re.Match) -> str:
        return options.format.format(day=int(match[1]), month=months[int(match[3]) - 1], year=match[4])

    return triggered(re.compile(rf"\d[{seps}]\d"), lambda text: pattern.sub(replace, text))
