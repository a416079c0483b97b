"""Plain-data views of scores, shared by snapshots, the CLI's JSON output and reports."""

from __future__ import annotations

from typing import Any

from pytest_asrbench.scoring.result import PairScore, Score


def pair_to_dict(pair: PairScore) -> dict[str, Any]:
    """One pair: texts, normalized forms, alignment spans, counts and rate.

    A reference with alternatives also gives ``chosen_reference``, the form that was scored.
    """
    chosen = {} if pair.chosen_reference is None else {"chosen_reference": pair.chosen_reference}
    return {
        "reference": pair.reference,
        **chosen,
        "hypothesis": pair.hypothesis,
        "normalized_reference": pair.normalized_reference,
        "normalized_hypothesis": pair.normalized_hypothesis,
        "alignment": [op.as_dict() for op in pair.alignment.ops if op.op != "equal"],
        "hits": pair.hits,
        "substitutions": pair.substitutions,
        "deletions": pair.deletions,
        "insertions": pair.insertions,
        "reference_length": pair.reference_length,
        "rate": pair.rate,
    }


def score_to_dict(result: Score) -> dict[str, Any]:
    """The whole score: corpus figures, metric and config versions, details, and each pair.

    Alignment spans of kind ``equal`` are left out of each pair (the normalized forms
    carry them), so a snapshot diff points at the errors.
    """
    return {
        "metric": result.metric,
        "version": result.version,
        "language": result.language,
        "config_version": result.config_version,
        "unit": result.unit,
        "rate": result.rate,
        "hits": result.hits,
        "substitutions": result.substitutions,
        "deletions": result.deletions,
        "insertions": result.insertions,
        "errors": result.errors,
        "reference_length": result.reference_length,
        "details": result.details,
        "pairs": [pair_to_dict(pair) for pair in result.pairs],
    }
