"""No broad exception handler in the package hides a failure.

A handler of ``Exception``, ``BaseException`` or everything (a bare ``except:``) catches bugs
along with the failure it was written for. The package names what it handles; the few broad
handlers left must say why on their ``except`` line and raise (the same error, or one that says
what to do), never swallow it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "pytest_asrbench"
BROAD = {"Exception", "BaseException"}


def _is_broad(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(name, ast.Name) and name.id in BROAD for name in names)


def broad_handlers(source: str) -> list[tuple[int, bool, bool]]:
    """``(line, has a comment, raises)`` of each broad handler of ``source``."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ExceptHandler) and _is_broad(node):
            raises = any(isinstance(inner, ast.Raise) for statement in node.body for inner in ast.walk(statement))
            found.append((node.lineno, "#" in lines[node.lineno - 1], raises))
    return found


def test_every_broad_handler_says_why_and_raises():
    offenders = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        for line, commented, raises in broad_handlers(path.read_text(encoding="utf-8")):
            if not (commented and raises):
                offenders.append(f"{path.relative_to(PACKAGE_DIR.parent)}:{line}"
                                 f"{'' if commented else ' (no comment saying why)'}{'' if raises else ' (swallows it)'}")
    assert not offenders, ("broad exception handlers: name the exceptions handled, or say why on the except "
                           f"line and raise: {', '.join(offenders)}")


def test_the_check_sees_a_swallowed_and_an_unexplained_handler():
    source = (
        "try:\n    f()\nexcept Exception:\n    pass\n"
        "try:\n    f()\nexcept:  # cleanup\n    g()\n    raise\n"
        "try:\n    f()\nexcept (OSError, BaseException) as exc:\n    raise ValueError() from exc\n"
        "try:\n    f()\nexcept OSError:\n    pass\n"
    )
    assert broad_handlers(source) == [(3, False, False), (7, True, True), (12, False, True)]
