"""pythainlp, reached lazily: the tokenizer, ``normalize`` and the number-word reader.

pythainlp loads its dictionary on first use (about a second), so nothing here imports it at
module level: importing the normalizer stays cheap, and only a Thai pipeline that runs pays.
pythainlp is a core dependency pinned to 5.3.5 (``pyproject.toml``); its version is in the
Thai metric signatures (the steps that call it declare ``libraries=("pythainlp",)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.normalize.steps.phrases import trie_pattern


class PythainlpVersionError(AsrbenchError, ImportError):
    """pythainlp is missing, or a frozen profile's pinned pythainlp is not the installed one."""


def installed_version() -> str:
    """The installed pythainlp version (``"5.3.5"``).

    Raises:
        PythainlpVersionError: pythainlp is not installed.
    """
    try:
        import pythainlp
    except ImportError as exc:
        raise PythainlpVersionError(f"the Thai normalizer needs pythainlp: pip install 'pythainlp==5.3.5' ({exc})") from exc
    return getattr(pythainlp, "__version__", "unknown")


def require_version(required: str, what: str) -> None:
    """Check that pythainlp ``required`` is installed, for ``what`` (a frozen profile's name).

    Raises:
        PythainlpVersionError: another version is installed (its outputs may differ, which
            would silently move figures recorded with the frozen profile); the message names
            the pip command that installs the pinned one.
    """
    installed = installed_version()
    if installed != required:
        raise PythainlpVersionError(
            f"{what} is defined with pythainlp {required}, but {installed} is installed: "
            f"pip install 'pythainlp=={required}' (or pip install 'pytest-asrbench[bench]')")


@lru_cache(maxsize=1)
def thai_normalize() -> Callable[[str], str]:
    """``pythainlp.util.normalize``: zero-width spaces and non-joiners removed, runs of spaces
    made one, spaces before marks removed, vowels and tone marks reordered and de-duplicated
    (``นำ้`` -> ``น้ำ``, ``เเ`` -> ``แ``), dangling marks after a space or at the start removed."""
    installed_version()
    from pythainlp.util import normalize

    return normalize


@lru_cache(maxsize=1)
def word_tokenize() -> Callable[[str], list[str]]:
    """pythainlp's default word tokenizer (``newmm``, its own dictionary): ``str -> [token, ...]``,
    tokens (spaces included) concatenating back to the text."""
    installed_version()
    from pythainlp.tokenize import word_tokenize as tokenize

    return tokenize


@lru_cache(maxsize=1)
def expand_maiyamok() -> Callable[[str], list[str]]:
    """``pythainlp.util.expand_maiyamok``: ``"เด็กๆ"`` -> ``["เด็ก", "เด็ก"]``."""
    installed_version()
    from pythainlp.util import expand_maiyamok as expand

    return expand


@lru_cache(maxsize=1)
def thaiword_to_num() -> Callable[[str], int]:
    """``pythainlp.util.thaiword_to_num``: ``"สามร้อยยี่สิบห้า"`` -> ``325``; ``ValueError`` when
    the word is not a well-formed Thai numeral."""
    installed_version()
    from pythainlp.util import thaiword_to_num as to_num

    return to_num


@lru_cache(maxsize=1)
def _spaced_entries() -> re.Pattern[str]:
    """Where a dictionary entry with a space in it (``เร็ว ๆ นี้``, a proverb, a name: 611 in
    pythainlp 5.3.5's word list) may continue across a space: a space and then what follows
    the first space of such an entry. A text with none is tokenized the same chunk by chunk."""
    installed_version()
    from pythainlp.corpus import thai_words

    continuations = sorted({word.split(" ", 1)[1] for word in thai_words() if " " in word})
    # As a trie: one branch tried per character after a space, not one per entry.
    return re.compile(" +(?:" + trie_pattern(continuations) + ")")


_SPACE_RUNS = re.compile("( +)")
_OTHER_WHITESPACE = re.compile(r"[^\S ]")


@lru_cache(maxsize=65536)
def _chunk_tokens(chunk: str) -> tuple[str, ...]:
    return tuple(word_tokenize()(chunk))


@lru_cache(maxsize=16384)
def _text_tokens(text: str) -> tuple[str, ...]:
    return tuple(word_tokenize()(text))


def tokenize_by_chunks(text: str) -> list[str]:
    """pythainlp's tokens of ``text``, tokenized one space-free chunk at a time with the
    chunks' tokens cached (the same chunks recur across texts: ราคา, บาท, ครับ); every run
    of spaces is one token, as ``newmm`` gives it. A text with other whitespace (tabs, line
    breaks: the pipeline's ``unicode_whitespace`` leaves none) is tokenized whole (cached per text).
    ``tests/normalize/test_thai_speed_paths.py`` checks this equals :func:`word_tokenize` on the whole text."""
    if _OTHER_WHITESPACE.search(text) or _spaced_entries().search(text):
        return list(_text_tokens(text))
    tokens: list[str] = []
    for piece in _SPACE_RUNS.split(text):
        if not piece:
            continue
        if piece.isspace():
            tokens.append(piece)
        else:
            tokens.extend(_chunk_tokens(piece))
    return tokens
