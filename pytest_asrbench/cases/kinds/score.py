"""The ``score`` kind: score reference(s) against hypothesis(es) and check the listed values.

A failing case shows, under the values that did not hold, everything a reviewer needs to
judge it (:func:`~pytest_asrbench.scoring.display.describe_score`): both texts as written
and normalized, the aligned REF/HYP view with S/D/I marks, the counts, and (Hindi) the
strict rate and each code-switch rescue.
"""

from __future__ import annotations

import math
from typing import Any

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import RunContext, register
from pytest_asrbench.scoring import Score, score
from pytest_asrbench.scoring.display import describe_score
from pytest_asrbench.scoring.serialize import score_to_dict

DEFAULT_TOLERANCE = 1e-9


#: A reference or hypothesis: one text, or a list of texts scored as one corpus.
_TEXTS = {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/text_list", "minItems": 1}]}
#: A value ``expect`` may name: numbers (rates, counts), null (an empty reference's rate), text, a flag.
EXPECT_VALUE = {"type": ["number", "integer", "null", "string", "boolean"]}

SCHEMA: dict = {
    "properties": {
        "reference": _TEXTS,
        "hypothesis": _TEXTS,
        "expect": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": EXPECT_VALUE,
            "description": "Values of the Score to check: rate, hits, substitutions, deletions, insertions, "
                           "reference_length, errors, or any key (or dotted path) of details. Rates and counts "
                           "must be numbers (see $defs/score_values).",
            "$ref": "#/$defs/score_values",
        },
        "tolerance": {"type": "number", "minimum": 0},
    },
    "required": ["reference", "hypothesis", "expect"],
}


def lookup(result: dict[str, Any], key: str) -> tuple[bool, Any]:
    """Find ``key`` in a score dict: a top-level figure, a dotted path, or a key of ``details``."""
    if key in result:
        return True, result[key]
    node: Any = result
    for part in key.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            break
    else:
        return True, node
    details = result.get("details", {})
    if key in details:
        return True, details[key]
    return False, None


def check_expectations(result: dict[str, Any], expect: dict[str, Any], tolerance: float) -> list[str]:
    """Each expected value that the result does not hold, as a sentence."""
    failures = []
    for key, wanted in expect.items():
        found, actual = lookup(result, key)
        if not found:
            failures.append(f"expect.{key}: the score has no such value (known: {', '.join(sorted(result))}, "
                            f"details: {', '.join(sorted(result.get('details', {}))) or 'none'})")
        elif isinstance(wanted, (int, float)) and not isinstance(wanted, bool) and isinstance(actual, (int, float)):
            if not math.isclose(actual, wanted, rel_tol=0.0, abs_tol=tolerance):
                failures.append(f"{key} is {actual!r}, expected {wanted!r} (tolerance {tolerance})")
        elif actual != wanted:
            failures.append(f"{key} is {actual!r}, expected {wanted!r}")
    return failures


def explained(failures: list[str], result: Score) -> list[str]:
    """``failures`` followed by the account of ``result`` a reviewer needs (nothing when
    there is no failure): what a failing ``score`` or ``asr`` case reports."""
    return [*failures, describe_score(result)] if failures else []


@register
class ScoreRunner:
    kind = "score"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        result = score(case.fields["reference"], case.fields["hypothesis"], case.language, case.metric)
        data = score_to_dict(result)
        failures = check_expectations(data, case.fields["expect"], case.fields.get("tolerance", DEFAULT_TOLERANCE))
        return CaseResult({"kind": case.kind, **data}, explained(failures, result))
