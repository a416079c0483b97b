"""A normalizer is a :class:`Pipeline`: an ordered list of named single-purpose steps.

Each step is a ``str -> str`` callable. The pipeline can be read as one list, a step can be
swapped by name in the config, and :meth:`Pipeline.explain` shows the output after each
step (the ``asrbench explain`` command).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

StepFunction = Callable[[str], str]


@dataclass(frozen=True)
class Step:
    """One named step of a normalizer."""

    name: str
    function: StepFunction

    def __call__(self, text: str) -> str:
        return self.function(text)


@dataclass(frozen=True)
class Pipeline:
    """The normalizer of one language: ``steps`` applied in order."""

    language: str
    steps: tuple[Step, ...]

    def __call__(self, text: str) -> str:
        for step in self.steps:
            text = step.function(text)
        return text

    def explain(self, text: str) -> list[tuple[str, str]]:
        """Return ``[(step name, text after that step), ...]``, starting with ``("input", text)``."""
        trace = [("input", text)]
        for step in self.steps:
            text = step.function(text)
            trace.append((step.name, text))
        return trace
