"""Remove bracketed annotations: ``[laughter]``, ``<noise>``, ``{cough}``, ``(inaudible)``.

Transcription guides and ASR output mark non-speech events inside brackets. They are not
words anybody said, so a reference with ``[laughter]`` and a hypothesis without it must
score the same. Parentheses are also used in written text for a phone area code, so a
parenthesised group of digits (``(555) 123-4567``) is kept; every other bracketed span
is removed, whatever it holds. Brackets do not nest here: the innermost closing bracket
ends the span, and an unmatched bracket is left for the ``punctuation`` step.
"""

from __future__ import annotations

import re

from pytest_asrbench.normalize.steps.registry import step

_ANNOTATION = re.compile(r"\[[^\[\]]*\]|<[^<>]*>|\{[^{}]*\}|\(([^()]*)\)")
_DIGITS_ONLY = re.compile(r"[\d\s+-]+")


def _replace(match: re.Match) -> str:
    inner = match.group(1)
    if inner is not None and _DIGITS_ONLY.fullmatch(inner):
        return match.group(0)
    return " "


@step("brackets", before={"punctuation": "it finds [laughter] and (inaudible) by their brackets"})
def brackets(config, lexicons):
    """Replace each bracketed span by a space, except a parenthesised digit group."""

    def run(text: str) -> str:
        if "[" in text or "<" in text or "{" in text or "(" in text:
            return _ANNOTATION.sub(_replace, text)
        return text

    return run
