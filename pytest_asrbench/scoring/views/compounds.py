"""The ``compounds`` metric view: a split and a closed compound of the same letters are one word.

"the data base is down" and "the database is down" are the same speech; so are German "die
Kunden Nummer" / "die Kundennummer" and Dutch "het fiets pad" / "het fietspad". Writers
(and recognizers) close or split such compounds freely, so the strict alignment's
substitution plus deletion (or insertion) is not a recognition error. The view follows
kaldialign's ``merge_compounds`` (the option the Open ASR Leaderboard scores its
multilingual sets with): inside each stretch of errors of the strict alignment, a run of
two or more tokens on one side whose concatenation is a token of the other side in the same
stretch is closed up into that token, on either side; the pair is then aligned again through
:func:`pytest_asrbench.scoring.alignment.align`, and those counts are the headline. A closed
compound counts as one reference token, so ``reference_length`` is that of the merged
reference.

Languages (:data:`COMPOUND_LANGUAGES`): on for English, German and Dutch, whose spelling
closes compounds and whose writers split or close the same compound either way (en
"database" / "data base", "e mail"; de and nl write noun compounds closed, and split ones
are the commonest transcription variant). Off elsewhere: in French, Spanish and Italian a
closed and a split form are usually different words the orthography keeps apart (es
"porque" / "por que", fr "quelquefois" / "quelque fois", it "sennò" / "se no"), so a merge
would hide a real error; character-scored languages (zh, ja, ko, th) have no word tokens to
merge; Hindi's headline is set by the ``code_switch`` view, which has one alignment of its own.

Details added, only for a score where at least one compound was merged (so every other
score reads exactly as before):

- ``strict_rate``: the rate without merging compounds;
- ``strict``: the strict counts (``hits``, ``substitutions``, ``deletions``, ``insertions``,
  ``reference_length``);
- ``compounds``: each merge, ``{"reference": "data base", "hypothesis": "database"}``, pair
  by pair: splits in the reference first, then splits in the hypothesis, each in reading order.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_asrbench.scoring.alignment import Alignment, align, tokenize_aligned
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.base import MetricView, ViewResult, register_view

#: Languages (config ``language`` tags) whose word scores merge split compounds.
COMPOUND_LANGUAGES = frozenset({"en", "de", "nl"})


def applies(config, unit: str) -> bool:
    """True for word scores of a language in :data:`COMPOUND_LANGUAGES`."""
    return unit == "word" and config.unit == "word" and config.language in COMPOUND_LANGUAGES


def _error_stretches(alignment: Alignment) -> list[tuple[range, range]]:
    """(reference index range, hypothesis index range) of each maximal run of non-equal spans."""
    stretches: list[tuple[range, range]] = []
    start: tuple[int, int] | None = None
    ref_at = hyp_at = 0
    for span in alignment.ops:
        if span.op == "equal":
            if start is not None:
                stretches.append((range(start[0], ref_at), range(start[1], hyp_at)))
                start = None
        elif start is None:
            start = (ref_at, hyp_at)
        ref_at += len(span.reference)
        hyp_at += len(span.hypothesis)
    if start is not None:
        stretches.append((range(start[0], ref_at), range(start[1], hyp_at)))
    return stretches


def _closings(split: Sequence[str], where: range, closed: set[str]) -> dict[int, int]:
    """Runs of ``split[where]`` (start -> end) whose concatenation is in ``closed``: leftmost, longest, disjoint."""
    found: dict[int, int] = {}
    i = where.start
    while i < where.stop:
        for end in range(where.stop, i + 1, -1):
            if "".join(split[i:end]) in closed:
                found[i] = end
                i = end
                break
        else:
            i += 1
    return found


def _close(tokens: Sequence[str], runs: dict[int, int]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        end = runs.get(i)
        if end is None:
            out.append(tokens[i])
            i += 1
        else:
            out.append("".join(tokens[i:end]))
            i = end
    return out


def _closes_a_token(split: Sequence[str], closed: set[str]) -> bool:
    """True when a run of two or more adjacent tokens of ``split`` concatenates to a token in ``closed``."""
    longest = max(map(len, closed), default=0)
    for start in range(len(split) - 1):
        joined = split[start]
        for token in split[start + 1:]:
            joined += token
            if len(joined) > longest:
                break
            if joined in closed:
                return True
    return False


def may_merge(reference: Sequence[str], hypothesis: Sequence[str]) -> bool:
    """Whether :func:`merge_compounds` can merge anything in an alignment of these tokens.

    A necessary condition, tested without aligning: a merge closes up a run of two or more
    adjacent tokens of one side whose concatenation is a token of the other side (within one
    stretch of errors, which only narrows it). So ``False`` means no alignment of these tokens
    has a compound to merge; ``True`` means the alignment must be looked at. Word tokens
    (lists of strings), as :func:`~pytest_asrbench.scoring.alignment.tokenize_aligned` gives.
    """
    return _closes_a_token(reference, set(hypothesis)) or _closes_a_token(hypothesis, set(reference))


def merge_compounds(alignment: Alignment) -> tuple[list[str], list[str], list[dict[str, str]]]:
    """Both sides' tokens with split compounds closed up, and the merges made.

    Only runs inside one stretch of errors of ``alignment`` are merged, so a word the strict
    alignment already matched is never moved.
    """
    ref, hyp = alignment.reference, alignment.hypothesis
    ref_runs: dict[int, int] = {}
    hyp_runs: dict[int, int] = {}
    for ref_range, hyp_range in _error_stretches(alignment):
        ref_runs.update(_closings(ref, ref_range, {hyp[j] for j in hyp_range}))
        hyp_runs.update(_closings(hyp, hyp_range, {ref[j] for j in ref_range}))
    merges = [{"reference": " ".join(ref[i:end]), "hypothesis": "".join(ref[i:end])} for i, end in ref_runs.items()]
    merges += [{"reference": "".join(hyp[i:end]), "hypothesis": " ".join(hyp[i:end])} for i, end in hyp_runs.items()]
    return _close(ref, ref_runs), _close(hyp, hyp_runs), merges


def merged_alignment(alignment: Alignment) -> tuple[Alignment, list[dict[str, str]]]:
    """The word alignment with split compounds closed up (``alignment`` itself when none is), and the merges."""
    ref, hyp, merges = merge_compounds(alignment)
    return (align(" ".join(ref), " ".join(hyp), "word") if merges else alignment), merges


def compounds_view(result, config) -> ViewResult:
    """Counts of ``result``'s pairs with split compounds merged, and the strict figures as details.

    ``result`` is a strict word-level ``Score``. Returns no change when no pair has a
    compound to merge; otherwise headline :class:`~pytest_asrbench.scoring.counts.EditCounts`
    (``reference_length`` counts a merged compound once).
    """
    # A pair with no error, or whose tokens cannot close up (may_merge), keeps its own counts:
    # its alignment is not built (most pairs of a corpus; the alignment spans cost more than
    # the counts did) and its counts are the alignment's (PairScore: one aligner).
    hits = substitutions = deletions = insertions = reference_length = 0
    merged: list[dict[str, str]] = []
    for pair in result.pairs:
        if pair.errors and may_merge(tokenize_aligned(pair.normalized_reference, "word"),
                                     tokenize_aligned(pair.normalized_hypothesis, "word")):
            alignment, merges = merged_alignment(pair.alignment)
            merged.extend(merges)
            counts = alignment.counts()
        else:
            counts = pair
        hits += counts.hits
        substitutions += counts.substitutions
        deletions += counts.deletions
        insertions += counts.insertions
        reference_length += counts.reference_length
    if not merged:
        return ViewResult()
    strict = {"hits": result.hits, "substitutions": result.substitutions, "deletions": result.deletions,
              "insertions": result.insertions, "reference_length": result.reference_length}
    return ViewResult({"strict_rate": result.rate, "strict": strict, "compounds": merged},
                      EditCounts(hits, substitutions, deletions, insertions, reference_length))


COMPOUNDS = register_view(MetricView("compounds", applies, compounds_view, sets_counts=True))
