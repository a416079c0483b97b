"""Check a loaded :class:`~pytest_asrbench.normalize.config.LanguageConfig` against the step registry.

:func:`~pytest_asrbench.normalize.config.load_config` checks a file's shape; this module
checks what only the registry knows, and names the file and the table in every error:

- every name in ``steps`` and in each ``[profiles.<name>] steps`` is a registered step;
- a step that belongs to a language (``@step(..., language="en")``) is listed only by that
  language's config, or by a config naming that language in ``code_switch_languages``
  (Hindi lists English steps for its English view);
- each ``[options.<step>]`` table belongs to a listed step that takes options, and
  validates against that step's model (an unknown key is an error, never ignored).
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
