"""The ``code_switch`` metric view: rescues turned into the aware score and its ``details``.

Applies to word-level scores of a language whose config sets ``code_switch_languages``
(Hindi); registered with :func:`~pytest_asrbench.scoring.views.register_view` and run by
``stt_wer``.

Counting (so that hits + substitutions + deletions = reference length still holds): a
rescued region's reference words all become hits; its substitutions, deletions and
insertions are removed. Nothing is ever added, so the aware rate is never above the strict
one. The pairs of the :class:`~pytest_asrbench.scoring.score.Score` keep the strict Hindi
alignment; the aware per-turn figures are in ``details["code_switch"]["per_turn"]``.

Word languages (for ``wer_hi``/``wer_en`` and the per-language table): a word is English
when it is in Latin script, a Devanagari loanword of the config's ``loanwords`` lexicon
(कोड), or a Devanagari word the phonetic matcher paired in a rescue (कन्फर्म / confirm); every
other word (digits included) is Hindi, so the English share is an undercount. A word of a
romanized-Hindi pair (``romanized_matching``: मुझे / mujhe, or a phonetic pair whose Latin
word also romanizes the Devanagari one, बदल / badal) is Hindi in either script: it is a Hindi
word written in Latin, not an English one. Substitutions and
deletions count against the reference word's language, insertions against the inserted
word's.
"""

from __future__ import annotations

import gc
from functools import lru_cache

import pytest_asrbench._shared.caches as caches
from pytest_asrbench.scoring.views.codeswitch.detect import build_detection
from pytest_asrbench.scoring.views.codeswitch.matchers import build_matcher
from pytest_asrbench.scoring.views.codeswitch.rescue import Rescuer
from pytest_asrbench.scoring.views.codeswitch.romanized import KEY_PREFIX as ROMANIZED_KEY
from pytest_asrbench.scoring.views.codeswitch.romanized import romanizes
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.base import MetricView, ViewResult, register_view
from pytest_asrbench.scoring.views.compounds import merge_compounds


def _rate(errors: int, words: int) -> float | None:
    return errors / words if words else None


@lru_cache(maxsize=None)
def rescuer_for(language: str) -> tuple[Rescuer, frozenset[str]]:
    """The :class:`Rescuer` of a language and its set of home-script loanwords (built once).

    The rescuer gets the config's detection (``code_switch_detection``, :mod:`.detect`) and
    matcher (``code_switch_matcher``, :mod:`.matchers`).

    Raises:
        ConfigError: more than one code-switch language, one without a config, an unknown
            matcher name, or script detection for a language without a known home script.
    """
    from pytest_asrbench.normalize.registry import get_config, get_lexicons, get_normalizer
    from pytest_asrbench.normalize.steps.basic import make_fold

    config = get_config(language)
    if len(config.code_switch_languages) != 1:
        raise ConfigError(
            f"{language}: code_switch_languages lists {config.code_switch_languages}; exactly one is supported"
        )
    other = config.code_switch_languages[0]
    lexicons = get_lexicons(language)
    fold = make_fold(config.char_folds)
    matcher = None
    if config.code_switch_matcher:
        matcher = build_matcher(config.code_switch_matcher, config, lexicons, fold)
    if config.romanized_matching:  # romanized Hindi, a declared option (views/codeswitch/romanized.py)
        from pytest_asrbench.scoring.views.codeswitch.romanized import RomanizedMatcher

        matcher = RomanizedMatcher(matcher)
    loanwords = frozenset(fold(value) for value in lexicons.get("loanwords", {}).values())
    rescuer = Rescuer(get_normalizer(language), get_normalizer(other), matcher, loanwords, build_detection(config))
    return rescuer, loanwords


caches.register(rescuer_for.cache_clear, "scoring.views.codeswitch.view.rescuer_for", from_configs=True)


