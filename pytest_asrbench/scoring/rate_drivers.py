"""Which utterances drive a corpus-level rate, so a summary can name them.

A corpus rate (errors summed over utterances, divided by the summed reference length) can be
above 100%: insertions have no bound, so one clip whose hypothesis is much longer than its
reference (a hallucination, a repetition loop) can outweigh every other clip. sclite's and
texterrors' users then read the insertion count and the per-utterance lines to find it; a
summary that prints only the rate hides that. So a rate is explained when it is above 100%,
or when a few utterances hold most of its errors:

- *a few*: the fewest utterances, most errors first, that hold at least :data:`SHARE` of the
  errors, when they are at most :data:`FEW`, fewer than a quarter of the utterances (a
  corpus of fewer than five utterances is never "driven by a few": every one is in view) and
  hold at least :data:`MIN_ERRORS` errors (a handful of errors is no pattern);
- above 100%: the same utterances, at most the :data:`FEW` with the most errors when it takes more.

The explanation names those utterances with their errors, insertions and reference length,
marks each whose insertions exceed :data:`INSERTION_RATIO` times its reference length (its
hypothesis is much longer than its reference), and gives the rate of the other utterances.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: An utterance whose insertions exceed this many times its reference length is marked.
INSERTION_RATIO = 2
#: At most this many utterances are named.
FEW = 3
#: The share of the errors the named utterances hold for a rate to be "driven by a few".
SHARE = 0.5
#: The fewest errors the named utterances hold for a rate to be "driven by a few".
MIN_ERRORS = 10


@dataclass(frozen=True)
class UtteranceErrors:
    """One utterance's counts: its ``ident`` (a case node id, a clip id), its ``errors``
    (substitutions + deletions + insertions), ``insertions`` and ``reference_length``, in the
    unit of the rate.

    Raises:
        ValueError: a negative count, or insertions above the errors.
    """

    ident: str
    errors: int
    insertions: int
    reference_length: int

    def __post_init__(self) -> None:
        if min(self.errors, self.insertions, self.reference_length) < 0 or self.insertions > self.errors:
            raise ValueError(f"{self.ident}: counts must be 0 or more with insertions <= errors, got errors "
                             f"{self.errors}, insertions {self.insertions}, reference length {self.reference_length}")

    @property
    def inserts_beyond_reference(self) -> bool:
        """Insertions above :data:`INSERTION_RATIO` times the reference length."""
        return self.insertions > INSERTION_RATIO * self.reference_length


@dataclass(frozen=True)
class RateDrivers:
    """Why a corpus rate needs a pointer: the ``named`` utterances (most errors first), out of
    ``utterances``, holding ``named_errors`` of the corpus ``errors`` over ``reference_length``;
    ``rate`` the corpus rate and ``rate_without`` that of the other utterances (``None``: no
    reference left)."""

    named: tuple[UtteranceErrors, ...]
    utterances: int
    errors: int
    reference_length: int
    named_errors: int
    rate: float | None
    rate_without: float | None

    def heading(self, noun: str = "case") -> str:
        """``"driven by 1 of 8 case(s), holding 164 of 181 errors (91%); 11.11% without it:"``
        (``"above 100% and driven by ..."`` for a rate above 100%); ``noun`` names an utterance."""
        share = self.named_errors / self.errors
        without = "n/a" if self.rate_without is None else f"{self.rate_without:.2%}"
        over = "above 100% and " if self.rate is not None and self.rate > 1 else ""
        they = "it" if len(self.named) == 1 else "them"
        return (f"{over}driven by {len(self.named)} of {self.utterances} {noun}(s), holding {self.named_errors} of "
                f"{self.errors} errors ({share:.0%}); {without} without {they}:")

    def described(self, unit_name: str) -> list[tuple[str, str]]:
        """``(ident, what it holds)`` per named utterance; ``unit_name`` names the reference
        unit (``"words"``, ``"chars"``)."""
        return [(item.ident, f"{item.errors} error(s) over {item.reference_length} reference {unit_name}, "
                             f"{item.insertions} insertion(s)"
                             + (f" > {INSERTION_RATIO}x its reference length: the hypothesis is much longer (a "
                                "hallucination or repetition loop?)" if item.inserts_beyond_reference else ""))
                for item in self.named]


def rate_drivers(items: Iterable[UtteranceErrors]) -> RateDrivers | None:
    """The utterances that drive the corpus rate of ``items`` (module docstring), or ``None``
    when the rate needs no pointer (at most 100% and not driven by a few, or no errors)."""
    items = list(items)
    errors = sum(item.errors for item in items)
    length = sum(item.reference_length for item in items)
    if not errors:
        return None
    rate = errors / length if length else None
    ranked = sorted(items, key=lambda item: (-item.errors, item.ident))
    held, leading = 0, []
    for item in ranked:
        leading.append(item)
        held += item.errors
        if held >= SHARE * errors:
            break
    few = len(leading) <= FEW and len(leading) < len(items) / 4 and held >= MIN_ERRORS
    above = rate is None or rate > 1
    if not (few or above):
        return None
    named = tuple(leading[:FEW])
    named_errors = sum(item.errors for item in named)
    rest = length - sum(item.reference_length for item in named)
    return RateDrivers(named, len(items), errors, length, named_errors, rate,
                       (errors - named_errors) / rest if rest else None)


#: How the reference unit of a rate is named in an explanation, by unit (``word``, ``char``).
UNIT_NAMES = {"word": "words", "char": "chars"}


def driver_lines(subject: str, drivers: RateDrivers, unit: str, noun: str, pointer: str | None = None) -> list[str]:
    """The pointer every summary prints under a rate that needs one (the run summary, the
    reports, ``asrbench bench run`` and ``asrbench bench score``): ``"<subject> is <heading>"``
    (:meth:`RateDrivers.heading` with ``noun`` naming an utterance: ``case``, ``clip``), one
    indented line per named utterance (``unit`` is the rate's, ``word`` or ``char``), then
    ``pointer``, where each utterance's own figures are (in parentheses; ``None``: no such line,
    for a summary that gives it once under several rates).

    Raises:
        KeyError: a ``unit`` that is not ``word`` or ``char``.
    """
    return [f"{subject} is {drivers.heading(noun)}",
            *(f"  {ident}: {text}" for ident, text in drivers.described(UNIT_NAMES[unit])),
            *([f"({pointer})"] if pointer else [])]

