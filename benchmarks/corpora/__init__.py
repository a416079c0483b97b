"""Generated utterance corpora for the normalizer throughput benchmarks, one module per language.

Each module ``benchmarks/corpora/<tag>.py`` defines ``make_corpus(count: int, seed: int) ->
list[str]``: ``count`` realistic utterances of that language (numbers, money, dates, codes,
names, fillers, odd whitespace), reproducible for a given seed. ``available()`` lists the tags
that have a module; ``load(tag)`` imports one.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

CorpusMaker = Callable[[int, int], list[str]]


def available() -> list[str]:
    """Language tags with a corpus module here, sorted."""
    return sorted(info.name.replace("_", "-") for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_"))


def load(tag: str) -> CorpusMaker:
    """The ``make_corpus`` function of language ``tag``.

    Raises:
        LookupError: no module for ``tag``; the message lists the tags that have one.
    """
    if tag not in available():
        raise LookupError(f"no benchmark corpus for {tag!r}; corpora exist for: {', '.join(available())}")
    module = importlib.import_module(f"{__name__}.{tag.replace('-', '_')}")
    return module.make_corpus