def rescued_columns(language: str, pair) -> frozenset[int]:
    """The columns of ``pair.alignment`` (one per aligned token, in span order) that lie in an
    error region the rescue of ``language`` accepts: what the headline counts as correct
    (:mod:`pytest_asrbench.scoring.headline` marks them in the aligned view and leaves them out
    of the error summary). Empty for a pair without errors."""
    if not pair.errors:
        return frozenset()
    rescuer, _ = rescuer_for(language)
    found = rescuer.rescue_pair(pair.scored_reference, pair.hypothesis, pair.alignment)
    rescued = {tuple(rescue.ref_indices) for rescue in found.rescues}
    return frozenset(index for region in found.regions if tuple(region.ref_indices) in rescued
                     for index in range(region.start, region.end))


def _romanized_words(rescue) -> set[str]:
    """Both words of each romanized-Hindi pair of ``rescue`` (``romanized_matching`` on): a
    Hindi word in either script, never counted as the second language. A pair is romanized
    Hindi when the romanized matcher paired it (mujhe / मुझे) or when the phonetic matcher did
    but the Latin word also romanizes the Devanagari one (badal / बदल: a Hindi word whose
    consonants happen to fit); an English word the phonetic matcher pairs stays English
    (confirm / कन्फर्म, number / नंबर: no romanization of them)."""
    return {word for home, second, key in rescue.phonetic
            if key.startswith(ROMANIZED_KEY) or romanizes(home, second) for word in (home, second)}


def applies(config, unit: str) -> bool:
    """True for word-level scores of a language that names code-switch languages."""
    return bool(config.code_switch_languages) and unit == "word"


