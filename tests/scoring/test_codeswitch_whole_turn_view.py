"""The whole-turn English view of the same-script languages (``Rescuer._rescue_in_context``).

A region left by the region check is rescued by the whole turn's English view only when each
of its reference words is English or a home word the transcript also has. That condition
reads the words alone, so it is checked before the two whole-turn views are built: a turn
none of whose regions meets it builds neither view. These tests pin that the rescues are
those of the rule as written (build both views whenever a region is a candidate, then keep
the regions whose words pass), and that such a turn normalizes no whole side.
"""

from __future__ import annotations

import pytest

from pytest_asrbench import score
from pytest_asrbench.scoring.views.codeswitch.rescue import MAX_REGION_WORDS
from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for
from tests.scoring.test_codeswitch_could_rescue import errored_token_pairs, seeded_turns

SAME_SCRIPT = ("de", "nl", "fr", "es", "it")
#: Turns of each language whose rescue reads the whole turn (es "a las nine" -> "a las 9:00").
IN_CONTEXT = {
    "es": [("la reunión es a las nine", "la reunión es a las 9"), ("nos vemos a las seven", "nos vemos a las 7")],
    "fr": [("j'ai twenty two ans", "j'ai 22 ans"), ("ça coûte twenty five Euro", "ça coûte 25 Euro")],
    "de": [("wir haben eleven Tickets", "wir haben 11 Tickets"), ("das kostet twenty five Euro", "das kostet 25 Euro")],
    "nl": [("mijn code is forty two", "mijn code is 42"), ("het kost twenty five Euro", "het kost 25 Euro")],
    "it": [("You're welcome, ciao", "You are welcome ciao"), ("costa twenty five Euro", "costa 25 Euro")],
}


def context_rescues_as_written(rescuer, regions, rescued, raw_ref, raw_hyp, reference, hypothesis):
    """The reference indices the whole-turn view rescues, computed as its rule reads: the
    candidate regions (size, classes, no home number word in the transcript), both views
    built whenever there is one, then the regions whose reference words are English or home
    words of the transcript."""
    classify = rescuer.classify
    candidates = []
    for region in regions:
        ref_indices, hyp_indices = region.ref_indices, region.hyp_indices
        if tuple(ref_indices) in rescued or not ref_indices or len(ref_indices) > MAX_REGION_WORDS \
                or len(hyp_indices) > MAX_REGION_WORDS:
            continue
        ref_words = [reference[i] for i in ref_indices]
        hyp_words = [hypothesis[i] for i in hyp_indices]
        classes = [classify(word) for word in ref_words]
        hyp_classes = [classify(word) for word in hyp_words]
        if "second" not in classes or "other" in classes or "other" in hyp_classes:
            continue
        if any(cls == "home" and any(classify(token) == "neutral" for token in rescuer.latin_views.hindi(word))
               for cls, word in zip(hyp_classes, hyp_words)):
            continue
        candidates.append((tuple(ref_indices), ref_words, classes))
    if not candidates:
        return set()
    hyp_text = rescuer._context_text(raw_hyp, True)
    if hyp_text is None:
        return set()
    ref_text = rescuer._context_text(raw_ref, False)
    if rescuer._context_view(hyp_text, raw_hyp, hypothesis) != rescuer._context_view(ref_text, raw_ref, reference):
        return set()
    hyp_raw_words = {rescuer.home_text(word) for word in raw_hyp.split()}
    return {indices for indices, ref_words, classes in candidates
            if all(cls == "second" or (cls == "home" and word in hyp_raw_words)
                   for cls, word in zip(classes, ref_words))}


@pytest.mark.parametrize("language", SAME_SCRIPT)
def test_whole_turn_rescues_are_those_of_the_rule_as_written(language):
    references, hypotheses = seeded_turns(language)
    references += [reference for reference, _ in IN_CONTEXT[language]]
    hypotheses += [hypothesis for _, hypothesis in IN_CONTEXT[language]]
    strict = score(references, hypotheses, language)
    rescuer = rescuer_for(language)[0]
    in_context = 0
    for pair, reference, hypothesis in errored_token_pairs(strict):
        found = rescuer.rescue_spans(pair.scored_reference, pair.hypothesis, reference, hypothesis, pair.spans)
        by_region = {rescue.ref_indices for rescue in found.rescues if rescue.reason != "english_view_in_context"}
        got = {rescue.ref_indices for rescue in found.rescues if rescue.reason == "english_view_in_context"}
        expected = context_rescues_as_written(rescuer, found.regions, by_region, pair.scored_reference,
                                              pair.hypothesis, reference, hypothesis)
        assert got == expected, (language, pair.reference, pair.hypothesis)
        in_context += len(got)
    assert in_context > 0, language  # the whole-turn view does rescue some of these turns


def test_a_turn_whose_regions_fail_the_word_condition_builds_no_whole_turn_view():
    # "ans" is a home word the transcript lacks: the region (twenty two ans / 22 mois) cannot
    # be rescued in context, so neither side's whole-turn view is normalized.
    rescuer = rescuer_for("fr")[0]
    before = rescuer.turn_tokens.cache_info().misses
    result = score(["j'ai twenty two ans aujourd'hui"], ["j'ai 22 mois aujourd'hui"], "fr")
    assert rescuer.turn_tokens.cache_info().misses == before
    assert result.details["code_switch"]["rescued_errors"] == 0
    assert result.errors == result.details["strict_errors"] == 3
