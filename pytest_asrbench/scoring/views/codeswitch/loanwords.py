"""The loanword rescue of character-scored languages: a Latin name against its katakana or Hangul.

Japanese and Korean STT write a name the speaker said in English in the language's own
script (Figma = フィグマ = 피그마) while the intended text keeps it in Latin, so every
character of the name was an error (ja ``Figmaで確認します`` / ``フィグマで確認します``: 45.5%
CER). A config turns the rescue on with ``loanword_matcher = "katakana"`` (ja) or
``"hangul"`` (ko); the ``loanwords`` view of ``stt_wer`` then does two things:

1. **Before the alignment** (:func:`rescue_pair`, called by ``score()`` through the view's
   ``rewrite``): the normalized pair is aligned by characters once; in each error region (a
   maximal run of mismatched columns), a whole Latin word on one side is paired, left to
   right, with a katakana or Hangul word on the other side of the same region (for Hangul,
   also a word's leading syllables when the rest is a chain of the config's ``particles``:
   드롭박스에 = 드롭박스 + 에) that the :class:`~.kana_hangul.LoanwordMatcher` accepts. The
   hypothesis then writes the name as the reference does (フィグマ becomes ``figma`` when the
   reference says Figma; ``figma`` becomes フィグマ when the reference says フィグマ), so the
   reference, its length and the rate's denominator never change. A rewrite is kept only
   when it lowers the pair's character errors, as written and with spaces removed alike,
   so errors and rates only go down; a translation (Apple / リンゴ / 사과), a different name,
   a stoplisted native word or a word in another script stays an error.
2. **After scoring** (:func:`loanword_view`): ``details["loanwords"]`` lists every rescued
   pair for audit, and the errors of the pairs' own alignments before and after.

The Latin word is a whole word: a maximal run of ASCII letters with no digit next to it. The
katakana or Hangul word is a maximal run of that script inside the region (katakana: the
long-vowel mark included). Source: the original requirements' "not in this PR" list
(Japanese and Korean code-switching, English names in Latin against katakana or Hangul) and
the reviewers' Japanese note ("entity names will be said in a Japanese accent so it should
be expected for transcription to present it in kana").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pytest_asrbench._shared.caches as caches
from pytest_asrbench.scoring.alignment import align_spans, edit_distance
from pytest_asrbench.scoring.views.base import MetricView, ViewResult, register_view
from pytest_asrbench.scoring.views.codeswitch.kana_hangul import LoanwordMatcher, near_miss
from pytest_asrbench.scoring.views.codeswitch.rescue import span_regions


@dataclass(frozen=True)
class LoanwordRescue:
    """One rescued name: ``latin``, on ``side`` (``"reference"`` or ``"hypothesis"``), and its
    ``rendering`` on the other side, with the matcher's key and the pair's errors it removed."""

    side: str
    latin: str
    rendering: str
    key: str
    errors_removed: int

    def as_dict(self) -> dict:
        return {"side": self.side, "latin": self.latin, "rendering": self.rendering, "key": self.key,
                "errors_removed": self.errors_removed}


@dataclass(frozen=True)
class RescuedPair:
    """The normalized pair after the rescue (the reference as it came, the hypothesis
    rewritten), the rescues made (empty when none was), and the near misses the matcher saw:
    ``(latin, rendering)`` pairs of one region whose keys differ by one consonant class
    (:func:`~.kana_hangul.near_miss`), not rescued, listed for review."""

    reference: str
    hypothesis: str
    rescues: tuple[LoanwordRescue, ...] = ()
    near_misses: tuple[tuple[str, str], ...] = ()


@lru_cache(maxsize=None)
def matcher_for(language: str) -> tuple[LoanwordMatcher, re.Pattern]:
    """The matcher of a language's ``loanword_matcher``, with its ``loanword_stoplist``
    lexicon, and a pattern of the particle chains that may follow a word (its ``particles``
    lexicon; only the empty chain for a language without one).

    Raises:
        ConfigError: the language has no config (from the registry).
        ValueError: ``loanword_matcher`` names no known script.
    """
    from pytest_asrbench.normalize.registry import get_config, get_lexicons

    config = get_config(language)
    lexicons = get_lexicons(language)
    stoplist = frozenset(lexicons.get("loanword_stoplist", {}))
    particles = sorted(lexicons.get("particles", {}), key=len, reverse=True)
    # A chain of particles, longest tried first (an empty list matches only the empty rest).
    chain = re.compile("(?:" + "|".join(map(re.escape, particles)) + ")*" if particles else "")
    return LoanwordMatcher(config.loanword_matcher, stoplist), chain


caches.register(matcher_for.cache_clear, "scoring.views.codeswitch.loanwords.matcher_for", from_configs=True)


_ASCII_LETTER = re.compile("[A-Za-z]")


def _is_ascii_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _has_ascii_letter(text: str) -> bool:
    return _ASCII_LETTER.search(text) is not None


def _runs(text: str, indices: list[int], belongs) -> list[tuple[int, int]]:
    """``[start, end)`` of the maximal runs of consecutive ``indices`` whose chars ``belongs``."""
    runs: list[tuple[int, int]] = []
    for index in indices:
        if not belongs(text[index]):
            continue
        if runs and runs[-1][1] == index:
            runs[-1] = (runs[-1][0], index + 1)
        else:
            runs.append((index, index + 1))
    return runs


def _whole_latin_words(text: str, indices: list[int]) -> list[tuple[int, int]]:
    """The Latin runs among ``indices`` that are whole words of ``text``: no letter of the word
    outside the region, no digit next to it (``gpt4`` is a code, not a name)."""
    words = []
    for start, end in _runs(text, indices, _is_ascii_letter):
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        if _is_ascii_letter(before) or _is_ascii_letter(after) or before.isdigit() or after.isdigit():
            continue
        words.append((start, end))
    return words


def _candidates(text: str, indices: list[int], matcher: LoanwordMatcher,
                particles: re.Pattern) -> list[tuple[int, int]]:
    """Spans of katakana/Hangul words inside ``indices``: a whole word of the script (its
    maximal run in ``text``), or its leading part when the rest is a chain of ``particles``
    (Korean: 드롭박스에 = 드롭박스 + 에), longest first."""
    inside = set(indices)
    spans = []
    for start, end in _runs(text, indices, matcher.is_script_word):
        while start and matcher.is_script_word(text[start - 1]):
            start -= 1
        while end < len(text) and matcher.is_script_word(text[end]):
            end += 1
        for stop in range(end, start, -1):
            if all(index in inside for index in range(start, stop)) and _is_particle_chain(text[stop:end], particles):
                spans.append((start, stop))
    return spans


def _is_particle_chain(rest: str, particles: re.Pattern) -> bool:
    """Whether ``rest`` is empty or a chain of the particles ``particles`` matches whole."""
    return not rest or particles.fullmatch(rest) is not None


def _errors(reference: str, hypothesis: str) -> tuple[int, int]:
    """The character errors of a pair as written, and with every space removed."""
    spaced = edit_distance(reference, hypothesis)
    if " " not in reference and " " not in hypothesis:
        return spaced, spaced
    return spaced, edit_distance(reference.replace(" ", ""), hypothesis.replace(" ", ""))


#: ``(language, raw reference, raw hypothesis) -> rescues`` of the pairs ``score()`` rewrote
#: recently, so the view lists them without normalizing the pair again; bounded (dropped
#: whole when full: the view then normalizes again, the same answer).
_RECENT: dict[tuple[str, str, str], RescuedPair] = {}
_RECENT_LIMIT = 65536
caches.register(_RECENT.clear, "scoring.views.codeswitch.loanwords._RECENT", from_configs=True)


def rescue_pair(language: str, reference: str, hypothesis: str) -> RescuedPair:
    """The normalized pair, its hypothesis writing every matched name as the reference does.

    ``reference`` and ``hypothesis`` are normalized texts of ``language`` (whose config sets
    ``loanword_matcher``), compared by characters. See the module docstring for the rules.
    """
    if reference == hypothesis or not (_has_ascii_letter(reference) or _has_ascii_letter(hypothesis)):
        return RescuedPair(reference, hypothesis)
    script = matcher_for(language)[0].script.letters
    if not ((_has_ascii_letter(reference) and script.search(hypothesis))
            or (_has_ascii_letter(hypothesis) and script.search(reference))):
        return RescuedPair(reference, hypothesis)  # no Latin word on one side facing the script on the other
    return _rescue_cached(language, reference, hypothesis)


@lru_cache(maxsize=8192)
def _rescue_cached(language: str, reference: str, hypothesis: str) -> RescuedPair:
    matcher, particles = matcher_for(language)
    # The spans of align(reference, hypothesis, "char"): its characters are those of the
    # texts without the whitespace at their two ends.
    spans = align_spans(reference.strip(), hypothesis.strip())
    proposals: list[tuple[str, str, int, int, str, str]] = []  # (Latin side, latin, start, end, rendering, key)
    near: list[tuple[str, str]] = []
    for region in span_regions(spans):
        for side, latin_text, latin_indices, script_text, script_indices in (
                ("reference", reference, region.ref_indices, hypothesis, region.hyp_indices),
                ("hypothesis", hypothesis, region.hyp_indices, reference, region.ref_indices)):
            latin_words = _whole_latin_words(latin_text, latin_indices)
            if not latin_words:
                continue
            candidates = _candidates(script_text, script_indices, matcher, particles)
            used: set[int] = set()
            for start, end in latin_words:
                for c_start, c_end in candidates:
                    if not used.isdisjoint(range(c_start, c_end)):
                        continue
                    latin, rendering = latin_text[start:end], script_text[c_start:c_end]
                    verdict = matcher.check(latin, rendering)
                    if not verdict.matched and near_miss(verdict):
                        near.append((latin, rendering))
                    if verdict.matched:
                        # The span of the hypothesis to rewrite: its rendering, or its Latin word.
                        span = (c_start, c_end) if side == "reference" else (start, end)
                        proposals.append((side, latin, *span, rendering, verdict.key))
                        used.update(range(c_start, c_end))
                        break
    if not proposals:
        return RescuedPair(reference, hypothesis, (), tuple(near))
    errors = _errors(reference, hypothesis)
    accepted: list[LoanwordRescue] = []
    # Right to left in the hypothesis, so the offsets of the proposals still to try stay valid.
    for side, latin, start, end, rendering, key in sorted(proposals, key=lambda item: -item[2]):
        trial = hypothesis[:start] + (latin if side == "reference" else rendering) + hypothesis[end:]
        new_errors = _errors(reference, trial)
        if new_errors[0] < errors[0] and new_errors[1] <= errors[1]:
            accepted.append(LoanwordRescue(side, latin, rendering, key, errors[0] - new_errors[0]))
            hypothesis, errors = trial, new_errors
    accepted.reverse()
    return RescuedPair(reference, hypothesis, tuple(accepted), tuple(near))


caches.register(_rescue_cached.cache_clear, "scoring.views.codeswitch.loanwords._rescue_cached", from_configs=True)


def applies(config, unit: str) -> bool:
    """True for character scores of a language whose config sets ``loanword_matcher``."""
    return bool(config.loanword_matcher) and unit == "char"


def rewriter(config):
    """``(raw reference, raw hypothesis, normalized reference, normalized hypothesis) ->
    (reference, hypothesis)`` for ``score()``: the normalized pair after :func:`rescue_pair`."""
    language = config.language

    def rewrite(raw_reference: str, raw_hypothesis: str, reference: str, hypothesis: str) -> tuple[str, str]:
        rescued = rescue_pair(language, reference, hypothesis)
        if _has_ascii_letter(raw_reference) or _has_ascii_letter(raw_hypothesis):
            if len(_RECENT) >= _RECENT_LIMIT:
                _RECENT.clear()
            _RECENT[language, raw_reference, raw_hypothesis] = rescued
        return rescued.reference, rescued.hypothesis

    return rewrite


def loanword_view(result, config) -> ViewResult:
    """``details["loanwords"]``: the matcher's script, every rescued pair and the errors.

    ``rescues``: ``[{"turn", "side", "latin", "rendering", "key", "errors_removed"}, ...]``;
    ``near_misses``: ``[{"turn", "latin", "rendering"}, ...]``, pairs of a region whose keys
    differ by one consonant class: not rescued (they stay errors), listed for review;
    ``rescued_errors``: their sum; ``strict_errors``: the pairs' errors before the rescue,
    counted in the pairs' own alignments (characters, spaces included where the normalized
    form keeps them), so ``strict_errors - rescued_errors`` is those alignments' errors now.
    Pairs with no Latin letter in their raw texts are not looked at again (nothing was rescued).
    """
    from pytest_asrbench.normalize.registry import get_normalizer

    normalize = get_normalizer(config.language)
    rescues = []
    near_misses = []
    for turn, pair in enumerate(result.pairs):
        if not (_has_ascii_letter(pair.scored_reference) or _has_ascii_letter(pair.hypothesis)):
            continue
        found = _RECENT.get((config.language, pair.scored_reference, pair.hypothesis))
        if found is None:  # no longer remembered: ask again from the raw texts
            found = rescue_pair(config.language, normalize(pair.scored_reference), normalize(pair.hypothesis))
        rescues.extend({"turn": turn, **rescue.as_dict()} for rescue in found.rescues)
        near_misses.extend({"turn": turn, "latin": latin, "rendering": rendering} for latin, rendering in found.near_misses)
    rescued_errors = sum(rescue["errors_removed"] for rescue in rescues)
    current = sum(pair.errors for pair in result.pairs)
    details = {"loanwords": {"matcher": config.loanword_matcher, "strict_errors": current + rescued_errors,
                             "rescued_errors": rescued_errors, "rescues": rescues, "near_misses": near_misses}}
    return ViewResult(details)


LOANWORDS = register_view(MetricView("loanwords", applies, loanword_view, rewrite=rewriter))
