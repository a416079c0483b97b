"""The Thai benchmark's reference cleaning, frozen under a version name.

``th-bench-v1`` is how the benchmark's FLEURS and GigaSpeech2 references were cleaned when its
published figures were made (source: the reference-builder specification):

1. remove ASCII punctuation except ``?`` and ``!``, and the curly quotes ``“ ” ‘ ’``, the em and
   en dashes ``— –`` and the ellipsis ``…``;
2. lowercase; strip the ends;
3. pythainlp's ``normalize`` (pythainlp 5.3.5): zero-width characters removed, runs of spaces
   made one, repeated vowels and misplaced marks put right (``นำ้`` -> ``น้ำ``, ``เเ`` -> ``แ``).

Removing ``.`` also removes decimal points: ``22.00`` becomes ``2200``. That is a documented
consequence, not a bug: 17 FLEURS references contain one, and the published FLEURS figures were
scored with them that way. Tabs and newlines inside the text are left to pythainlp.

The rules are not written here: v1 *is* the frozen normalizer profile ``bench_v1`` of
``configs/th.toml`` (its steps in ``normalize/languages/th/bench.py``), so the reference
builder, the benchmark scorer and ``asrbench explain``-style step traces share one
implementation. This module checks that the profile still lists v1's frozen steps, and maps
the version name to it.

A frozen cleaning is never edited in place: a change is a new profile (``bench_v2``) and a new
entry in :data:`CLEANINGS` (``th-bench-v2``); ``tests/bench/test_cleaning.py`` pins v1's rules
and its outputs on a fixed list of texts. Each cleaning is a pure function ``str -> str``.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from pytest_asrbench.bench.errors import BenchDependencyError, BenchError, UnknownCleaningError
from pytest_asrbench.normalize.languages.th.bench import (
    BENCH_V1_NAME,
    BENCH_V1_PROFILE,
    BENCH_V1_STEPS,
    V1_DELETED,
    V1_PYTHAINLP,
)
from pytest_asrbench.normalize.languages.th.library import PythainlpVersionError
from pytest_asrbench.normalize.pipeline import Pipeline
from pytest_asrbench.normalize.registry import configs_dir, get_config, get_normalizer

__all__ = ["CLEANINGS", "THAI_BENCHMARK_CLEANING", "V1_DELETED", "V1_PYTHAINLP", "CleaningProfileError",
           "clean_reference", "clean_th_bench_v1", "cleaner", "cleaning_pipeline"]

#: The cleaning the benchmark's references and hypotheses are scored with.
THAI_BENCHMARK_CLEANING = BENCH_V1_NAME


class CleaningProfileError(BenchError, ValueError):
    """The config's profile of a frozen cleaning lists other steps than the frozen ones."""


def cleaning_pipeline(language: str, profile: str, frozen_steps: tuple[str, ...], name: str) -> Pipeline:
    """The normalizer profile ``profile`` of ``language`` that the frozen cleaning ``name`` is.

    Raises:
        CleaningProfileError: the config (shipped, or a project's ``extends`` config) lists
            other steps under that profile than ``frozen_steps``: a frozen profile was edited.
        BenchDependencyError: the profile's pinned pythainlp is not the installed one.
    """
    profiles = get_config(language).profiles
    listed = tuple(profiles[profile].steps) if profile in profiles else None
    if listed != frozen_steps:
        raise CleaningProfileError(
            f"the benchmark cleaning {name} is the frozen profile [profiles.{profile}] of "
            f"{configs_dir() / (language + '.toml')} with steps {list(frozen_steps)}, but the config lists "
            f"{list(listed) if listed is not None else 'no such profile'}: restore it, and put a changed "
            f"cleaning in a new profile (a new version), never in place")
    try:
        return get_normalizer(language, profile)
    except PythainlpVersionError as exc:
        raise BenchDependencyError(str(exc)) from exc


def clean_th_bench_v1(text: str) -> str:
    """``th-bench-v1`` of one text (see the module docstring for the rules and their source).

    ``"ราคา 22.00 บาท"`` -> ``"ราคา 2200 บาท"``; ``"“Hello,” — world!"`` -> ``"hello world!"``.

    Raises:
        TypeError: ``text`` is not a string.
        BenchDependencyError: pythainlp 5.3.5 is not the installed pythainlp.
        CleaningProfileError: the ``bench_v1`` profile of ``th.toml`` was edited.
    """
    if not isinstance(text, str):
        raise TypeError(f"the benchmark cleaning takes a str, not {type(text).__name__}")
    return cleaner(BENCH_V1_NAME)(text)


#: Version name -> cleaning function. Append new versions; never change an existing one.
CLEANINGS: MappingProxyType[str, Callable[[str], str]] = MappingProxyType({
    "th-bench-v1": clean_th_bench_v1,
})


#: Version name -> (language, profile, frozen steps) of the profile that cleaning is.
PROFILES: MappingProxyType[str, tuple[str, str, tuple[str, ...]]] = MappingProxyType({
    "th-bench-v1": ("th", BENCH_V1_PROFILE, BENCH_V1_STEPS),
})


def cleaner(version: str = THAI_BENCHMARK_CLEANING) -> Callable[[str], str]:
    """The named frozen cleaning as one built, checked ``str -> str`` function: for cleaning
    many texts (a set's references, a hypothesis file), check and look up once, then call it.

    Raises:
        UnknownCleaningError: ``version`` is not in :data:`CLEANINGS` (the message lists them).
        CleaningProfileError, BenchDependencyError: see :func:`cleaning_pipeline`.
    """
    if version not in PROFILES:
        raise UnknownCleaningError(f"unknown benchmark cleaning {version!r}; known: {', '.join(CLEANINGS)}")
    language, profile, steps = PROFILES[version]
    return cleaning_pipeline(language, profile, steps, version)


def clean_reference(text: str, version: str = THAI_BENCHMARK_CLEANING) -> str:
    """``text`` cleaned by the named frozen cleaning (default :data:`THAI_BENCHMARK_CLEANING`).

    Raises:
        UnknownCleaningError: ``version`` is not in :data:`CLEANINGS` (the message lists the
            known ones).
        TypeError: ``text`` is not a string.
    """
    if version not in CLEANINGS:
        raise UnknownCleaningError(f"unknown benchmark cleaning {version!r}; known: {', '.join(CLEANINGS)}")
    return CLEANINGS[version](text)
