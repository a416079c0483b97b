"""The ``equal`` kind: every text of ``texts`` normalizes to the same string.

A reviewer's "these are the same words" (``Anmelde-Konto`` / ``Anmeldekonto``). A failure
lists each text's normalized form and the normalizer steps that changed it.
"""

from __future__ import annotations

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import RunContext, register
from pytest_asrbench.cases.text_forms import forms, header, traces

SCHEMA: dict = {
    "properties": {"texts": {"$ref": "#/$defs/text_list", "minItems": 2}},
    "required": ["texts"],
}


@register
class EqualRunner:
    kind = "equal"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        found = forms(case)
        distinct = sorted({form["normalized"] for form in found})
        failures = []
        if len(distinct) > 1:
            listing = "\n".join(f"  {form['text']!r} -> {form['normalized']!r}" for form in found)
            failures.append(f"texts should normalize to the same string but give {len(distinct)} forms:\n{listing}\n"
                            + traces(case.fields["texts"], case.language))
        return CaseResult({**header(case), "texts": found}, failures)
