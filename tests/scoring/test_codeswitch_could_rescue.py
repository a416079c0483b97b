"""A turn is left out of the code-switch rescue only when no region of it could be rescued.

``Rescuer.could_rescue`` reads a region's words alone (its size and one memoized class per
word); the view builds no side view for a turn none of whose regions passes it. These tests
run the rescuer on every region of seeded code-switched and monolingual turns, as it ran
before the check existed, and pin that every region it rescues passes ``could_rescue``
(the check only ever leaves out what would not be rescued), and that the check does leave
some turns out (it is not vacuous).
"""

from __future__ import annotations

import random

import pytest

from pytest_asrbench import score
from pytest_asrbench.scoring.views.codeswitch.rescue import MAX_REGION_WORDS, span_regions
from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for
from tests.digests import benchmark_module

LANGUAGES = ("hi", "de", "nl", "fr", "es", "it")
TURNS = 400


def seeded_turns(language: str) -> tuple[list[str], list[str]]:
    """The code-switch benchmark's code-switched turns and a mix with monolingual ones."""
    benchmark = benchmark_module("codeswitch.py")
    rng = random.Random(f"could-rescue-{language}")
    pairs = [benchmark.make_pair(rng) if language == "hi" else benchmark.make_latin_pair(rng, language)
             for _ in range(TURNS)]
    pairs += [benchmark.make_monolingual_pair(rng, language) for _ in range(TURNS // 4)]
    return [reference for reference, _ in pairs], [hypothesis for _, hypothesis in pairs]


def errored_token_pairs(result):
    """``(pair, reference tokens, hypothesis tokens)`` of each pair of a strict ``score()``
    result that has errors (the normalized sides split into words): the turns the rescue reads."""
    for pair in result.pairs:
        if pair.errors:
            yield pair, pair.normalized_reference.split(), pair.normalized_hypothesis.split()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rescued_region_passes_could_rescue_and_some_turns_are_left_out(language):
    references, hypotheses = seeded_turns(language)
    strict = score(references, hypotheses, language)
    rescuer = rescuer_for(language)[0]
    rescued = left_out = 0
    for pair, reference, hypothesis in errored_token_pairs(strict):
        found = rescuer.rescue_spans(pair.scored_reference, pair.hypothesis, reference, hypothesis, pair.spans)
        passes = {tuple(region.ref_indices): rescuer.could_rescue([reference[i] for i in region.ref_indices],
                                                                  [hypothesis[i] for i in region.hyp_indices])
                  for region in found.regions}
        for rescue in found.rescues:
            assert passes[rescue.ref_indices], (language, pair.reference, pair.hypothesis, rescue)
        rescued += len(found.rescues)
        left_out += not any(passes.values())
    assert rescued > TURNS // 4, (language, rescued)
    assert left_out > 0, language


def test_could_rescue_reads_size_and_word_classes():
    rescuer = rescuer_for("hi")[0]
    assert rescuer.could_rescue(["नेटवर्क"], ["network"])  # a Devanagari word the matcher may pair
    assert rescuer.could_rescue(["seven"], ["7"])  # English against digits
    assert not rescuer.could_rescue([], ["network"])  # an insertion alone: no reference word
    assert not rescuer.could_rescue(["मेरा"], ["मेरी"])  # no English on either side
    assert not rescuer.could_rescue(["seven"], ["सात"])  # a Hindi number word: a translation
    assert not rescuer.could_rescue(["a"] * (MAX_REGION_WORDS + 1), ["b"])  # too wide
    lexicon = rescuer_for("fr")[0]
    # The whole-turn view's candidate: an English reference word, no third script.
    assert lexicon.could_rescue(["nine"], ["9:00"])
    assert not lexicon.could_rescue(["trois"], ["3"])  # no English word in the region
