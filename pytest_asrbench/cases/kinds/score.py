"""The ``score`` kind: score reference(s) against hypothesis(es) and check the listed values.

A failing case shows, under the values that did not hold, everything a reviewer needs to
judge it (:func:`~pytest_asrbench.scoring.display.describe_score`): both texts as written
and normalized, the aligned REF/HYP view with S/D/I marks, the counts, and (Hindi) the
strict rate and each code-switch rescue.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import pytest_asrbench._shared.caches as caches
from pytest_asrbench._shared.failure_reason import distinct_numbers
from pytest_asrbench.cases.field_help import did_you_mean
from pytest_asrbench.cases.figures import score_figures
from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import ExportedPair, IntakeForm, RunContext, register
from pytest_asrbench.cases.loader import case_schema
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
        "reference": {**_TEXTS, "description": "The reference: what was said (a text, or a list of texts scored "
                                               "as one corpus).", "examples": ["the cat sat"]},
        "hypothesis": {**_TEXTS, "description": "The hypothesis: what the recognizer wrote (as many texts as the "
                                                "reference).", "examples": ["the bat sat"]},
        "expect": {
            "type": "object",
            "minProperties": 1,
            "examples": [{"rate": 0.25}, {"max_rate": 0.1}],
            "additionalProperties": EXPECT_VALUE,
            "description": "Values of the Score to check: rate, hits, substitutions, deletions, insertions, "
                           "reference_length, errors, or any key (or dotted path) of details; max_rate, a bound: "
                           "the rate is at most this (plus the tolerance). Rates and counts must be numbers "
                           "(see $defs/score_values).",
            "properties": {"max_rate": {"type": "number", "minimum": 0,
                                        "description": "an upper bound of the rate (the tolerance added)"}},
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


#: Score fields ``expect`` may not name: versions are checked by signature cases, ``pairs``
#: is the per-pair record (name a figure instead).
NOT_EXPECTABLE = frozenset({"version", "config_version", "pairs", "details"})


def expectable_keys(result: dict[str, Any]) -> list[str]:
    """The keys ``expect`` may name for a score dict: its figures (not versions) and the keys
    of its ``details`` (a dotted path such as ``details.code_switch.rescued_errors`` reaches
    deeper)."""
    return [*sorted(key for key in result if key not in NOT_EXPECTABLE),
            *sorted(result.get("details", {}))]


def unknown_key_message(key: str, result: dict[str, Any]) -> str:
    """An ``expect`` key the score has no value for: the nearest expectable key
    (:func:`~pytest_asrbench.cases.field_help.did_you_mean`) and every one."""
    keys = expectable_keys(result)
    hint = did_you_mean(key, keys)
    return (f"expect.{key}: the score has no such value; {hint + ' ' if hint else ''}expectable keys: "
            f"{', '.join(keys)} (or a dotted path into details, e.g. details.code_switch.rescued_errors)")


@lru_cache(maxsize=None)
def _probe(language: str, metric: str) -> dict[str, Any]:
    """The score dict of a one-word pair: which keys a score of (language, metric) has."""
    return score_to_dict(score("a", "b", language, metric))


caches.register(_probe.cache_clear, "cases.kinds.score._probe")


def load_problems(case: Case) -> list[tuple[str, str]]:
    """Faults found when the case file loads, as ``(field, message)``: an ``expect`` key that
    no score of the case's language and metric has (a typo such as ``rat``) and is no bound
    (:data:`BOUNDS`).

    Some details appear only for some texts (Hindi's ``wer_hi`` when Hindi words are scored),
    so a key is accepted when a score of a one-word pair has it, or when its name has the
    shape of a rate or count a view adds (``*rate``, ``wer_*``, ``*_errors``, ``*_words``:
    the names ``$defs/score_values`` of the case schema types); dotted paths are checked by
    their first part only. What is left (``rat``) fails at load time; the rest is checked
    when the case runs."""
    probe = _probe(case.language, case.metric)
    # name patterns of the rates and counts views add (the case schema's $defs/score_values)
    value_names = tuple(case_schema()["$defs"]["score_values"]["patternProperties"])
    problems = []
    for key in case.fields.get("expect", {}):
        head = key.split(".")[0]
        if head in ("version", "config_version"):
            problems.append((key, f"expect.{key}: versions are not expectable (the signature cases check them); "
                                  "remove it"))
        elif head == "details" and "." in key or key in BOUNDS:
            continue  # a path into details: its keys depend on the texts
        elif head in NOT_EXPECTABLE or not (lookup(probe, head)[0] or any(
                re.search(pattern, head) for pattern in value_names)):
            problems.append((key, unknown_key_message(key, probe)))
    return problems


#: Keys of ``expect`` that bound a figure instead of naming one: ``max_rate`` is the most the
#: ``rate`` may be (the tolerance added); a ``None`` rate (empty reference) does not hold it.
BOUNDS = {"max_rate": "rate"}


def check_expectations(result: dict[str, Any], expect: dict[str, Any], tolerance: float,
                       metric: str | None = None) -> list[str]:
    """Each expected value (or bound, :data:`BOUNDS`) that the result does not hold, as one
    line that opens with the figure, its value and the expected one
    (:func:`mismatch_line`); ``metric`` (default: the result's own ``metric``) names the rate."""
    metric = metric or result.get("metric")
    failures = []
    for key, wanted in expect.items():
        if key in BOUNDS:
            actual = result.get(BOUNDS[key])
            if actual is None or actual > wanted + tolerance:
                failures.append(mismatch_line(BOUNDS[key], actual, wanted, tolerance, metric, bound=True))
            continue
        found, actual = lookup(result, key)
        if not found:
            failures.append(unknown_key_message(key, result))
        elif _is_number(wanted) and _is_number(actual):
            if not math.isclose(actual, wanted, rel_tol=0.0, abs_tol=tolerance):
                failures.append(mismatch_line(key, actual, wanted, tolerance, metric))
        elif actual != wanted:
            failures.append(mismatch_line(key, actual, wanted, tolerance, metric))
    return failures


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def mismatch_line(key: str, actual: Any, wanted: Any, tolerance: float, metric: str | None = None,
                  bound: bool = False) -> str:
    """One expected figure that did not hold, what matters first: ``stt_wer 16.7% != expected
    0.0% (rate 0.16666666666666666, expected 0.0, tolerance 1e-09)``. The ``rate`` is named by
    its ``metric`` and written as a percentage, numbers as short as they stay different
    (:func:`~pytest_asrbench._shared.failure_reason.distinct_numbers`), their full values in the
    brackets; ``bound`` (``max_rate``): ``stt_wer 33.3% > max 10.0% ...``. An empty
    reference's rate (``None``) is written ``none (empty reference)``, any other value that is
    not a number as ``repr`` writes it: ``transcript 'good morning' != expected 'good evening'``."""
    is_rate = key == "rate"
    label = metric if is_rate and metric else key
    relation = "> max" if bound else "!= expected"
    if _is_number(actual) and _is_number(wanted):
        shown = distinct_numbers(actual, wanted, percent=is_rate)
        detail = []
        if shown != (repr(actual), repr(wanted)):
            detail += [f"{key} {actual!r}", f"{'max_' + key if bound else 'expected'} {wanted!r}"]
        if isinstance(actual, float) or isinstance(wanted, float):
            detail.append(f"tolerance {tolerance}")
        return f"{label} {shown[0]} {relation} {shown[1]}" + (f" ({', '.join(detail)})" if detail else "")

    def text(value: Any) -> str:
        if value is None and is_rate:
            return "none (empty reference)"
        return distinct_numbers(value, value, percent=True)[0] if is_rate and _is_number(value) else repr(value)

    return f"{label} {text(actual)}{', expected at most' if bound else ' != expected'} {text(wanted)}"


def explained(failures: list[str], result: Score, color: bool = False) -> list[str]:
    """``failures`` followed by the account of ``result`` a reviewer needs (nothing when
    there is no failure): what a failing ``score`` or ``asr`` case reports; ``color`` colours
    its aligned views (the run's :attr:`RunContext.color`)."""
    return [*failures, describe_score(result, color=color)] if failures else []


@register
class ScoreRunner:
    kind = "score"
    load_problems = staticmethod(load_problems)
    intake = IntakeForm(("reference", "hypothesis", "expect_rate"), rate_now=True)

    @staticmethod
    def exported_pairs(case: Case, recorded) -> list[ExportedPair]:
        """Each reference/hypothesis pair of the case (a list-valued case gives one per pair)."""
        def as_list(value) -> list[str]:
            return [str(item) for item in value] if isinstance(value, list) else [str(value)]

        return [ExportedPair(reference, hypothesis)
                for reference, hypothesis in zip(as_list(case.fields["reference"]), as_list(case.fields["hypothesis"]))]

    def run(self, case: Case, context: RunContext) -> CaseResult:
        result = score(case.fields["reference"], case.fields["hypothesis"], case.language, case.metric)
        data = score_to_dict(result)
        failures = check_expectations(data, case.fields["expect"], case.fields.get("tolerance", DEFAULT_TOLERANCE))
        return CaseResult({"kind": case.kind, **data}, explained(failures, result, context.color),
                          figures=score_figures(data, result if context.headlines else None),
                          recorded_figures=score_figures(context.recorded(case)))
