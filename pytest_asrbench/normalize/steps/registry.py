"""The step registry itself: :data:`STEPS`, :data:`IDEMPOTENT` and the :func:`step` decorator.

A module of its own so that step modules import it, not their package: the package
``__init__`` imports every step module, and a step module that imported the package back
would make an import cycle (tests/test_layers.py forbids them).

A step is declared with what it needs: ``@step("punctuation", options=PunctuationOptions)``
gives it an option table (``[options.punctuation]`` of a config, validated by that model);
``@step("number_words", language="en")`` makes it a step of one language, which only that
language's config (and configs naming it in ``code_switch_languages``) may list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pytest_asrbench.normalize.config import LanguageConfig, StepOptions
from pytest_asrbench.normalize.pipeline import StepFunction

Lexicons = Mapping[str, Mapping[str, str]]
#: ``factory(config, lexicons)``, or ``factory(config, lexicons, options)`` for a step with
#: an option model; returns the ``str -> str`` function the pipeline runs.
StepFactory = Callable[..., StepFunction]


@dataclass(frozen=True)
class StepSpec:
    """One registered step: its factory and what it declares (option model, language)."""

    name: str
    factory: StepFactory
    idempotent: bool = False
    options: type[StepOptions] | None = None
    language: str | None = None

    def parse_options(self, table: Mapping[str, Any] | None) -> StepOptions | None:
        """The step's options from its ``[options.<step>]`` table (absent: the defaults).

        Raises:
            pydantic.ValidationError: a key is unknown or a value has the wrong type.
            ValueError: the step takes no options but a table is given.
        """
        if self.options is None:
            if table:
                raise ValueError(f"step {self.name!r} takes no options")
            return None
        return self.options.model_validate(dict(table or {}))

    def build(self, config: LanguageConfig, lexicons: Lexicons) -> StepFunction:
        """The step's function for one config (options read from ``config.options``)."""
        if self.options is None:
            return self.factory(config, lexicons)
        return self.factory(config, lexicons, self.parse_options(config.options.get(self.name)))


STEPS: dict[str, StepSpec] = {}
#: Steps whose output is a fixed point (``f(f(x)) == f(x)``, pinned by tests/normalize/test_invariants.py):
#: a pipeline that lists one twice skips the second run when nothing changed in between.
IDEMPOTENT: set[str] = set()


def step(name: str, *, idempotent: bool = False, options: type[StepOptions] | None = None,
         language: str | None = None) -> Callable[[StepFactory], StepFactory]:
    """Register a step factory under ``name`` (decorator).

    Args:
        idempotent: see :data:`IDEMPOTENT`.
        options: the pydantic model (a :class:`StepOptions`) of the step's ``[options.<name>]``
            table; the factory then takes ``(config, lexicons, options)``.
        language: the tag of the language the step belongs to (``None``: generic).

    Raises:
        RuntimeError: ``name`` is registered twice.
    """

    def register(factory: StepFactory) -> StepFactory:
        if name in STEPS:
            raise RuntimeError(f"normalizer step {name!r} registered twice")
        STEPS[name] = StepSpec(name, factory, idempotent, options, language)
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
