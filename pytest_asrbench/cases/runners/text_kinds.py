"""Kinds about the normalizer alone: ``equal``, ``distinct``, ``untouched``, ``normalize``.

A failure names the texts and their normalized forms, then each text's normalizer steps
that changed it (as ``asrbench explain`` prints them, ``*`` marking a change), so the
reviewer sees which step made the forms differ (or, for ``distinct``, the step at which
the two texts became one).
"""

from __future__ import annotations

from functools import lru_cache

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import RunContext, register
from pytest_asrbench.normalize.pipeline import Pipeline
from pytest_asrbench.normalize.registry import build_pipeline, explain, get_config, get_normalizer
from pytest_asrbench.scoring.display import first_common_step, render_trace

# The steps that only change the surface of a word (form, case, punctuation, spacing):
# a word that comes out of the full normalizer as it comes out of these was untouched.
SURFACE_STEPS = ("invisible_characters", "nfc", "unicode_whitespace", "lowercase", "punctuation", "collapse_whitespace", "remove_spaces")


@lru_cache(maxsize=None)
def surface_normalizer(language: str) -> Pipeline:
    """The language's own surface steps (those of :data:`SURFACE_STEPS` its config lists)."""
    return build_pipeline(language, [name for name in get_config(language).steps if name in SURFACE_STEPS])


def _header(case: Case) -> dict:
    config = get_config(case.language)
    return {"kind": case.kind, "language": case.language, "config_version": config.version}


def _forms(case: Case) -> list[dict[str, str]]:
    normalize = get_normalizer(case.language)
    return [{"text": text, "normalized": normalize(text)} for text in case.fields["texts"]]


def steps_of(text: str, language: str) -> str:
    """The normalizer steps that changed ``text``, one indented line each (the input first)."""
    return "\n".join(f"    {line}" for line in render_trace(explain(text, language), changed_only=True))


def _traces(texts: list[str], language: str) -> str:
    return "\n".join(f"  steps of {text!r}:\n{steps_of(text, language)}" for text in texts)


@register
class EqualRunner:
    kind = "equal"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        forms = _forms(case)
        distinct = sorted({form["normalized"] for form in forms})
        failures = []
        if len(distinct) > 1:
            listing = "\n".join(f"  {form['text']!r} -> {form['normalized']!r}" for form in forms)
            failures.append(f"texts should normalize to the same string but give {len(distinct)} forms:\n{listing}\n"
                            + _traces(case.fields["texts"], case.language))
        return CaseResult({**_header(case), "texts": forms}, failures)


@register
class DistinctRunner:
    kind = "distinct"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        forms = _forms(case)
        failures = []
        if forms[0]["normalized"] == forms[1]["normalized"]:
            first, second = (explain(form["text"], case.language) for form in forms)
            step = first_common_step(first, second)
            failures.append(
                f"{forms[0]['text']!r} and {forms[1]['text']!r} should stay different but both normalize to "
                f"{forms[0]['normalized']!r} (they become one at step {step!r})\n"
                + _traces([form["text"] for form in forms], case.language)
            )
        return CaseResult({**_header(case), "texts": forms}, failures)


@register
class UntouchedRunner:
    kind = "untouched"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        forms = _forms(case)
        surface = surface_normalizer(case.language)
        failures = []
        for form in forms:
            expected = surface(form["text"])
            if form["normalized"] != expected:
                failures.append(
                    f"{form['text']!r} should only change in case, punctuation and spacing ({expected!r}) "
                    f"but normalizes to {form['normalized']!r}\n" + _traces([form["text"]], case.language)
                )
        return CaseResult({**_header(case), "texts": forms}, failures)


@register
class NormalizeRunner:
    kind = "normalize"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        text, expect = case.fields["text"], case.fields["expect"]
        normalized = get_normalizer(case.language)(text)
        failures = []
        if normalized != expect:
            failures.append(f"{text!r} normalizes to {normalized!r}, expected {expect!r}\n" + _traces([text], case.language))
        return CaseResult({**_header(case), "text": text, "normalized": normalized}, failures)
