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
import re
from functools import lru_cache
from typing import Literal

from pydantic import Field

from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.errors import ConfigError, ConverterUnavailableError
from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.pipeline import triggered
from pytest_asrbench.normalize.steps.phrases import trie_pattern
from pytest_asrbench.normalize.steps.registry import require_lexicon, step

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


class ScriptFoldOptions(StepOptions):
    """``[options.zh_script]``: which script the reviewer normalizer writes both texts in."""

    fold: Literal["simplified", "traditional", "keep"] = Field(
        "simplified",
        description="'simplified' (OpenCC tw2s: 謝謝 = 谢谢), 'traditional' (OpenCC s2tw) or 'keep' "
                    "(no conversion: teams whose references must keep the two scripts apart).")


@step("zh_script", language="zh", options=ScriptFoldOptions)
def zh_script(config, lexicons, options: ScriptFoldOptions):
    """The reviewer normalizer's script folding: Traditional and Simplified forms of the same
    text compare equal (``謝謝你們`` = ``谢谢你们``), through the OpenCC configuration of
    zh-eval-v1's script view for the chosen script (``tw2s`` or ``s2tw``: character variants
    only, never Taiwan vocabulary such as 軟體/软件). OpenCC is called only for a text holding
    one of its dictionary keys (lexicons ``opencc_tw2s`` and ``opencc_s2tw``, see
    :func:`key_pattern`); any other text is returned as it is, which is what OpenCC would
    return. ``fold = "keep"`` turns it off, for a
    project that must count a script mismatch as an error (a project config layer sets
    ``[options.zh_script] fold = "keep"``, configs/README.md). zh-eval-v1 is untouched: its
    ``cer_raw``, ``cer_punct`` and ``cer_normalized`` views still count script mismatches.

    Raises (when the pipeline is built): ScriptConverterError (see :func:`converter`).
    """
    if options.fold == "keep":
        return lambda text: text
    configuration = V1_CONFIGS[options.fold]
    convert = converter(configuration)

    def run(text: str) -> str:
        out = convert(text)
        return text if out == text else out

    # A text with no dictionary key of OpenCC's is one OpenCC returns as it is: skipped.
    return triggered(key_pattern(require_lexicon(lexicons, f"opencc_{configuration}", "zh_script")), run)


def key_pattern(table) -> re.Pattern[str]:
    """A pattern that finds a dictionary key of an OpenCC configuration in a text, from its
    table ``configs/zh/opencc_<configuration>.tsv`` (``U+XXXX<TAB>character`` for a
    one-character key, ``phrase<TAB>phrase`` for a longer key with none of those characters;
    ``scripts/opencc_key_chars.py`` writes it from OpenCC's dictionaries), plus every
    character beyond the Basic Multilingual Plane. A text where it finds nothing is one
    OpenCC returns unchanged.

    Raises:
        ConfigError: a row is neither kind, or a character row is not ``U+`` and hex digits.
    """
    chars, phrases = set(), []
    for key, kind in table.items():
        if kind == "character" and re.fullmatch("U\\+[0-9A-F]{4,6}", key):
            chars.add(chr(int(key[2:], 16)))
        elif kind == "phrase":
            phrases.append(key)
        else:
            raise ConfigError(f"OpenCC key table: {key!r} -> {kind!r}; write 'U+XXXX<TAB>character' or "
                              "'<phrase><TAB>phrase' (scripts/opencc_key_chars.py writes the table)")
    # One leading class (every key character, the first character of every phrase), so ``re``
    # skips in C to where a key can start; then a key character, or the rest of a phrase.
    # ``re`` tests a member of a class by one table lookup only for the Basic Multilingual
    # Plane: a class that lists characters beyond it is searched member by member (60 times
    # slower on the 898 such keys), so every character beyond it counts as a key (rare in
    # text; OpenCC then runs and returns the right output either way).
    keys = "".join(re.escape(char) for char in sorted(char for char in chars if char <= "\uffff")) + "\U00010000-\U0010ffff"
    by_first: dict[str, list[str]] = {}
    for phrase in phrases:
        by_first.setdefault(phrase[0], []).append(phrase[1:])
    firsts = "".join(re.escape(first) for first in sorted(by_first))
    rests = "".join(f"|(?<={re.escape(first)}){trie_pattern(sorted(by_first[first]))}" for first in sorted(by_first))
    return re.compile(f"[{keys}{firsts}](?:(?<=[{keys}]){rests})")


def trigger_pattern(table) -> Callable[[str], bool]:
    """``can_change(text)``: whether an OpenCC configuration can change ``text`` (a key of
    :func:`key_pattern` is in it).

    Raises:
        ConfigError: as :func:`key_pattern`.
    """
    search = key_pattern(table).search
    return lambda text: search(text) is not None
