"""The registry of normalizer steps: a config's ``steps`` list names entries of :data:`STEPS`.

A step factory takes the language's :class:`~pytest_asrbench.normalize.config.LanguageConfig`
and its loaded lexicons and returns a ``str -> str`` function. Factories run once per
language (the built pipeline is cached); the returned functions run per text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pytest_asrbench.normalize.config import LanguageConfig
from pytest_asrbench.normalize.pipeline import StepFunction

Lexicons = Mapping[str, Mapping[str, str]]
StepFactory = Callable[[LanguageConfig, Lexicons], StepFunction]

STEPS: dict[str, StepFactory] = {}
#: Steps whose output is a fixed point (``f(f(x)) == f(x)``, pinned by tests/test_invariants.py):
#: a pipeline that lists one twice skips the second run when nothing changed in between.
IDEMPOTENT: set[str] = set()


def step(name: str, *, idempotent: bool = False) -> Callable[[StepFactory], StepFactory]:
    """Register a step factory under ``name`` (decorator); see :data:`IDEMPOTENT`."""

    def register(factory: StepFactory) -> StepFactory:
        if name in STEPS:
            raise RuntimeError(f"normalizer step {name!r} registered twice")
        STEPS[name] = factory
        if idempotent:
            IDEMPOTENT.add(name)
        return factory

    return register


def require_lexicon(lexicons: Lexicons, name: str, step_name: str) -> Mapping[str, str]:
    """The lexicon ``name`` of a config, or a :class:`ConfigError` saying where to declare it."""
    from pytest_asrbench.errors import ConfigError

    if name not in lexicons:
        raise ConfigError(
            f"step {step_name!r} needs the lexicon {name!r}: add `{name} = \"<lang>/{name}.tsv\"` under [lexicons]"
        )
    return lexicons[name]


# Modules that register steps. Imported explicitly (not discovered) so that the import
# graph, which the metric signatures hash, sees every one of them.
from pytest_asrbench.normalize.steps import basic  # noqa: E402,F401
from pytest_asrbench.normalize.steps import hindi, hyphen_compounds  # noqa: E402,F401
from pytest_asrbench.normalize.steps import brackets, english_numbers, english_words  # noqa: E402,F401
from pytest_asrbench.normalize.steps import lexicon_words, spoken_symbols, word_shapes  # noqa: E402,F401
