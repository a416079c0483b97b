"""The Thai benchmark's reference cleaning, frozen under a version name.

``th-bench-v1`` is how the benchmark's FLEURS and GigaSpeech2 references were cleaned when its
published figures were made (source: the reference-builder specification, issue 10):

1. remove ASCII punctuation except ``?`` and ``!``, and the curly quotes ``“ ” ‘ ’``, the em and
   en dashes ``— –`` and the ellipsis ``…``;
2. lowercase; strip the ends;
3. pythainlp's ``normalize`` (pythainlp 5.3.5): zero-width characters removed, runs of spaces
   made one, repeated vowels and misplaced marks put right (``นำ้`` -> ``น้ำ``, ``เเ`` -> ``แ``).

Removing ``.`` also removes decimal points: ``22.00`` becomes ``2200``. That is a documented
consequence, not a bug: 17 FLEURS references contain one, and the published FLEURS figures were
scored with them that way. Tabs and newlines inside the text are left to pythainlp.

A frozen cleaning is never edited in place: a change is a new entry in :data:`CLEANINGS`
(``th-bench-v2``), and ``tests/bench/test_cleaning.py`` pins v1's rules and its outputs on a
fixed list of texts. Each cleaning is a pure function ``str -> str``.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import lru_cache
from types import MappingProxyType

from pytest_asrbench.bench.errors import BENCH_EXTRA_MESSAGE, BenchDependencyError, UnknownCleaningError

#: The cleaning the benchmark's references and hypotheses are scored with.
THAI_BENCHMARK_CLEANING = "th-bench-v1"

#: Characters v1 deletes: ASCII punctuation but ``?`` and ``!``, curly quotes, dashes, ellipsis.
V1_DELETED = "".join(c for c in string.punctuation if c not in "?!") + "\u201c\u201d\u2018\u2019\u2014\u2013\u2026"
#: The pythainlp release v1's ``normalize`` step is defined by.
V1_PYTHAINLP = "5.3.5"

_V1_TABLE = str.maketrans("", "", V1_DELETED)


@lru_cache(maxsize=None)
def _thai_normalize(required_version: str) -> Callable[[str], str]:
    """pythainlp's ``normalize``, after checking the installed pythainlp is ``required_version``.

    Raises:
        BenchDependencyError: pythainlp is missing, or another version is installed (its
            ``normalize`` may give other outputs, which would silently move published figures).
    """
    try:
        import pythainlp
        from pythainlp.util import normalize
    except ImportError as exc:
        raise BenchDependencyError(f"{BENCH_EXTRA_MESSAGE} ({exc})") from exc
    installed = getattr(pythainlp, "__version__", "unknown")
    if installed != required_version:
        raise BenchDependencyError(
            f"the Thai benchmark cleaning {THAI_BENCHMARK_CLEANING} is defined with pythainlp "
            f"{required_version}, but {installed} is installed: pip install 'pythainlp=={required_version}' "
            "(or pip install 'pytest-asrbench[bench]')")
    return normalize


def clean_th_bench_v1(text: str) -> str:
    """``th-bench-v1`` of one text (see the module docstring for the rules and their source).

    ``"ราคา 22.00 บาท"`` -> ``"ราคา 2200 บาท"``; ``"“Hello,” — world!"`` -> ``"hello world!"``.

    Raises:
        TypeError: ``text`` is not a string.
        BenchDependencyError: pythainlp 5.3.5 is not the installed pythainlp.
    """
    if not isinstance(text, str):
        raise TypeError(f"the benchmark cleaning takes a str, not {type(text).__name__}")
    return _thai_normalize(V1_PYTHAINLP)(text.translate(_V1_TABLE).lower().strip())


#: Version name -> cleaning function. Append new versions; never change an existing one.
CLEANINGS: MappingProxyType[str, Callable[[str], str]] = MappingProxyType({
    "th-bench-v1": clean_th_bench_v1,
})


def clean_reference(text: str, version: str = THAI_BENCHMARK_CLEANING) -> str:
    """``text`` cleaned by the named frozen cleaning (default :data:`THAI_BENCHMARK_CLEANING`).

    Raises:
        UnknownCleaningError: ``version`` is not in :data:`CLEANINGS` (the message lists the
            known ones).
    """
    try:
        cleaning = CLEANINGS[version]
    except KeyError:
        raise UnknownCleaningError(f"unknown benchmark cleaning {version!r}; known: {', '.join(CLEANINGS)}") from None
    return cleaning(text)
