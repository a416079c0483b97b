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
import pytest_asrbench.normalize.steps.basic as basic  # noqa: E402,F401
import pytest_asrbench.normalize.steps.amounts as amounts  # noqa: E402,F401
import pytest_asrbench.normalize.steps.brackets as brackets  # noqa: E402,F401
import pytest_asrbench.normalize.steps.hyphen_compounds as hyphen_compounds  # noqa: E402,F401
import pytest_asrbench.normalize.steps.number_words as number_words  # noqa: E402,F401
import pytest_asrbench.normalize.steps.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.steps.spoken_symbols as spoken_symbols  # noqa: E402,F401
import pytest_asrbench.normalize.steps.titles as titles  # noqa: E402,F401
import pytest_asrbench.normalize.steps.word_shapes as word_shapes  # noqa: E402,F401
import pytest_asrbench.normalize.steps.code_runs as code_runs  # noqa: E402,F401
import pytest_asrbench.normalize.steps.codes as codes  # noqa: E402,F401
import pytest_asrbench.normalize.steps.emails as emails  # noqa: E402,F401
import pytest_asrbench.normalize.steps.fractions as fractions  # noqa: E402,F401
import pytest_asrbench.normalize.steps.money as money  # noqa: E402,F401
import pytest_asrbench.normalize.steps.phrases as phrases  # noqa: E402,F401
import pytest_asrbench.normalize.steps.units as units  # noqa: E402,F401
import pytest_asrbench.normalize.steps.numeric_forms as numeric_forms  # noqa: E402,F401
import pytest_asrbench.normalize.steps.roman_numerals as roman_numerals  # noqa: E402,F401
