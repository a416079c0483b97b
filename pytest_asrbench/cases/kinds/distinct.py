"""The ``distinct`` kind: the two texts of ``texts`` do not normalize to the same string.

A reviewer's "these are different words" (a name the normalizer must not merge with a
number). A failure names the step at which the two texts became one.
"""

from __future__ import annotations

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import IntakeForm, RunContext, register
from pytest_asrbench.cases.text_forms import explained, forms, header, traces
from pytest_asrbench.scoring.display import first_common_step

SCHEMA: dict = {
    "properties": {"texts": {"$ref": "#/$defs/text_list", "minItems": 2, "maxItems": 2,
                             "description": "Exactly two texts that must normalize to different strings.",
                             "examples": [["flight", "fight"]]}},
    "required": ["texts"],
}


@register
class DistinctRunner:
    kind = "distinct"
    intake = IntakeForm(("texts",), least_texts=2, unordered=True)

    def run(self, case: Case, context: RunContext) -> CaseResult:
        found = forms(case)
        failures = []
        if found[0]["normalized"] == found[1]["normalized"]:
            texts = [form["text"] for form in found]
            known = explained(texts, case.language)
            step = first_common_step(known[texts[0]], known[texts[1]])
            failures.append(
                f"both normalize to {found[0]['normalized']!r} (one from step {step!r}): {found[0]['text']!r} and "
                f"{found[1]['text']!r} should stay different\n"
                + traces(texts, case.language, known)
            )
        return CaseResult({**header(case), "texts": found}, failures)
