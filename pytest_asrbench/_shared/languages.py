"""Language tags: the one rule for finding the config (or engine language) of a tag.

A tag is tried as given, then lowercased, then as its base language: ``fr-CA`` -> ``fr``,
``hi_IN`` -> ``hi`` (BCP 47 subtags are separated by ``-``; ``_`` as in POSIX locales is
accepted). A regional tag without a config of its own therefore falls back to its base
language, and only here.
"""

from __future__ import annotations

from collections.abc import Iterable

from pytest_asrbench.errors import UnknownLanguageError


def _clean(language: object) -> str:
    if not isinstance(language, str) or not language.strip():
        raise UnknownLanguageError(f"language must be a non-empty tag such as 'en'; got {language!r}")
    return language.strip().replace("_", "-")


def base_tag(language: str) -> str:
    """The lowercase base language of a tag: ``hi_IN`` -> ``hi``, ``fr-CA`` -> ``fr``, ``EN`` -> ``en``.

    Raises:
        UnknownLanguageError: (a ``ValueError``) an empty or non-string tag.
    """
    return _clean(language).split("-")[0].lower()


def resolve_tag(language: str, known: Iterable[str], where: str = "") -> str:
    """The entry of ``known`` that serves ``language``: itself, its lowercase form, or its base.

    ``where`` names the place searched, for the message (``" in git:main"``).

    Raises:
        UnknownLanguageError: (a ``ValueError``) an empty or non-string tag, or no candidate is
            known; the message lists the known languages.
    """
    tag = _clean(language)
    known = sorted(known)
    for candidate in (tag, tag.lower(), base_tag(tag)):
        if candidate in known:
            return candidate
    raise UnknownLanguageError(
        f"no normalizer config for language {language!r}{where}; known languages: {', '.join(known)}"
    )
