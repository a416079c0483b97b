"""The English normalizer gives the same outputs as when its digests were recorded.

Speed work on the English pipeline (one word pass shared by the table-driven steps, fewer
regex passes, lexicon alternations built once, step triggers) must never move an output.
Outputs are compared, as SHA-256 digests (the helpers of ``test_cjk_thai_output_identity``),
with the outputs recorded from the code before that work, on three inputs:

* the whole English throughput corpus (``benchmarks/normalize_throughput.py``, its default
  60,000 utterances and seed);
* every string value of ``cases/en/*.yaml`` as they were then (kept in
  ``english_digests.json``, so later case edits do not weaken the check);
* 20,000 strings from a seeded generator that joins pieces of what the steps act on: words
  and short slices of the throughput corpus, every cell of the English lexicons
  (``configs/en/*.tsv``), every word of the config's option lists, number words, ASCII digits
  and number shapes, spoken and written symbols, both cases, other scripts, spaces and
  invisible characters.

A change meant to move an output re-records the digests from the new code (and bumps the
config version by a minor step): ``python -m tests.test_english_output_identity`` from the
repository root.
"""

from __future__ import annotations

import random
import sys
import tomllib
from pathlib import Path

import pytest

from tests.digests import RecordedDigests, assert_generator_reaches, case_texts, normalizer
from tests.test_cjk_thai_output_identity import outputs_digest

#: A sweep over every case text and thousands of seeded strings: left out of the everyday loop.
pytestmark = pytest.mark.slow

DIGESTS = RecordedDigests(Path(__file__).with_name("english_digests.json"))
ROOT = Path(__file__).resolve().parents[1]
CORPUS_COUNT = 60_000
CORPUS_SEED = 20240601
RANDOM_SEED = 20261202
RANDOM_COUNT = 20_000

_NUMBER_WORDS = (
    "zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
    "thousand million billion first second third fourth fifth twelfth twentieth thirtieth half halves "
    "quarter quarters third thirds dozen point and a minus negative dollars cents pounds pence euros "
    "percent o'clock oclock am pm a.m. p.m. dash hyphen underscore slash forward at dot com"
).split()
_SHARED = (
    list("0123456789") + ["12", "2019", "1990s", "'90s", "3.5", ".5", "1,000", "10,000,000", "555-1234",
                          "(555) 010-4477", "50%", "3:30", "7:05", "1/3", "2 3/4", "½", "¾", "-7", "0.25",
                          "1st", "2nd", "3rd", "21st", "$5", "$5.20", "£20.50", "€3", "5$", "24/7", "10mm",
                          "25°C", "°F", "℃", "A1", "B-12", "ABC123", "x@y.com", "U.S.A.", "e.g.", "Dr.", "St."]
    + list(".,:;!?%-_/$@#&+=()[]{}<>\"'*~^|\\") + ["...", "--", "—", "–", "’", "‘", "“", "”", "ʼ", "′"]
    + ["I'm", "she's", "I'd", "won't", "can't", "y'all", "o'clock", "John's", "ISN'T", "We’re", "it's"]
    + ["A", "b", "Z", "x", "İ", "é", "ß", "Ä", "ﬁ", "ｶ", "①", "²", "我们", "한국어", "नमस्ते", "Москва", "ภาษา"]
    + [" ", " ", " ", "  ", "\t", "\n", "\u200b", "\u200c", "\u200d", "\u00a0", "\u3000", "\ufeff", "\u00ad",
       "\u0301", "\u200e"]
    + ["[laughter]", "(inaudible)", "<noise>", "[", "]", "(", ")", "uh", "Um,", "hmm", "mm", "er"]
)


def english_corpus() -> list[str]:
    """The throughput benchmark's English corpus: its default count and seed."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from normalize_throughput import make_corpus
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return make_corpus(CORPUS_COUNT, CORPUS_SEED)


def _config_pieces() -> list[str]:
    """Every cell of ``configs/en/*.tsv`` and every string of the config's option tables, sorted."""
    pieces: set[str] = set()
    for path in sorted((ROOT / "configs" / "en").glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                pieces.update(cell for cell in line.split("\t") if cell)

    def walk(value) -> None:
        if isinstance(value, str):
            pieces.add(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                pieces.add(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    config = tomllib.loads((ROOT / "configs" / "en.toml").read_text(encoding="utf-8"))
    walk(config.get("options", {}))
    walk(config.get("fillers", []))
    walk(config.get("char_folds", {}))
    return sorted(pieces)


def _corpus_pieces(corpus: list[str]) -> list[str]:
    """Words (space-separated pieces) and short slices of the first 400 corpus utterances."""
    pieces: set[str] = set()
    for utterance in corpus[:400]:
        pieces.update(utterance.split(" "))
        for start in range(0, len(utterance), 5):
            pieces.add(utterance[start:start + 7])
    return sorted(pieces)


def random_texts(corpus: list[str], seed: int = RANDOM_SEED, count: int = RANDOM_COUNT) -> list[str]:
    """``count`` strings of 0..12 pieces (corpus words, config cells, number words, shared symbols), ``random.Random``-seeded.

    Pieces are cased as found, upper-cased or title-cased at random (the steps read case).
    """
    pools = (_corpus_pieces(corpus), _config_pieces(), _NUMBER_WORDS, _SHARED)
    rng = random.Random(f"{seed}:en")
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(13)):
            pool = pools[rng.randrange(len(pools))]
            piece = pool[rng.randrange(len(pool))]
            casing = rng.random()
            parts.append(piece.upper() if casing < 0.1 else piece.title() if casing < 0.2 else piece)
            if rng.random() < 0.6:
                parts.append(" ")
        texts.append("".join(parts))
    return texts


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return english_corpus()



def test_english_outputs_on_the_throughput_corpus_do_not_move(corpus):
    DIGESTS.check_input("corpus", corpus, seed=CORPUS_SEED, count=CORPUS_COUNT)
    DIGESTS.assert_unmoved("corpus", normalizer("en"), corpus)


def test_english_outputs_on_the_recorded_case_texts_do_not_move():
    DIGESTS.assert_unmoved("cases", normalizer("en"), DIGESTS.case_texts(more_than=200))


def test_english_outputs_on_seeded_random_strings_do_not_move(corpus):
    texts = random_texts(corpus)
    DIGESTS.check_input("random", texts, seed=RANDOM_SEED, count=RANDOM_COUNT)
    DIGESTS.assert_unmoved("random", normalizer("en"), texts)


def test_the_random_strings_reach_what_the_english_normalizer_changes(corpus):
    """The generator is not inert: most strings change, and many gain a digit (numbers were read)."""
    assert_generator_reaches(normalizer("en"), random_texts(corpus, count=1000), changed_more_than=700,
                             gained_a_digit_more_than=50)


def _record() -> dict:
    corpus = english_corpus()
    cases = case_texts(ROOT / "cases", "en")
    return {
        "note": "outputs of the English normalizer; re-record only with a change meant to move them",
        "corpus": {"seed": CORPUS_SEED, "count": CORPUS_COUNT},
        "random": {"seed": RANDOM_SEED, "count": RANDOM_COUNT},
        "case_texts": cases,
        "digests": {
            "corpus": outputs_digest("en", corpus),
            "cases": outputs_digest("en", cases),
            "random": outputs_digest("en", random_texts(corpus)),
        },
    }


if __name__ == "__main__":
    DIGESTS.write(_record())
