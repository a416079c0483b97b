"""What the kinds about the normalizer alone (``equal``, ``distinct``, ``untouched``,
``normalize``) share: a case's normalized forms, its output header, and the step traces a
failure shows.

A failure names the texts and their normalized forms, then each text's normalizer steps
that changed it (as ``asrbench explain`` prints them, ``*`` marking a change), so the
reviewer sees which step made the forms differ (or, for ``distinct``, the step at which
the two texts became one).
"""

from __future__ import annotations

from functools import lru_cache

import pytest_asrbench._shared.caches as caches
from pytest_asrbench.cases.model import Case
from pytest_asrbench.normalize.pipeline import Pipeline
from pytest_asrbench.normalize.registry import build_pipeline, explain, get_config, get_normalizer
from pytest_asrbench.scoring.display import render_trace

# The steps that only change the surface of a word (form, case, punctuation, spacing):
# a word that comes out of the full normalizer as it comes out of these was untouched.
SURFACE_STEPS = ("invisible_characters", "nfc", "unicode_whitespace", "lowercase", "punctuation", "collapse_whitespace", "remove_spaces")


@lru_cache(maxsize=None)
def surface_normalizer(language: str) -> Pipeline:
    """The language's own surface steps (those of :data:`SURFACE_STEPS` its config lists)."""
    return build_pipeline(language, [name for name in get_config(language).steps if name in SURFACE_STEPS])


caches.register(surface_normalizer.cache_clear, "cases.text_forms.surface_normalizer")


def header(case: Case) -> dict:
    """The output fields every text kind starts with (the version is dropped from snapshots)."""
    config = get_config(case.language)
    return {"kind": case.kind, "language": case.language, "config_version": config.version}


def forms(case: Case) -> list[dict[str, str]]:
    """``[{"text", "normalized"}]`` for each of the case's ``texts``."""
    normalize = get_normalizer(case.language)
    return [{"text": text, "normalized": normalize(text)} for text in case.fields["texts"]]


def explained(texts: list[str], language: str) -> dict[str, list[tuple[str, str]]]:
    """``{text: its explain trace}`` of ``texts``, each text explained once (a failure shows a
    trace in more than one place: the divergence of two forms and each text's steps)."""
    return {text: explain(text, language) for text in dict.fromkeys(texts)}


def steps_of(text: str, language: str, trace: list[tuple[str, str]] | None = None) -> str:
    """The normalizer steps that changed ``text``, one indented line each (the input first);
    ``trace`` is its explain trace when the caller has it already."""
    trace = explain(text, language) if trace is None else trace
    return "\n".join(f"    {line}" for line in render_trace(trace, changed_only=True))


def traces(texts: list[str], language: str, known: dict[str, list[tuple[str, str]]] | None = None) -> str:
    """Each text's changing steps under a ``steps of 'text':`` line (what a failure shows);
    ``known`` holds traces already made (:func:`explained`)."""
    known = known or {}
    return "\n".join(f"  steps of {text!r}:\n{steps_of(text, language, known.get(text))}" for text in texts)