def code_switch_view(result, config) -> ViewResult:
    """The code-switch-aware counts of a strict word-level ``Score``, and its details.

    The counts replace the strict ones (so ``rate`` is the aware WER); ``details`` gains ``strict_rate``, ``strict_errors``, ``wer_hi``/``wer_en`` (each
    omitted when the reference has no word of that language), ``code_switch_word_rate``,
    ``code_switch_rescue_rate`` and ``code_switch`` (see docs/hindi.md for every field).

    The turn loop makes many small objects and no reference cycle, so the cyclic garbage
    collector is paused while it runs (as :func:`~pytest_asrbench.scoring.score.score` does
    for its pair loop: it would only rescan the corpus's pairs again and again) and restored
    as it was.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _aware_score(result, config)
    finally:
        if collecting:
            gc.enable()


def _aware_score(result, config) -> ViewResult:
    rescuer = rescuer_for(config.language)[0]
    home = config.language
    other = config.code_switch_languages[0]

    is_second, is_other = rescuer.is_second, rescuer.is_other
    # The compounds view (de, nl) runs first and may have set the counts: a turn it merged
    # keeps its merged counts, every other turn's counts are still the strict ones.
    merged_compounds = "compounds" in result.details
    strict_total = sum(pair.errors for pair in result.pairs) if merged_compounds else result.errors

    def language_of(word: str, paired: bool) -> str:
        return other if paired or is_second(word) else home

    words = {home: 0, other: 0}
    errors = {home: 0, other: 0}
    rescues = []
    per_turn = []
    removed = {"substitute": 0, "delete": 0, "insert": 0}
    rescued_words = 0
    other_script_words = 0
    for turn, pair in enumerate(result.pairs):
        strict_errors = pair.errors
        reference = pair.normalized_reference.split()
        hypothesis = pair.normalized_hypothesis.split()
        found = None
        second_words = sum(map(is_second, reference))
        if strict_errors:
            if second_words or any(map(is_second, hypothesis)):
                # The regions (of the strict alignment's spans, which score() kept: the view
                # declares reads_spans) are rescued, and their errors told apart by language.
                # A region that fails a rescue's word conditions (Rescuer.could_rescue) is
                # dropped before any side view is built, and the side views are built on the
                # first region that passes: a turn none of whose regions passes builds none.
                found = rescuer.rescue_spans(pair.scored_reference, pair.hypothesis, reference, hypothesis,
                                             pair.spans)
                if merged_compounds and found.rescues and merge_compounds(pair.alignment)[2]:
                    # The compounds view counted this turn with its split compounds merged: its
                    # errors are not the strict alignment's, so its regions are not rescued.
                    found.rescues = []
            else:
                # No English word on either side: no region can be rescued (each needs one)
                # and every error is the home language's, so no alignment is built.
                errors[home] += strict_errors
        turn_removed = 0
        if found is None:  # no region was looked at: each word's language is its own
            words[other] += second_words
            words[home] += len(reference) - second_words
        else:
            rescued_ref: set[int] = set()
            rescued_hyp: set[int] = set()
            paired_ref: set[int] = set()
            romanized_ref: set[int] = set()  # Hindi words the hypothesis wrote romanized: Hindi
            for region_rescue in found.rescues:
                rescues.append({"turn": turn, **region_rescue.as_dict()})
                rescued_ref.update(region_rescue.ref_indices)
                romanized = _romanized_words(region_rescue) if config.romanized_matching else ()
                paired_ref.update(index for index in region_rescue.phonetic_ref_indices
                                  if reference[index] not in romanized)
                romanized_ref.update(index for index in region_rescue.ref_indices if reference[index] in romanized)
                removed["substitute"] += region_rescue.substitutions
                removed["delete"] += region_rescue.deletions
                removed["insert"] += region_rescue.insertions
                turn_removed += region_rescue.errors_removed
                rescued_words += len(region_rescue.ref_indices)
            if rescued_ref:
                for region in found.regions:
                    if any(index in rescued_ref for index in region.ref_indices):
                        rescued_hyp.update(region.hyp_indices)
            if paired_ref or romanized_ref:
                for index, word in enumerate(reference):
                    words[home if index in romanized_ref else language_of(word, index in paired_ref)] += 1
            else:
                words[other] += second_words
                words[home] += len(reference) - second_words
            for region in found.regions:
                for column in region.columns:
                    if column.op == "insert":
                        if column.hyp not in rescued_hyp:
                            errors[language_of(hypothesis[column.hyp], False)] += 1
                    elif column.ref not in rescued_ref:
                        errors[language_of(reference[column.ref], column.ref in paired_ref)] += 1
        other_script_words += sum(map(is_other, hypothesis))
        turn_errors = strict_errors - turn_removed
        length = len(reference)  # the rates as _rate gives them, inline: one record per turn
        per_turn.append({
            "turn": turn,
            "rate": turn_errors / length if length else None,
            "strict_rate": strict_errors / length if length else None,
            "errors": turn_errors,
            "strict_errors": strict_errors,
            "rescues": len(found.rescues) if found is not None else 0,
        })

    substitutions = result.substitutions - removed["substitute"]
    deletions = result.deletions - removed["delete"]
    insertions = result.insertions - removed["insert"]
    hits = result.hits + removed["substitute"] + removed["delete"]
    rescued_errors = removed["substitute"] + removed["delete"] + removed["insert"]
    details = {}
    if not merged_compounds:  # else the compounds view has written it (the same strict rate)
        details["strict_rate"] = result.rate
    details["strict_errors"] = strict_total
    for language in (home, other):
        if words[language]:
            details[f"wer_{language}"] = errors[language] / words[language]
    details["code_switch_word_rate"] = _rate(words[other], sum(words.values()))
    details["code_switch_rescue_rate"] = _rate(rescued_errors, strict_total)
    if config.romanized_matching:  # said only when on: outputs with the option off do not move
        details["romanized_matching"] = True
    details["code_switch"] = {
        "english_words": words[other],
        "rescued_words": rescued_words,
        "rescued_errors": rescued_errors,
        "languages": {
            language: {"words": words[language], "errors": errors[language], "rate": _rate(errors[language], words[language])}
            for language in (home, other)
        },
        "other_script_hypothesis_words": other_script_words,
        "rescues": rescues,
        "per_turn": per_turn,
    }
    return ViewResult(details, EditCounts(hits, substitutions, deletions, insertions, result.reference_length))


CODE_SWITCH = register_view(MetricView("code_switch", applies, code_switch_view, sets_counts=True,
                                       builds_on_counts=True, reads_spans=True))
