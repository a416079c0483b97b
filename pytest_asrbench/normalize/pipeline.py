"""A normalizer is a :class:`Pipeline`: an ordered list of named single-purpose steps.

Each step is a ``str -> str`` callable. The pipeline can be read as one list, a step can be
swapped by name in the config, and :meth:`Pipeline.explain` shows the output after each
step (the ``asrbench explain`` command).

A step function may carry a *trigger* (:func:`triggered`): a compiled pattern that every text
the step can change contains. The pipeline skips the step when the pattern does not match,
which is the one way to say "this step cannot change a text without these characters or
words"; the skip must never change an output (each language's output digests pin it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import regex

StepFunction = Callable[[str], str]

_TRIGGER = "asrbench_trigger"


def triggered(trigger: re.Pattern[str] | regex.Pattern | None, function: StepFunction) -> StepFunction:
    """``function``, marked to run only on texts where ``trigger.search`` finds a match.

    Args:
        trigger: a compiled pattern present in every text ``function`` can change (``None``:
            no trigger, the function runs on every text). A pattern that misses a text the
            function would change is a bug that moves outputs; keep it a superset (for
            example the character class of every character the step reads). A ``regex``
            pattern is accepted too: a step whose rules are Unicode properties (``\\p{P}``)
            names the same classes in its trigger, and the ``regex`` module searches a large
            property class many times faster than ``re`` searches the same class spelled out.
        function: the step's ``str -> str`` function.

    Returns:
        ``function`` itself, with the trigger attached.

    Raises:
        TypeError: ``trigger`` is not a compiled ``re`` or ``regex`` pattern (a string).
    """
    if trigger is not None and not isinstance(trigger, (re.Pattern, regex.Pattern)):
        raise TypeError(f"a step trigger must be a compiled re.Pattern or regex.Pattern, not {type(trigger).__name__}")
    setattr(function, _TRIGGER, trigger)
    return function


def trigger_of(function: StepFunction) -> re.Pattern[str] | regex.Pattern | None:
    """The trigger :func:`triggered` attached to ``function`` (``None``: runs on every text)."""
    return getattr(function, _TRIGGER, None)


@dataclass(frozen=True)
class Step:
    """One named step of a normalizer; ``idempotent`` when its output is a fixed point."""

    name: str
    function: StepFunction
    idempotent: bool = False

    def __call__(self, text: str) -> str:
        return self.function(text)


@dataclass(frozen=True)
class Pipeline:
    """The normalizer of one language: ``steps`` applied in order."""

    language: str
    steps: tuple[Step, ...]

    def __call__(self, text: str) -> str:
        # The plan compiled into one function (_runner): this runs for every text scored.
        return self._runner(text)

    def explain(self, text: str) -> list[tuple[str, str]]:
        """Return ``[(step name, text after that step), ...]``, starting with ``("input", text)``."""
        trace = [("input", text)]
        self._run(text, trace)
        return trace

    def _run(self, text: str, trace: list[tuple[str, str]] | None) -> str:
        # An idempotent step listed again is skipped when the text is still the very object
        # it returned before (no step in between changed anything): same result, less work.
        last_output: dict[str, str] = {}
        for name, function, idempotent, search in self._plan:
            skipped = search is not None and search(text) is None
            if not skipped and not (idempotent and last_output.get(name) is text):
                text = function(text)
                if idempotent:
                    last_output[name] = text
            if trace is not None:
                trace.append((name, text))
        return text

    @cached_property
    def _plan(self) -> tuple[tuple[str, StepFunction, bool, Callable | None], ...]:
        """``(name, function, idempotent, trigger search)`` per step, read once: the loop
        above runs for every text, and attribute lookups on 27 steps were a measurable share
        of it."""
        plan = []
        for step in self.steps:
            trigger = trigger_of(step.function)
            plan.append((step.name, step.function, step.idempotent,
                         None if trigger is None else trigger.search))
        return tuple(plan)

    @cached_property
    def _runner(self) -> StepFunction:
        """:meth:`_run` without the trace, generated once as straight-line code over the
        plan (as :mod:`dataclasses` generates ``__init__``): one line per listed step, its
        trigger test inline, and the repeat skip kept only for an idempotent step listed more
        than once (a local variable holds its last output). The loop it replaces paid a tuple
        unpack, two tests and a dict lookup per listed step on every text (5-16% of the English
        normalizer's time, benchmarks/README.md). Same results as :meth:`_run`, step for step."""
        counts: dict[str, int] = {}
        for name, _, _, _ in self._plan:
            counts[name] = counts.get(name, 0) + 1
        # One local per idempotent step listed more than once: its last output (None: not run yet).
        repeated: dict[str, str] = {}
        for name, _, idempotent, _ in self._plan:
            if idempotent and counts[name] > 1 and name not in repeated:
                repeated[name] = f"last_{len(repeated)}"
        namespace: dict[str, object] = {}
        lines = ["def run(text):"]
        lines += [f"    {variable} = None" for variable in repeated.values()]
        for index, (name, function, idempotent, search) in enumerate(self._plan):
            namespace[f"step_{index}"] = function
            indent = "    "
            if search is not None:
                namespace[f"search_{index}"] = search
                lines.append(f"{indent}if search_{index}(text) is not None:")
                indent += "    "
            variable = repeated.get(name)
            if variable is None:
                lines.append(f"{indent}text = step_{index}(text)")
            else:
                lines.append(f"{indent}if {variable} is not text:")
                lines.append(f"{indent}    text = {variable} = step_{index}(text)")
        lines.append("    return text")
        exec(compile("\n".join(lines), f"<normalizer pipeline {self.language}>", "exec"), namespace)
        return namespace["run"]
