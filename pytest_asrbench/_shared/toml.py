"""TOML documents (language configs, ``pyproject.toml``): one loader, one error."""

from __future__ import annotations

import sys

from pytest_asrbench.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


def load_toml(data: bytes | str, where: object) -> dict:
    """The parsed document ``data`` (UTF-8 bytes or text).

    Raises:
        ConfigError: not UTF-8 or not valid TOML; the message starts with ``where`` (a path).
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from exc
