"""The code-switch rescuer's region memo gives what the unmemoized region check gives: on the
benchmark's generated turns of every code-switch language, and on turns where the same region
tokens sit in different contexts (a digit of an English or of a home-language chunk, a
contraction that is or is not one wider English unit, a number word that widens into an equal
neighbour or stands alone)."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

import pytest

from pytest_asrbench import score
from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for

ROOT = Path(__file__).resolve().parents[2]


def benchmark_turns(language: str, count: int) -> list[tuple[str, str]]:
    spec = importlib.util.spec_from_file_location("codeswitch_benchmark", ROOT / "benchmarks/codeswitch.py")
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    return benchmark.make_turns(language, count)


#: Pairs whose error regions have the same tokens and different verdicts, each with the turn's
#: rescued error count (what the region check must give whatever it met before).
ADVERSARIAL = {
    "hi": [
        ("मेरा seven बजे", "मेरा 7 बजे", 0),  # the digit's chunk is neutral: a rendering
        ("मेरा seven बजे", "मेरा सात बजे", 1),  # the same 7 from a Hindi word: a translation
        ("seven", "7", 0),
        ("twenty five बजे", "twenty 5 बजे", 1),  # five/5 widens into "twenty five" / "twenty 5"
        ("five बजे", "5 बजे", 0),  # five/5 alone
        ("I'm not sure", "I am not sure", 0),  # m/am inside one wider English unit
        ("I m not sure", "I am not sure", 1),  # m/am, each token its own unit
        ("मेरा not ठीक", "मेरा nut ठीक", 1),
        ("नेटवर्क प्रॉब्लम", "network problem", 0),
    ],
    "fr": [
        ("il a dit three", "il a dit 3", 0),
        ("il a dit three", "il a dit trois", 1),
        ("three", "3", 0),
        ("j'ai twenty two ans", "j'ai 22 ans", 0),
        ("I'm not sure", "I am not sure", 0),
        ("I'm not sure merci", "I'm nut sure merci", 1),
    ],
}


def unmemoized(rescuer):
    """A copy of ``rescuer`` that computes every region's verdict afresh (keeps none)."""
    plain = copy.copy(rescuer)
    plain._verdicts = {}
    plain._remember = lambda key, verdict: None
    return plain


def memoized(rescuer):
    """A copy of ``rescuer`` with a memo of its own, empty."""
    fresh = copy.copy(rescuer)
    fresh._verdicts = {}
    return fresh


def rescues(rescuer, result, backwards: bool = False) -> list:
    """Per pair of ``result``, its regions and rescues (``None`` without errors), the pairs
    checked last to first when ``backwards`` (the memo then meets the contexts in the other
    order), listed in the pairs' order."""
    found = {}
    order = range(len(result.pairs) - 1, -1, -1) if backwards else range(len(result.pairs))
    for index in order:
        pair = result.pairs[index]
        if pair.errors:
            pair_rescue = rescuer.rescue_pair(pair.scored_reference, pair.hypothesis, pair.alignment)
            found[index] = (pair_rescue.regions, pair_rescue.rescues)
        else:
            found[index] = None
    return [found[index] for index in range(len(result.pairs))]


@pytest.mark.parametrize("language", ["hi", "de", "nl", "fr", "es", "it"])
def test_the_region_memo_gives_the_unmemoized_rescues_on_generated_turns(language):
    pairs = benchmark_turns(language, 1500) + [pair[:2] for pair in ADVERSARIAL.get(language, [])]
    result = score([reference for reference, _ in pairs], [hypothesis for _, hypothesis in pairs], language)
    rescuer = rescuer_for(language)[0]
    expected = rescues(unmemoized(rescuer), result)
    memo = memoized(rescuer)
    assert rescues(memo, result) == expected
    # The memo was read, not just filled: far fewer verdicts than regions checked.
    regions = sum(len(found[0]) for found in expected if found is not None)
    assert 0 < len(memo._verdicts) < regions / 2
    # A memo filled in the other order (other contexts seen first) gives the same.
    assert rescues(memoized(rescuer), result, backwards=True) == expected


@pytest.mark.parametrize("language", sorted(ADVERSARIAL))
def test_the_same_region_tokens_in_other_contexts_keep_their_own_verdicts(language):
    pairs = ADVERSARIAL[language]
    references = [reference for reference, _, _ in pairs]
    hypotheses = [hypothesis for _, hypothesis, _ in pairs]
    for order in (list(range(len(pairs))), list(range(len(pairs)))[::-1]):
        rescuer = memoized(rescuer_for(language)[0])
        for index in order:  # each context meets a memo that holds the others' verdicts
            pair = score([references[index]], [hypotheses[index]], language).pairs[0]
            found = rescuer.rescue_pair(pair.scored_reference, pair.hypothesis, pair.alignment)
            left = pair.errors - sum(rescue.errors_removed for rescue in found.rescues)
            assert left == pairs[index][2], (references[index], hypotheses[index])
            assert found.rescues == unmemoized(rescuer).rescue_pair(
                pair.scored_reference, pair.hypothesis, pair.alignment).rescues


def test_a_full_region_memo_is_dropped_and_refilled_with_the_same_verdicts():
    pairs = benchmark_turns("hi", 400) + [pair[:2] for pair in ADVERSARIAL["hi"]]
    result = score([reference for reference, _ in pairs], [hypothesis for _, hypothesis in pairs], "hi")
    rescuer = rescuer_for("hi")[0]
    small = memoized(rescuer)
    small.VERDICT_LIMIT = 8
    sizes = []
    remember = small._remember

    def remember_and_measure(key, verdict):
        remember(key, verdict)
        sizes.append(len(small._verdicts))

    small._remember = remember_and_measure
    assert rescues(small, result) == rescues(unmemoized(rescuer), result)
    assert max(sizes) == 8 and 1 in sizes  # filled to the limit, dropped, filled again
