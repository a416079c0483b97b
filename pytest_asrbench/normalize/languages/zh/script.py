"""Simplified/Traditional Chinese conversion through OpenCC, reached lazily.

OpenCC (the ``opencc`` distribution on PyPI: the C++ library with its dictionaries, pinned
exactly in ``pyproject.toml`` because a release has changed conversions before) converts
phrase by phrase, then character by character. zh-eval-v1 uses two of its stock
configurations, and nothing else:

- ``tw2s`` (Traditional, Taiwan standard characters included, to Simplified), step
  ``zh_eval_v1_to_simplified``: like ``t2s``, and it also folds the Taiwan variants
  (``著急`` -> ``着急``, which ``t2s`` leaves as ``著急``);
- ``s2tw`` (Simplified to Taiwan standard Traditional characters), step
  ``zh_eval_v1_to_traditional``: the protocol's Traditional slice is Taiwan Mandarin
  (``zh-TW``), and plain ``s2t`` writes forms Taiwan references do not use
  (``吃饭`` -> ``喫飯``, ``这里`` -> ``這裏``; ``s2tw`` gives ``吃飯``, ``這裡``).

Character variants only: the phrase configurations (``s2twp``, ``tw2sp``: Taiwan vocabulary
such as 软件/軟體) rewrite words, not the script, and are not part of v1; nor are Hong Kong
forms (``s2hk``). Converters are built once per configuration.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.errors import ConverterUnavailableError
from pytest_asrbench.normalize.steps.registry import step

#: The OpenCC configuration of each target script in zh-eval-v1.
V1_CONFIGS: dict[str, str] = {"simplified": "tw2s", "traditional": "s2tw"}
#: The OpenCC release the v1 figures are recorded with (the pin of ``pyproject.toml``).
V1_OPENCC = "1.4.2"


class ScriptConverterError(ConverterUnavailableError):
    """OpenCC is not installed, or a conversion of it did not load. The CER view that needs it
    reports ``None`` with this message instead of a number (``docs/mandarin.md``)."""


def opencc_version() -> str | None:
    """The installed OpenCC version (``"1.4.2"``), or ``None`` when it is not installed."""
    return installed_version("opencc")


@lru_cache(maxsize=None)
def converter(configuration: str) -> Callable[[str], str]:
    """OpenCC's ``convert`` for ``configuration`` (``"t2s"``, ``"s2t"`` ...): ``str -> str``.

    Raises:
        ScriptConverterError: OpenCC is not installed, or the configuration did not load
            (the message names the pip command of the pinned release).
    """
    try:
        import opencc
    except ImportError as exc:
        raise ScriptConverterError(
            f"script conversion needs OpenCC: pip install 'opencc=={V1_OPENCC}' ({exc})") from exc
    try:
        return opencc.OpenCC(configuration).convert
    except RuntimeError as exc:  # the binding's error for a configuration or data file it cannot open
        raise ScriptConverterError(
            f"OpenCC {opencc_version()} could not load its {configuration!r} conversion ({exc}); "
            f"reinstall it: pip install --force-reinstall 'opencc=={V1_OPENCC}'") from exc


@step("zh_eval_v1_to_simplified", language="zh", libraries=("opencc",))
def zh_eval_v1_to_simplified(config, lexicons):
    """Traditional (Taiwan standard included) to Simplified (OpenCC ``tw2s``).

    Raises (when the profile is built): ScriptConverterError (see :func:`converter`).
    """
    return converter(V1_CONFIGS["simplified"])


@step("zh_eval_v1_to_traditional", language="zh", libraries=("opencc",))
def zh_eval_v1_to_traditional(config, lexicons):
    """Simplified to Taiwan standard Traditional characters (OpenCC ``s2tw``).

    Raises (when the profile is built): ScriptConverterError (see :func:`converter`).
    """
    return converter(V1_CONFIGS["traditional"])
