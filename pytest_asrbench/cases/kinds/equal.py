"""The ``equal`` kind: every text of ``texts`` normalizes to the same string.

A reviewer's "these are the same words" (``Anmelde-Konto`` / ``Anmeldekonto``). A failure
lists each text's normalized form; for each text whose form differs from the first's, the
aligned view of the two forms and the normalizer step at which they grow apart (from
``explain``); then the steps that changed each text.
"""

from __future__ import annotations

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import IntakeForm, RunContext, register
from pytest_asrbench.cases.text_forms import explained, forms, header, traces
from pytest_asrbench.normalize.registry import get_config
from pytest_asrbench.scoring.display import describe_divergence

SCHEMA: dict = {
    "properties": {"texts": {"$ref": "#/$defs/text_list", "minItems": 2,
                             "description": "Two or more texts that must all normalize to the same string.",
                             "examples": [["five dollars", "$5"]]}},
    "required": ["texts"],
}


@register
class EqualRunner:
    kind = "equal"
    intake = IntakeForm(("texts",), least_texts=2, unordered=True)

    def run(self, case: Case, context: RunContext) -> CaseResult:
        found = forms(case)
        distinct = list(dict.fromkeys(form["normalized"] for form in found))  # in the texts' order
        failures = []
        if len(distinct) > 1:
            listing = "\n".join(f"  {form['text']!r} -> {form['normalized']!r}" for form in found)
            known = explained(case.fields["texts"], case.language)
            failures.append(f"normalized forms differ: {' != '.join(repr(form) for form in distinct)}\n{listing}\n"
                            + _divergences(found, case.language, known, context.color)
                            + traces(case.fields["texts"], case.language, known))
        return CaseResult({**header(case), "texts": found}, failures)


def _divergences(found: list[dict[str, str]], language: str, known: dict, color: bool) -> str:
    """For each text whose form differs from the first's: ``'a' vs 'b':`` then their aligned
    forms and where they grow apart (one block each, ending in a newline); ``known`` holds
    each text's explain trace."""
    unit = get_config(language).unit
    first = known[found[0]["text"]]
    blocks = []
    for form in found[1:]:
        if form["normalized"] != found[0]["normalized"]:
            blocks.append(f"  {found[0]['text']!r} vs {form['text']!r}:\n"
                          + describe_divergence(first, known[form["text"]], unit, color=color,
                                                indent="    ") + "\n")
    return "".join(blocks)
