"""The step registry itself: :data:`STEPS`, :data:`IDEMPOTENT` and the :func:`step` decorator.

A module of its own so that step modules import it, not their package: the package
``__init__`` imports every step module, and a step module that imported the package back
would make an import cycle (tests/test_layers.py forbids them).
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
