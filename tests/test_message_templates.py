"""Messages fill every placeholder: a string literal joined to an f-string (implicit
concatenation) without its own ``f`` prints ``{name!r}`` to the user instead of the value."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_asrbench"
#: ``{name}``, ``{name!r}``, ``{value['key']!r}``, ``{count:.2f}``: a replacement field.
FIELD = re.compile(r"\{[A-Za-z_][\w.\[\]'\"]*(![rsa])?(:[^{}]*)?\}")
#: Literal braces an f-string writes on purpose (``{{commit}}`` for git, ``\p{P}`` in a regex).
INTENDED = {("signatures/sources.py", "^{commit}"), ("normalize/steps/basic.py", "[[\\p{P}\\p{S}]--[")}


def _unfilled_fields() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for part in node.values:
                if isinstance(part, ast.Constant) and FIELD.search(part.value) and (name, part.value) not in INTENDED:
                    found.append(f"{name}:{node.lineno}: {part.value!r}")
    return found


def test_no_f_string_message_leaves_a_replacement_field_unfilled():
    assert _unfilled_fields() == []
