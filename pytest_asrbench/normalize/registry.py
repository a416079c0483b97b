"""Find, validate and build each language's normalizer once, and the public text functions.

Configs live in ``configs/`` at the repository root and ship inside the wheel as
``pytest_asrbench/_configs``. A regional tag without a config of its own (``fr-CA``) falls
back to its base language (``fr``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest_asrbench._shared.caches as caches
from pytest_asrbench._shared.config_layers import language_tags, layered_configs_dir, origin_of
from pytest_asrbench._shared.languages import resolve_tag
from pytest_asrbench.errors import ConfigError, InputTypeError
from pytest_asrbench.normalize.checks import check_config
from pytest_asrbench.normalize.config import LanguageConfig, load_config
from pytest_asrbench.normalize.lexicon import load_lexicon
from pytest_asrbench.normalize.pipeline import Pipeline, Step
from pytest_asrbench.normalize.steps import IDEMPOTENT, STEPS


@lru_cache(maxsize=None)
def configs_dir() -> Path:
    """The folder holding ``<lang>.toml`` files: the project's folders (:func:`use_config_dirs`)
    layered over the wheel's copy, else the repository's. Found once per search path (it is
    asked for on every case: a lookup per call cost 11% of a 3,000-case run)."""
    return layered_configs_dir(list(_PROJECT_CONFIG_DIRS), shipped_configs_dir())


def shipped_configs_dir() -> Path:
    """The package's own configs folder: the wheel's ``_configs``, else the repository's
    ``configs/`` (no project folder layered over it).

    Raises:
        ConfigError: neither exists (a broken install).
    """
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_configs", package.parent / "configs"):
        if candidate.is_dir():
            return candidate
    raise ConfigError(f"no configs folder next to {package}; reinstall pytest-asrbench")


# ---- the config search path (a project's own config folders; _shared/config_layers.py) ------
_PROJECT_CONFIG_DIRS: tuple[Path, ...] = ()


def use_config_dirs(folders: list[Path]) -> None:
    """Search ``folders`` (in order) before the package's configs, from now on; the plugin
    calls it with the ``asrbench_config_dirs`` ini option. Cached configs are dropped, and
    every cache registered as built from them (``caches.register(..., from_configs=True)``).

    Raises:
        ConfigError: a folder does not exist, or a config's ``extends`` is bad (on first use).
    """
    global _PROJECT_CONFIG_DIRS
    _PROJECT_CONFIG_DIRS = tuple(Path(folder).resolve() for folder in folders)
    clear_caches()
    caches.reset_from_configs()  # what views built from the configs (the code-switch matchers)


def config_dirs_in_use() -> tuple[Path, ...]:
    """The project config folders searched now, in order (resolved paths; ``()``: the package's
    configs alone), as :func:`use_config_dirs` last set them."""
    return _PROJECT_CONFIG_DIRS


def known_languages() -> list[str]:
    """Sorted tags of every language with a config file (a new list each call); a base that
    languages extend (``_european.toml``) is none."""
    return list(_known_languages())


@lru_cache(maxsize=None)
def _known_languages() -> tuple[str, ...]:
    return tuple(language_tags(configs_dir().glob("*.toml")))


def resolve_language(language: str) -> str:
    """The config tag used for ``language``: itself, or its base language (``fr-CA`` -> ``fr``),
    by the one rule of :func:`pytest_asrbench._shared.languages.resolve_tag`.

    Raises:
        UnknownLanguageError: neither has a config; the message lists the known languages.
    """
    if isinstance(language, str):
        return _resolved(language)
    return resolve_tag(language, known_languages())  # raises: not a tag


@lru_cache(maxsize=None)
def _resolved(language: str) -> str:
    """:func:`resolve_language` of a string tag, once per tag as asked (``"en"``, ``"fr-CA"``):
    resolving sorts the known languages, which every ``normalize_text`` call and every loaded
    case would otherwise pay. A tag that fails is not cached (it raises again on the next call)."""
    return resolve_tag(language, known_languages())


def shown_config_file(rel: str) -> Path:
    """The file a message about the effective config file ``rel`` (``en.toml``,
    ``en/spelling.tsv``, relative to :func:`configs_dir`) names: the project's own file it
    comes from (``myconfigs/en.toml``, relative to the current folder when inside it; see
    :func:`pytest_asrbench._shared.config_layers.origin_of`), else the shipped file itself.
    Never the merged copy under the temporary folder, which the user cannot edit."""
    effective = configs_dir()
    origin = origin_of(effective, rel)
    if origin is None:
        return effective / rel
    try:
        return origin.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return origin


@lru_cache(maxsize=None)
def get_config(language: str) -> LanguageConfig:
    """The validated config of ``language`` (after regional fallback), read once.

    Raises:
        UnknownLanguageError: no config for the language.
        ConfigError: the file is malformed, or a step list, step or ``[options.<step>]``
            table is rejected by the step registry (:func:`~pytest_asrbench.normalize.checks.check_config`).
    """
    tag = resolve_language(language)
    shown = shown_config_file(f"{tag}.toml")
    config = load_config(configs_dir() / f"{tag}.toml", shown)
    if config.language != tag:
        raise ConfigError(f"{shown}: language = {config.language!r} but the file is named {tag}.toml")
    check_config(config, shown)
    return config


@lru_cache(maxsize=None)
def get_lexicons(language: str) -> dict[str, dict[str, str]]:
    """Every lexicon named in the config of ``language``, loaded once."""
    config = get_config(language)
    return {name: load_lexicon(configs_dir() / relative, shown_config_file(relative))
            for name, relative in config.lexicons.items()}


def get_normalizer(language: str, profile: str | None = None) -> Pipeline:
    """The built normalizer of ``language``: its config's ``steps``, or with ``profile`` the
    steps of ``[profiles.<profile>]`` over the same tables (cached per (language, profile):
    configs are never re-read per call).

    Raises:
        UnknownLanguageError: no config for the language.
        ConfigError: the config names an unknown step or a lexicon that is missing or
            malformed; ``profile`` is not one of the config's profiles (the message lists them).
    """
    return _normalizer(resolve_language(language), profile)


@lru_cache(maxsize=None)
def _normalizer(tag: str, profile: str | None) -> Pipeline:
    config = get_config(tag)
    if profile is None:
        return build_pipeline(tag, config.steps)
    if profile not in config.profiles:
        known = ", ".join(sorted(config.profiles)) or "none"
        raise ConfigError(f"{shown_config_file(tag + '.toml')}: no profile {profile!r}; "
                          f"its profiles: {known}. Define it as [profiles.{profile}] steps = [...]")
    return build_pipeline(tag, config.profiles[profile].steps)


def build_pipeline(language: str, names) -> Pipeline:
    """A pipeline of the named steps, built with the config and lexicons of ``language``
    (a resolved tag). :func:`get_normalizer` builds the config's own list; case kinds build
    subsets (the surface steps of ``untouched``).

    Raises:
        ConfigError: a name is not a registered step.
    """
    config = get_config(language)
    lexicons = get_lexicons(language)
    steps = []
    for name in names:
        if name not in STEPS:
            raise ConfigError(
                f"{shown_config_file(language + '.toml')}: unknown step {name!r}; known steps: "
                f"{', '.join(sorted(STEPS))}"
            )
        steps.append(Step(name, STEPS[name].build(config, lexicons), name in IDEMPOTENT))
    return Pipeline(language, tuple(steps))


def normalize_text(text: str, language: str) -> str:
    """The normalized form of ``text`` used for scoring in ``language``.

    Cased scripts are lowercased, punctuation removed and whitespace collapsed to single
    spaces; character-scored languages may drop spaces (they list the ``remove_spaces`` step).

    Raises:
        TypeError: ``text`` is not a ``str``.
        UnknownLanguageError: (a ``ValueError``) no config for ``language``.
    """
    if not isinstance(text, str):
        raise InputTypeError(f"normalize_text expects a str, got {type(text).__name__}")
    return get_normalizer(language)(text)


def explain(text: str, language: str) -> list[tuple[str, str]]:
    """Every step of the normalizer of ``language`` with its output: ``[(step name, text), ...]``."""
    if not isinstance(text, str):
        raise InputTypeError(f"explain expects a str, got {type(text).__name__}")
    return get_normalizer(language).explain(text)


#: What is read once per config search path: dropped by :func:`clear_caches` and by the
#: plugin's one reset of the process's caches.
_CACHED = (configs_dir, _known_languages, get_config, get_lexicons, _normalizer, _resolved)


def clear_caches() -> None:
    """Drop every config, lexicon and normalizer read so far (each is read again on first use)."""
    for cached in _CACHED:
        cached.cache_clear()


for _cached in _CACHED:
    caches.register(_cached.cache_clear, f"normalize.registry.{_cached.__name__}")
