"""The ``normalize`` kind: the normalized form of ``text`` equals ``expect``."""

from __future__ import annotations

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import IntakeForm, RunContext, register
from pytest_asrbench.cases.text_forms import header, traces
from pytest_asrbench.normalize.registry import get_normalizer

SCHEMA: dict = {
    "properties": {
        "text": {"type": "string", "description": "The text to normalize.", "examples": ["It’s fine"]},
        "expect": {"type": "string", "description": "The normalized form the text must have.",
                   "examples": ["it is fine"]},
    },
    "required": ["text", "expect"],
}


@register
class NormalizeRunner:
    kind = "normalize"
    intake = IntakeForm(("text", "expect"))

    def run(self, case: Case, context: RunContext) -> CaseResult:
        text, expect = case.fields["text"], case.fields["expect"]
        normalized = get_normalizer(case.language)(text)
        failures = []
        if normalized != expect:
            failures.append(f"normalized {normalized!r} != expected {expect!r} (text {text!r})\n"
                            + traces([text], case.language))
        return CaseResult({**header(case), "text": text, "normalized": normalized}, failures)
