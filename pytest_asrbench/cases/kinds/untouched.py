"""The ``untouched`` kind: every word of each text survives normalization.

Names and ordinary words (``천민수`` must not become ``1000민수``): the full normalizer may
change a text only as the language's surface steps do (case, punctuation, spacing, invisible
characters; :data:`~pytest_asrbench.cases.text_forms.SURFACE_STEPS`).
"""

from __future__ import annotations

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import IntakeForm, RunContext, register
from pytest_asrbench.cases.text_forms import forms, header, surface_normalizer, traces

SCHEMA: dict = {
    "properties": {"texts": {"$ref": "#/$defs/text_list", "minItems": 1,
                             "description": "One or more texts whose words normalization must leave alone (only "
                                            "case, punctuation and spacing may change).",
                             "examples": [["Will Bill May"]]}},
    "required": ["texts"],
}


@register
class UntouchedRunner:
    kind = "untouched"
    intake = IntakeForm(("texts",), least_texts=1, unordered=True)

    def run(self, case: Case, context: RunContext) -> CaseResult:
        found = forms(case)
        surface = surface_normalizer(case.language)
        failures = []
        for form in found:
            expected = surface(form["text"])
            if form["normalized"] != expected:
                failures.append(
                    f"normalized {form['normalized']!r} != expected {expected!r} (text {form['text']!r}: only its "
                    "case, punctuation and spacing may change)\n" + traces([form["text"]], case.language)
                )
        return CaseResult({**header(case), "texts": found}, failures)
