"""The registry of normalizer steps: a config's ``steps`` list names entries of :data:`STEPS`.

The registry lives in :mod:`.registry`; this package re-exports it and imports every
step module. A step factory takes the language's :class:`~pytest_asrbench.normalize.config.LanguageConfig`
and its loaded lexicons and returns a ``str -> str`` function. Factories run once per
language (the built pipeline is cached); the returned functions run per text.
"""

from pytest_asrbench.normalize.steps.registry import IDEMPOTENT, STEPS, Lexicons, StepFactory, StepSpec, require_lexicon, step

__all__ = ["IDEMPOTENT", "STEPS", "Lexicons", "StepFactory", "StepSpec", "require_lexicon", "step"]

# Modules that register the generic steps (a language's own steps are in
# normalize/languages/<tag>/, imported by normalize/registry.py). Imported explicitly (not discovered) so that the import
# graph, which the metric signatures hash, sees every one of them.
from pytest_asrbench.normalize.steps import basic  # noqa: E402,F401
from pytest_asrbench.normalize.steps import amounts, brackets, hyphen_compounds, number_words, numbers  # noqa: E402,F401
from pytest_asrbench.normalize.steps import spoken_symbols, titles, word_shapes  # noqa: E402,F401
from pytest_asrbench.normalize.steps import code_runs, codes, emails, fractions, money, phrases, units  # noqa: E402,F401
from pytest_asrbench.normalize.steps import numeric_forms, roman_numerals  # noqa: E402,F401
