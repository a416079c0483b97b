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
from itertools import accumulate

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


@lru_cache(maxsize=1)
def cluster_boundaries() -> Callable[[str], bytearray]:
    """``pythainlp.tokenize.tcc_p.tcc_pos_array``: ``str -> bytearray`` of ``len(text) + 1``
    flags, 1 where a Thai character cluster ends (the only places ``newmm`` may end a word)."""
    installed_version()
    from pythainlp.tokenize.tcc_p import tcc_pos_array

    return tcc_pos_array


@lru_cache(maxsize=4)
def _inner_enders(morphemes: tuple[str, ...]) -> dict[str, tuple[str, ...]] | None:
    """The dictionary words a run of ``morphemes`` can begin with that end inside a morpheme
    (``สิ`` in สิบ, ``สามสี`` in สามสี่: 18 in pythainlp 5.3.5) by their first character, read
    once from the dictionary; ``None`` when a morpheme is a prefix of another (a run would have two readings) or is no
    dictionary word (``newmm`` could fall back to its cut between clusters)."""
    installed_version()
    from pythainlp.tokenize import word_dict_trie

    if any(a != b and b.startswith(a) for a in morphemes for b in morphemes):
        return None
    dictionary = set(word_dict_trie())
    if not dictionary.issuperset(morphemes):
        return None
    firsts = {morpheme[0] for morpheme in morphemes}
    enders = []
    for word in dictionary:
        if word[:1] not in firsts:
            continue
        position = 0
        while position < len(word):  # whole morphemes: one reading at most
            rest = word[position:]
            whole = next((m for m in morphemes if rest.startswith(m)), None)
            if whole is None:
                if any(m.startswith(rest) for m in morphemes):
                    enders.append(word)
                break
            position += len(whole)
    by_first: dict[str, list[str]] = {}
    for word in sorted(enders):
        by_first.setdefault(word[0], []).append(word)
    return {first: tuple(words) for first, words in by_first.items()}


@lru_cache(maxsize=4)
def _morpheme_clusters(morphemes: tuple[str, ...]) -> dict[str, bytes]:
    """Each morpheme's character-cluster ends, read once from pythainlp's TCC rules
    (:func:`cluster_boundaries`) on the morpheme alone: ``bytes`` of ``len(morpheme)`` flags,
    flag ``i`` set when a cluster ends after character ``i`` (``สิบ`` -> ``b"\\x00\\x01\\x01"``)."""
    boundaries = cluster_boundaries()
    return {morpheme: bytes(boundaries(morpheme)[1:]) for morpheme in morphemes}


def run_clusters(pieces: list[str], morphemes: tuple[str, ...]) -> bytes:
    """:func:`cluster_boundaries` of ``"".join(pieces)``, a run of ``morphemes`` (``pieces``:
    the run's morphemes in order), as table look-ups: the clusters of a run are those of its
    morphemes, each alone, side by side. Why that holds for every run: a TCC pattern matches at
    most 11 characters and looks one further, so the clusters that start inside a morpheme
    depend on it and at most the 11 characters after it; pythainlp's own ``tcc_pos_array``
    gives each morpheme's clusters and a boundary at its end after every sequence of morphemes
    long enough to cover what its last cluster can read, and at the end of a run (all 651,672
    such texts of pythainlp 5.3.5's rules: ``tests/normalize/test_thai_speed_paths.py``).

    Raises:
        KeyError: a piece is not one of ``morphemes``.
    """
    table = _morpheme_clusters(morphemes)
    return b"\x00" + b"".join([table[piece] for piece in pieces])


