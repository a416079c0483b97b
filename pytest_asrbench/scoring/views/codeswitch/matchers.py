"""Cross-script word matchers of the code-switch rescue, looked up by the config's name.

A language whose second language is written in another script (Hindi: English in Latin
and in Devanagari) names a matcher in ``code_switch_matcher``; the rescuer then also
accepts a region whose English views differ only in word pairs the matcher pairs
(नेटवर्क = network). A matcher is built once per language by its factory,
``factory(config, lexicons, fold) -> matcher``, where ``lexicons`` are the language's
lexicon tables and ``fold`` its ``char_folds`` applied to a string. The matcher object
provides:

- ``check(first, second)``: a verdict for two single words in either order, with
  ``matched`` (bool), ``home`` and ``second`` (the two words, home-script one first),
  ``key`` (what they share, for audit) and ``reason``;
- ``could_match(word)``: whether some word of the other script could pair with this
  home-script word (a cheap necessary condition, checked before any view is built);
- ``record_fields``: the names of the two words in the audit records
  (``("devanagari", "latin")``).

A new matcher (Latin names against katakana or Hangul) is a module of its own plus one
:func:`register_matcher` call below.
"""

from __future__ import annotations

from typing import Callable

from pytest_asrbench.errors import ConfigError

MatcherFactory = Callable[..., object]

_MATCHERS: dict[str, MatcherFactory] = {}


def register_matcher(name: str, factory: MatcherFactory) -> MatcherFactory:
    """Register ``factory`` under ``name`` (the value a config's ``code_switch_matcher`` takes).

    Raises:
        ConfigError: ``name`` is already registered.
    """
    if name in _MATCHERS:
        raise ConfigError(f"a code-switch matcher named {name!r} is already registered; pick another name")
    _MATCHERS[name] = factory
    return factory


def known_matchers() -> tuple[str, ...]:
    """The registered matcher names, sorted."""
    return tuple(sorted(_MATCHERS))


def build_matcher(name: str, config, lexicons, fold):
    """The matcher ``name`` for ``config`` (``lexicons``: its lexicon tables; ``fold``: its char folds).

    Raises:
        ConfigError: no matcher has that name (the message lists the known ones).
    """
    if name not in _MATCHERS:
        raise ConfigError(f"{config.language}: code_switch_matcher {name!r} is not a known matcher; "
                          f"use one of {list(known_matchers())}")
    return _MATCHERS[name](config, lexicons, fold)


def _devanagari_phonetic(config, lexicons, fold):
    """Hindi: the Latin/Devanagari consonant-key matcher, with the ``phonetic_stoplist`` lexicon."""
    from pytest_asrbench.scoring.views.codeswitch.phonetic import PhoneticMatcher

    return PhoneticMatcher(frozenset(fold(word) for word in lexicons.get("phonetic_stoplist", {})))


register_matcher("devanagari_phonetic", _devanagari_phonetic)
