"""A project's pytest settings read without pytest: its root folder and ``asrbench_*`` options.

Commands that run outside a pytest session (``asrbench check-version``, the pre-commit
hook) need the same project settings the plugin reads: the ``asrbench_config_dirs`` and
``asrbench_case_dirs`` ini options. :func:`find_settings` looks for the file pytest itself
would take as the project's ini file, in pytest's order of precedence within one folder
(pytest docs, "Initialization: determining rootdir and configfile"):

- ``pytest.ini`` (also ``.pytest.ini``): always the ini file, even without a ``[pytest]`` section;
- ``pyproject.toml`` with a ``[tool.pytest.ini_options]`` table;
- ``tox.ini`` with a ``[pytest]`` section;
- ``setup.cfg`` with a ``[tool:pytest]`` section;

from the start folder upwards; the folder holding it is the project root (pytest's rootdir).
Values of ``args`` options are split as pytest splits them (``shlex`` for ini files; a TOML
list or a string in ``pyproject.toml``).
"""

from __future__ import annotations

import configparser
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench._shared.config_layers import ENV_VAR, env_config_dirs, project_config_dirs
from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench.errors import ConfigError

#: ``(file name, section)`` in pytest's order of precedence within one folder; ``None`` for
#: pyproject.toml's TOML table.
INI_FILES: tuple[tuple[str, str | None], ...] = (
    ("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("pyproject.toml", None), ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"))


@dataclass(frozen=True)
class ProjectSettings:
    """The project root (the folder of its ini file, or the start folder when there is none),
    the ini file (``None`` when there is none) and its raw ``[pytest]`` options."""

    root: Path
    ini_file: Path | None = None
    options: dict[str, object] = field(default_factory=dict)

    def args(self, name: str, default: list[str] | None = None) -> list[str]:
        """The option ``name`` as a list of words (pytest's ``type="args"``); ``default`` when unset.

        Raises:
            ConfigError: the value is neither a string nor a list of strings (names the file).
        """
        if name not in self.options:
            return list(default or [])
        value = self.options[name]
        if isinstance(value, str):
            return shlex.split(value)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return list(value)
        raise ConfigError(f"{self.ini_file}: {name} must be a list of folder names or one string of them "
                          f"separated by spaces, not {value!r}")


    def text(self, name: str, default: str) -> str:
        """The option ``name`` as one string (pytest's ``type="string"``); ``default`` when unset or empty.

        Raises:
            ConfigError: the value is not a string (names the file).
        """
        value = self.options.get(name, "")
        if not isinstance(value, str):
            raise ConfigError(f"{self.ini_file}: {name} must be one string (a folder name), not {value!r}")
        return value.strip() or default


def _read(path: Path, section: str | None) -> dict[str, object] | None:
    """The pytest options in ``path``, or ``None`` when the file does not configure pytest."""
    if section is None:
        table = load_toml(path.read_bytes(), path).get("tool", {}).get("pytest", {})
        options = table.get("ini_options") if isinstance(table, dict) else None
        return dict(options) if isinstance(options, dict) else None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8"), source=str(path))
    except configparser.Error as exc:
        raise ConfigError(f"{path}: not a valid ini file ({exc}); fix it so pytest can read it too") from None
    if not parser.has_section(section):
        return {} if path.name in ("pytest.ini", ".pytest.ini") else None
    return dict(parser.items(section))


def find_settings(start: Path) -> ProjectSettings:
    """The pytest settings of the project holding ``start`` (see the module docstring).

    Raises:
        ConfigError: an ini file that configures pytest cannot be parsed.
    """
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        for name, section in INI_FILES:
            path = folder / name
            if path.is_file():
                options = _read(path, section)
                if options is not None:
                    return ProjectSettings(folder, path, options)
    return ProjectSettings(start)


def project_config_folders(settings: ProjectSettings, given: list[Path],
                           environ: dict[str, str] | None = None) -> list[Path]:
    """The project's config folders, absolute and in search order: ``given`` (``--config-dir``,
    relative to the current folder), then the ``asrbench_config_dirs`` option of its ini file
    (relative to the project root), then ``ASRBENCH_CONFIG_DIRS`` (of ``environ``, default
    ``os.environ``); a folder named twice is kept at its first place. ``[]`` when nothing names
    one. Every ``asrbench`` command that reads language configs and ``asrbench check-version``
    search the same list, so they see the configs a pytest run of the project sees.

    Raises:
        ConfigError: a named folder does not exist or is not a folder (the message names the
            setting that named it).
    """
    ini = [settings.root / folder for folder in settings.args("asrbench_config_dirs")]
    where = f"the asrbench_config_dirs option of {settings.ini_file}" if settings.ini_file else "asrbench_config_dirs"
    return project_config_dirs(("--config-dir", list(given)), (where, ini),
                               (f"the {ENV_VAR} variable", env_config_dirs(environ)))
