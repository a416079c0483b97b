"""The one-line reason of a case's failure message: what the run's summaries and reports show
beside a failing case, and what pytest's own short test summary shows after its node id.

A case's failure message (:mod:`pytest_asrbench.cases.items`) starts with where the case is
(``cases/en/a.yaml:6: case 'pair' (score):``), then one problem per line: the first of those is
the reason (``rate is 0.5, expected 0.0 (tolerance 1e-09)``, ``no snapshot recorded yet at
...``). A snapshot that differs is told by its first changed value
(``snapshot "rate" 0.3333 -> 0.5``) rather than by the advice line that
opens the diff.

Each source of a failure writes its first line with the important thing first and compactly
(``stt_wer 16.7% != expected 0.0% (rate 0.16666666666666666, ...)``), so that pytest's short
test summary, which gives the line what is left of 80 columns after ``FAILED <node id> - ``,
still shows what failed; :func:`distinct_numbers` writes two numbers as short as they stay
different, for those lines and for a snapshot's first changed value.
"""

from __future__ import annotations

import re

#: The line that opens a case's failure message: ``<file>:<line>: case '<id>' (<kind>):`` and
#: what follows on the same line (a case that could not run says why right there).
_HEADER = re.compile(r"^.+:\d+: case (?:'[^']*'|\"[^\"]*\") \([\w-]+\):\s?(?P<rest>.*)$")
#: The first line of a snapshot mismatch (cases/items.py, ``_snapshot_problem``).
_SNAPSHOT_DIFFERS = "output differs from the recorded snapshot"
#: A changed JSON line of the diff: ``-  "key": value,``.
_DIFF_VALUE = re.compile(r'^[-+]\s*(?:"(?P<key>(?:[^"\\]|\\.)*)":\s*)?(?P<value>.*?),?$')
#: A JSON number (what a snapshot's changed value may be).
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
#: Decimals (of a percentage) and significant digits (of a plain number) never go below these.
_LEAST_DECIMALS, _LEAST_DIGITS = 1, 4


def distinct_numbers(first: float, second: float, *, percent: bool = False) -> tuple[str, str]:
    """``first`` and ``second`` written as short as they stay different: a fraction as a
    percentage with the fewest decimals (at least one) that tell the two apart
    (``0.16666666666666666, 0.0 -> ("16.7%", "0.0%")``, ``0.1667, 0.16666666666666666 ->
    ("16.670%", "16.667%")``); a plain number with the fewest significant digits (at least
    four) that do (``0.3333333333333333, 0.5 -> ("0.3333", "0.5")``); an ``int`` as it is.
    Numbers that no shorter form tells apart are written in full (``repr``); two equal ones
    alike."""
    if percent:
        for decimals in range(_LEAST_DECIMALS, 16):
            texts = (f"{first * 100:.{decimals}f}%", f"{second * 100:.{decimals}f}%")
            if texts[0] != texts[1]:
                return texts
        return f"{first * 100!r}%", f"{second * 100!r}%"
    for digits in range(_LEAST_DIGITS, 18):
        texts = tuple(repr(value) if isinstance(value, int) else f"{value:.{digits}g}" for value in (first, second))
        if texts[0] != texts[1]:
            return texts
    return repr(first), repr(second)


def message_reason(message: str) -> str:
    """The reason line of a case's failure ``message`` (see the module docstring); ``"failed"``
    when the message is empty."""
    lines = [line for line in message.splitlines() if line.strip()]
    if lines:
        header = _HEADER.match(lines[0])
        if header:
            lines = ([header["rest"]] if header["rest"] else []) + lines[1:]
    if not lines:
        return "failed"
    first = lines[0].strip()
    if first.startswith(_SNAPSHOT_DIFFERS):
        return _snapshot_change(lines[1:]) or first
    return first


def _snapshot_change(diff: list[str]) -> str | None:
    """``snapshot "key" recorded -> now`` from the first removed and the first added
    line of a unified diff of two JSON texts (``None`` when it has no such pair)."""
    removed = next((line for line in diff if line.startswith("-") and not line.startswith("---")), None)
    added = next((line for line in diff if line.startswith("+") and not line.startswith("+++")), None)
    if removed is None and added is None:
        return None
    old = _DIFF_VALUE.match(removed) if removed else None
    new = _DIFF_VALUE.match(added) if added else None
    if old and new and old["key"] == new["key"] and old["key"] is not None:
        before, after = _short_values(old["value"], new["value"])
        return f'snapshot "{old["key"]}" {before} -> {after}'
    before = removed[1:].strip().rstrip(",") if removed else "(nothing)"
    after = added[1:].strip().rstrip(",") if added else "(nothing)"
    return f"snapshot {before} -> {after}"


def _short_values(before: str, after: str) -> tuple[str, str]:
    """Two JSON values of a snapshot diff, numbers as short as they stay different
    (:func:`distinct_numbers`), anything else as written."""
    if _JSON_NUMBER.fullmatch(before) and _JSON_NUMBER.fullmatch(after):
        numbers = [int(text) if text.lstrip("-").isdigit() else float(text) for text in (before, after)]
        return distinct_numbers(*numbers)
    return before, after
