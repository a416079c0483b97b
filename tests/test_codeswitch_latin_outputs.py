"""The same-script code-switch score (English inside de, nl, fr, es, it) keeps its outputs
through speed work: the code-switch benchmark's seeded turns of each language give exactly
the counts and ``details`` that the rescuer gave before its speed-ups, pinned as one digest
per language, with the rescued error count readable beside it."""

from __future__ import annotations

import random

import pytest

from pytest_asrbench import score
from tests.digests import benchmark_module, score_digest

#: A sweep over every case text and thousands of seeded strings: left out of the everyday loop.
pytestmark = pytest.mark.slow

TURNS = 1500

# Recorded from the implementation before the rescue speed-ups (configs de/fr 0.7.0,
# nl/es/it 0.5.0). Re-record only from the code before a change meant to keep these outputs
# (a same-script config change with its version bump re-records them).
EXPECTED = {
    "de": (1348, "d378598ed8c1ecb672a576511f83e3440a3bfed151d5bddd1e02b3784b66c656"),
    "nl": (1377, "97fc39de8e68fd5ad8777fd2c5f107de32c8f2e218d2455aa3714c8be73615fb"),
    "fr": (1420, "2dcc2d29b4b0f5d70659019872daf6967e98cd28030271c09b05dbcdf75a1cc9"),
    "es": (1286, "b85ef3c0b61e39f3b6e767c4a77f11b4084702def214e725c3519cfee6e0064a"),
    "it": (1318, "3c796e399563f57f707f974495a58922b41fdc72a3ecb78865ea64d50ef44085"),
}


def seeded_turns(language: str) -> tuple[list[str], list[str]]:
    benchmark = benchmark_module("codeswitch.py")
    rng = random.Random(f"code-switch-identity-{language}")
    pairs = [benchmark.make_latin_pair(rng, language) for _ in range(TURNS)]
    return [reference for reference, _ in pairs], [hypothesis for _, hypothesis in pairs]


def outputs_digest(language: str) -> tuple[int, str]:
    references, hypotheses = seeded_turns(language)
    result = score(references, hypotheses, language)
    return result.details["code_switch"]["rescued_errors"], score_digest(result)


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_seeded_same_script_code_switch_turns_score_as_before_the_speed_work(language):
    assert outputs_digest(language) == EXPECTED[language]
