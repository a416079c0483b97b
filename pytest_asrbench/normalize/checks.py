"""Check a loaded :class:`~pytest_asrbench.normalize.config.LanguageConfig` against the step registry.

:func:`~pytest_asrbench.normalize.config.load_config` checks a file's shape; this module
checks what only the registry knows, and names the file and the table in every error:

- every name in ``steps`` and in each ``[profiles.<name>] steps`` is a registered step;
- a step that belongs to a language (``@step(..., language="en")``) is listed only by that
  language's config, or by a config naming that language in ``code_switch_languages``
  (Hindi lists English steps for its English view);
- each ``[options.<step>]`` table belongs to a listed step that takes options, and
  validates against that step's model (an unknown key is an error, never ignored);
- every list keeps the order its steps declare (``@step(..., before={...}, after={...})``,
  :mod:`pytest_asrbench.normalize.steps.registry`): the error names both steps and the
  declared reason;
- a step listed more than once has a reason for each later listing in ``[repeats]``, and
  ``[repeats]`` names only steps some list repeats.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import LanguageConfig
import pytest_asrbench.normalize.languages  # noqa: F401  (registers the language packages' steps)
from pytest_asrbench.normalize.steps import STEPS


def step_lists(config: LanguageConfig) -> dict[str, list[str]]:
    """``{"steps": [...], "profiles.<name>": [...]}``: every step list of the config, by its key."""
    lists = {"steps": list(config.steps)}
    for name, profile in config.profiles.items():
        lists[f"profiles.{name}"] = list(profile.steps)
    return lists


def check_config(config: LanguageConfig, path: Path) -> None:
    """Raise :class:`ConfigError` (naming ``path``) at the first step list, step or option
    table of ``config`` the registry rejects; see the module docstring for the rules."""
    allowed_languages = {config.language, *config.code_switch_languages}
    listed: set[str] = set()
    for key, names in step_lists(config).items():
        for name in names:
            spec = STEPS.get(name)
            if spec is None:
                raise ConfigError(f"{path}: {key}: unknown step {name!r}; known steps: {', '.join(sorted(STEPS))}")
            if spec.language is not None and spec.language not in allowed_languages:
                raise ConfigError(
                    f"{path}: {key}: step {name!r} belongs to language {spec.language!r} and cannot be listed "
                    f"by a {config.language!r} config (only by {spec.language}.toml, or a config whose "
                    f"code_switch_languages names {spec.language!r}); use a generic step or one of "
                    f"{config.language!r}'s own")
            listed.add(name)
        check_order(names, f"{path}: {key}")
    check_repeats(config, path)
    for name, table in config.options.items():
        where = f"{path}: [options.{name}]"
        spec = STEPS.get(name)
        if spec is None:
            raise ConfigError(f"{where}: no step is called {name!r}; known steps: {', '.join(sorted(STEPS))}")
        if spec.options is None:
            raise ConfigError(f"{where}: step {name!r} takes no options; remove the table")
        if name not in listed:
            raise ConfigError(f"{where}: step {name!r} is not listed in steps or any profile; "
                              f"list it or remove the table")
        try:
            spec.parse_options(table)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '<table>'}: {err['msg']}" for err in exc.errors())
            fields = ", ".join(spec.options.model_fields)
            raise ConfigError(f"{where}: {problems} (the table's keys are: {fields}). "
                              f"See configs/README.md") from exc


def order_violation(names: list[str]) -> str | None:
    """The first declared order rule the step list ``names`` breaks, as a sentence naming both
    steps, their positions (1-based) and the rule's reason; ``None`` when it keeps every rule.
    A rule applies only when the list names both of its steps."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for position, name in enumerate(names, 1):
        first.setdefault(name, position)
        last[name] = position
    for name in first:
        spec = STEPS.get(name)
        if spec is None:
            continue
        for other, reason in spec.before:
            if other in first and last[name] > first[other]:
                return (f"step {name!r} (position {last[name]}) must run before {other!r} (position {first[other]}): "
                        f"{reason}; move {name!r} above {other!r}")
        for other, reason in spec.after:
            if other in first and first[other] > first[name]:
                return (f"step {name!r} (position {first[name]}) must run after {other!r} (position {first[other]}): "
                        f"{reason}; move {name!r} below {other!r}")
    return None


def check_order(names: list[str], where: str) -> None:
    """Raise :class:`ConfigError` (prefixed by ``where``) when ``names`` breaks a declared
    order rule (:func:`order_violation`)."""
    problem = order_violation(names)
    if problem is not None:
        raise ConfigError(f"{where}: {problem}")


def check_repeats(config: LanguageConfig, path: Path) -> None:
    """Raise :class:`ConfigError` (naming ``path``) when a step list repeats a step without a
    reason for each later listing in ``[repeats]``, or ``[repeats]`` names a step no list repeats."""
    repeated: set[str] = set()
    for key, names in step_lists(config).items():
        for name in dict.fromkeys(names):
            count = names.count(name)
            if count < 2:
                continue
            repeated.add(name)
            given = config.repeats.get(name, [])
            reasons = [given] if isinstance(given, str) else list(given)
            if len(reasons) < count - 1:
                raise ConfigError(
                    f"{path}: {key}: step {name!r} is listed {count} times but [repeats] gives "
                    f"{len(reasons)} reason(s); say why each later listing runs again, e.g. "
                    f"[repeats] {name} = \"<what the steps before it made that it must handle again>\" "
                    f"(a list for more than one), or remove the extra listing")
    stale = sorted(set(config.repeats) - repeated)
    if stale:
        raise ConfigError(f"{path}: [repeats] names {', '.join(map(repr, stale))}, which no step list repeats; "
                          f"remove the entry")