def splits_between(pieces: list[str], morphemes: tuple[str, ...]) -> bool:
    """Whether ``newmm`` (pythainlp's default dictionary) splits ``"".join(pieces)``, a
    space-free run of ``morphemes`` (``pieces``: the run's morphemes in order), only between
    morphemes: every token it gives is then a run of whole morphemes, so a caller for whom
    only that matters need not tokenize the run.

    ``True`` when (1) every morpheme's end ends a character cluster (:func:`run_clusters`), so
    the next morpheme, a dictionary word, is a word ``newmm`` can take from each boundary, and
    (2) no position inside a morpheme that ``newmm`` can reach from a boundary, through a word
    that ends inside a morpheme (:func:`_inner_enders`) and then any dictionary words, each
    ending at a cluster, leads back to a boundary (``สามสิบ``: สา, then มสิ, then nothing from
    บ). Why that suffices (``newmm._onecut``): positions are visited in increasing order, so
    the next boundary is always pending and the queue never narrows to a position inside a
    morpheme; it narrows at a boundary, and the shortest path to it, the tokens, cannot pass
    through a position from which no path reaches a boundary. ``False`` also when the morphemes fail
    :func:`_inner_enders`' conditions. ``tests/normalize/test_thai_speed_paths.py`` checks it
    against the tokenizer.

    Raises:
        KeyError: a piece is not one of ``morphemes``.
    """
    enders = _inner_enders(morphemes)
    if enders is None:
        return False
    chunk = "".join(pieces)
    clusters = run_clusters(pieces, morphemes)
    boundaries = list(accumulate(map(len, pieces)))
    if not all(clusters[end] for end in boundaries):
        return False
    # The positions inside morphemes newmm can reach from a boundary (a word ending at a cluster)...
    inner_positions = [start + len(word) for start in (0, *boundaries[:-1])
                       for word in enders.get(chunk[start], ()) if chunk.startswith(word, start)]
    pending = [inner for inner in inner_positions if clusters[inner]]
    if not pending:
        return True
    from pythainlp.tokenize import word_dict_trie

    dictionary = word_dict_trie()
    ends = set(boundaries)
    seen: set[int] = set()
    while pending:  # ...and on from them, word by word: none may come back to a boundary
        inner = pending.pop()
        if inner in seen:
            continue
        seen.add(inner)
        for after in dictionary.prefixes(chunk, inner):
            end = inner + len(after)
            if clusters[end]:
                if end in ends:
                    return False
                pending.append(end)
    return True


_SPACE_RUNS = re.compile("( +)")
_OTHER_WHITESPACE = re.compile(r"[^\S ]")


@lru_cache(maxsize=65536)
def chunk_tokens(chunk: str) -> tuple[str, ...]:
    """pythainlp's tokens of one space-free ``chunk``, cached per chunk (chunks are words and
    short phrases that recur across texts: ราคา, บาท, ครับ)."""
    return tuple(word_tokenize()(chunk))


def tokenizes_by_chunks(text: str) -> bool:
    """Whether pythainlp's tokens of ``text`` are those of its space-free chunks with each
    run of spaces one token between them: ``False`` when ``text`` has whitespace other than
    the plain space (tabs, line breaks: the pipeline's ``unicode_whitespace`` leaves none) or
    a space where a dictionary entry with a space in it may continue (``เร็ว ๆ นี้``).
    ``tests/normalize/test_thai_speed_paths.py`` checks the chunks' tokens against the whole text's."""
    return not (_OTHER_WHITESPACE.search(text) or _spaced_entries().search(text))


def tokenize_by_chunks(text: str, keep_whole: Callable[[list[str], int], bool] | None = None) -> list[str]:
    """pythainlp's tokens of ``text``, tokenized one space-free chunk at a time with the
    chunks' tokens cached (the same chunks recur across texts: ราคา, บาท, ครับ); every run
    of spaces is one token, as ``newmm`` gives it. A text with other whitespace (tabs, line
    breaks: the pipeline's ``unicode_whitespace`` leaves none) or a spaced dictionary entry is
    tokenized whole (:func:`tokenizes_by_chunks`).
    ``tests/normalize/test_thai_speed_paths.py`` checks this equals :func:`word_tokenize` on the whole text.

    ``keep_whole(chunks, index)``: given the text's space-free chunks in order, whether chunk
    ``index`` is one token, not tokenized (the caller's guarantee that how ``newmm`` would
    split it does not matter to it); never asked of a text tokenized whole."""
    if not tokenizes_by_chunks(text):
        return word_tokenize()(text)
    pieces = [piece for piece in _SPACE_RUNS.split(text) if piece]
    chunks = [piece for piece in pieces if not piece.isspace()]
    tokens: list[str] = []
    index = 0
    for piece in pieces:
        if piece.isspace():
            tokens.append(piece)
            continue
        if keep_whole is not None and keep_whole(chunks, index):
            tokens.append(piece)
        else:
            tokens.extend(chunk_tokens(piece))
        index += 1
    return tokens
