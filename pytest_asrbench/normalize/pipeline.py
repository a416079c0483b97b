"""A normalizer is a :class:`Pipeline`: an ordered list of named single-purpose steps.

Each step is a ``str -> str`` callable. The pipeline can be read as one list, a step can be
swapped by name in the config, and :meth:`Pipeline.explain` shows the output after each
step (the ``asrbench explain`` command).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

StepFunction = Callable[[str], str]


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
        # The loop of _run without the trace: this one runs for every text scored.
        last_output: dict[str, str] = {}
        for name, function, idempotent in self._plan:
            if idempotent:
                if last_output.get(name) is not text:
                    text = last_output[name] = function(text)
            else:
                text = function(text)
        return text

    def explain(self, text: str) -> list[tuple[str, str]]:
        """Return ``[(step name, text after that step), ...]``, starting with ``("input", text)``."""
        trace = [("input", text)]
        self._run(text, trace)
        return trace

    def _run(self, text: str, trace: list[tuple[str, str]] | None) -> str:
        # An idempotent step listed again is skipped when the text is still the very object
        # it returned before (no step in between changed anything): same result, less work.
        last_output: dict[str, str] = {}
        for name, function, idempotent in self._plan:
            if not (idempotent and last_output.get(name) is text):
                text = function(text)
                if idempotent:
                    last_output[name] = text
            if trace is not None:
                trace.append((name, text))
        return text

    @cached_property
    def _plan(self) -> tuple[tuple[str, StepFunction, bool], ...]:
        """``(name, function, idempotent)`` per step, read once: the loop above runs for
        every text, and attribute lookups on 27 steps were a measurable share of it."""
        return tuple((step.name, step.function, step.idempotent) for step in self.steps)
