"""The one-line reason of a case's failure message: what the run's summaries and reports show
beside a failing case, and what pytest's own short test summary shows after its node id.

A case's failure message (:mod:`pytest_asrbench.cases.items`) starts with where the case is
(``cases/en/a.yaml:6: case 'pair' (score):``), then one problem per line: the first of those is
the reason (``rate is 0.5, expected 0.0 (tolerance 1e-09)``, ``no snapshot recorded yet at
...``). A snapshot that differs is told by its first changed value
(``snapshot differs: "rate": 0.3333333333333333 -> 0.5``) rather than by the advice line that
opens the diff.
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
    """``snapshot differs: "key": recorded -> now`` from the first removed and the first added
    line of a unified diff of two JSON texts (``None`` when it has no such pair)."""
    removed = next((line for line in diff if line.startswith("-") and not line.startswith("---")), None)
    added = next((line for line in diff if line.startswith("+") and not line.startswith("+++")), None)
    if removed is None and added is None:
        return None
    old = _DIFF_VALUE.match(removed) if removed else None
    new = _DIFF_VALUE.match(added) if added else None
    if old and new and old["key"] == new["key"] and old["key"] is not None:
        return f'snapshot differs: "{old["key"]}": {old["value"]} -> {new["value"]}'
    before = removed[1:].strip().rstrip(",") if removed else "(nothing)"
    after = added[1:].strip().rstrip(",") if added else "(nothing)"
    return f"snapshot differs: {before} -> {after}"
