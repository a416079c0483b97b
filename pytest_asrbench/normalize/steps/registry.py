"""The step registry itself: :data:`STEPS`, :data:`IDEMPOTENT` and the :func:`step` decorator.

A module of its own so that step modules import it, not their package: the package
``__init__`` imports every step module, and a step module that imported the package back
would make an import cycle (tests/test_layers.py forbids them).

A step is declared with what it needs: ``@step("punctuation", options=PunctuationOptions)``
gives it an option table (``[options.punctuation]`` of a config, validated by that model);
``@step("number_words", language="en")`` makes it a step of one language, which only that
language's config (and configs naming it in ``code_switch_languages``) may list.

A step also states the order it needs, each with a one-line reason:
``@step("digit_groups", before={"punctuation": "..."})`` (it reads something that step
removes: every listing of it runs before the first listing of ``punctuation``) and
``@step("amounts", after={"spoken_numbers": "..."})`` (it reads what that step writes: the
first listing of ``spoken_numbers`` runs before its first listing). A rule applies to a step
list that names both steps; ``normalize/checks.py`` refuses a list that breaks one.

A step whose output comes from a third-party library names it:
``@step("spoken_numbers", libraries=("text2num",))``. This is the one source of which
libraries a language depends on (the steps its config lists): the metric signatures hash
their installed versions (read from this declaration in the source, never imported),
``asrbench check-version`` reports a new pin of one, and the CER views record them.
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
    #: ``((other step, reason), ...)``: every listing of this step runs before the first of the other.
    before: tuple[tuple[str, str], ...] = ()
    #: ``((other step, reason), ...)``: the first listing of the other runs before this step's first.
    after: tuple[tuple[str, str], ...] = ()
    #: Distributions (PyPI names) whose output feeds this step's output.
    libraries: tuple[str, ...] = ()

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


def libraries_of(names) -> tuple[str, ...]:
    """The distributions the registered steps ``names`` declare (sorted, each once).

    Raises:
        KeyError: a name is not a registered step.
    """
    return tuple(sorted({dist for name in names for dist in STEPS[name].libraries}))
#: Steps whose output is a fixed point (``f(f(x)) == f(x)``, pinned by tests/normalize/test_invariants.py):
#: a pipeline that lists one twice skips the second run when nothing changed in between.
IDEMPOTENT: set[str] = set()


def _order(name: str, relation: str, rules: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    for other, reason in (rules or {}).items():
        if other == name:
            raise RuntimeError(f"normalizer step {name!r} declares itself in {relation}=")
        if not isinstance(reason, str) or not reason.strip() or "\n" in reason:
            raise RuntimeError(f"normalizer step {name!r}: {relation}[{other!r}] needs a one-line reason")
    return tuple(sorted((rules or {}).items()))


def step(name: str, *, idempotent: bool = False, options: type[StepOptions] | None = None,
         language: str | None = None, before: Mapping[str, str] | None = None,
         after: Mapping[str, str] | None = None,
         libraries: tuple[str, ...] = ()) -> Callable[[StepFactory], StepFactory]:
    """Register a step factory under ``name`` (decorator).

    Args:
        idempotent: see :data:`IDEMPOTENT`.
        options: the pydantic model (a :class:`StepOptions`) of the step's ``[options.<name>]``
            table; the factory then takes ``(config, lexicons, options)``.
        language: the tag of the language the step belongs to (``None``: generic).
        before: ``{other step: one-line reason}``: steps this one must run before (it reads
            something they remove); see the module docstring.
        after: ``{other step: one-line reason}``: steps that must run before this one (it
            reads what they write).
        libraries: distributions (PyPI names, a literal tuple) whose output feeds the step's
            output: see the module docstring.

    Raises:
        RuntimeError: ``name`` is registered twice; an order rule names the step itself or
            has no one-line reason.
    """
    rules_before, rules_after = _order(name, "before", before), _order(name, "after", after)
    if isinstance(libraries, str) or not all(isinstance(dist, str) and dist for dist in libraries):
        raise RuntimeError(f"normalizer step {name!r}: libraries must be a tuple of distribution names")

    def register(factory: StepFactory) -> StepFactory:
        if name in STEPS:
            raise RuntimeError(f"normalizer step {name!r} registered twice")
        STEPS[name] = StepSpec(name, factory, idempotent, options, language, rules_before, rules_after,
                               tuple(libraries))
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
