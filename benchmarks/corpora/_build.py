"""The one generation loop of the language corpora: templates filled at random, odd spacing.

A corpus module lists its templates (functions of a ``random.Random`` returning one
utterance) and calls :func:`build`; every language's corpus is then made the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

Template = Callable[[random.Random], str]

#: Spaces between words: mostly plain, sometimes doubled, a no-break space, a narrow no-break
#: space or a tab (as copy-pasted references and ASR output have).
SPACES = (" ",) * 12 + ("  ", "\u00a0", "\u202f", "\t")


def build(templates: Sequence[Template], count: int, seed: int) -> list[str]:
    """``count`` utterances from ``templates`` (chosen at random with ``seed``)."""
    rng = random.Random(seed)
    corpus = []
    for _ in range(count):
        words = rng.choice(templates)(rng).split(" ")
        corpus.append("".join(word + rng.choice(SPACES) for word in words).strip())
    return corpus


def price(rng: random.Random, decimal: str = ",") -> str:
    """A price in digits with the decimal separator: ``12,50``, ``3``, ``1.250,75``."""
    units = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
    text = f"{units:,}".replace(",", ".") if units >= 1000 and rng.random() < 0.5 else str(units)
    if rng.random() < 0.6:
        text += f"{decimal}{rng.randint(0, 99):02d}"
    return text


def code(rng: random.Random) -> str:
    """A ticket or order code: ``AB-1234``, ``X7Z9``, ``2024-00123``."""
    letters = "".join(rng.choice("ABCDEFGHKLMNPRSTXZ") for _ in range(rng.randint(2, 3)))
    return rng.choice([f"{letters}-{rng.randint(100, 9999)}", f"{letters}{rng.randint(1, 99)}",
                       f"{rng.randint(2019, 2026)}-{rng.randint(1, 99999):05d}"])
