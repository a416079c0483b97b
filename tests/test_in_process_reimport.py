"""The package stays one copy of itself across in-process pytester runs.

pytester's in-process run restores ``sys.modules`` when it ends: a module first imported during
the inner run is dropped, and the next import makes a new module object with new classes. A
binding that outlives the inner run (the root package's lazily loaded API cached in its globals,
a ``from package import submodule`` statement reading the attribute an import left on the
package) would hand the outer process the dropped copy, and two copies of a class meet
(``EditCounts + EditCounts`` refused, a cache registered with a dropped registry never reset).

Each scenario runs in a fresh interpreter (a pytester subprocess), so that the inner in-process
run is the first to import the package's modules, as in a project's own test suite.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_asrbench"

INNER_SCORES = """
def test_inner():
    from pytest_asrbench import normalize_text, score

    assert score("a b", "a c", "en").rate == 0.5
    assert normalize_text("Hello,  World!", "en") == "hello world"
"""

INNER_IMPORTS_EVERY_MODULE = """
import importlib
import pkgutil

import pytest_asrbench


def test_inner():
    for found in pkgutil.walk_packages(pytest_asrbench.__path__, "pytest_asrbench."):
        importlib.import_module(found.name)
"""


def run_outer(pytester: pytest.Pytester, inner: str, outer_body: str, before: str = "") -> pytest.RunResult:
    """Run, in a fresh interpreter, a test that runs ``before``, then ``inner`` in process, then
    ``outer_body``; the result of that run."""
    def body(code: str) -> str:
        return textwrap.indent(textwrap.dedent(code), "    ")

    source = (f"import sys\n\npytest_plugins = [\"pytester\"]\n\nINNER = {inner!r}\n\n\n"
              "def test_outer(pytester):\n"
              "    pytester.makepyfile(test_inner=INNER)\n"
              + body(before)
              + "    pytester.runpytest_inprocess(\"-p\", \"no:cacheprovider\").assert_outcomes(passed=1)\n"
              + body(outer_body))
    pytester.makepyfile(test_outer=source)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "pytester", "test_outer.py")


def test_the_public_api_and_the_headline_alignments_agree_after_an_in_process_run(pytester):
    result = run_outer(pytester, INNER_SCORES, """
        import pytest_asrbench
        from pytest_asrbench.scoring.headline import headline_alignments

        scored = pytest_asrbench.score("a b", "a c", "en")
        assert [item.counts().errors for item in headline_alignments(scored)] == [1]
        assert type(scored) is sys.modules["pytest_asrbench.scoring.result"].Score
        assert pytest_asrbench.normalize_text is sys.modules["pytest_asrbench.normalize"].normalize_text
    """)
    result.assert_outcomes(passed=1)


PACKAGES_FIRST = """
import importlib
import pkgutil

import pytest_asrbench

for found in pkgutil.walk_packages(pytest_asrbench.__path__, "pytest_asrbench."):
    if found.ispkg:
        importlib.import_module(found.name)
"""


def test_every_module_binds_the_live_copy_of_each_package_module_after_an_in_process_run(pytester):
    # The outer process holds the packages (each __init__ and what it imports) before the inner
    # run; the inner run imports the rest, which it drops when it ends.
    result = run_outer(pytester, INNER_IMPORTS_EVERY_MODULE, before=PACKAGES_FIRST, outer_body="""
        import types

        names = [found.name for found in pkgutil.walk_packages(pytest_asrbench.__path__, "pytest_asrbench.")]
        for name in names:
            importlib.import_module(name)
        stale = []
        for name in names:
            for key, value in vars(sys.modules[name]).items():
                if isinstance(value, types.ModuleType) and value.__name__.startswith("pytest_asrbench") \\
                        and sys.modules.get(value.__name__) is not value:
                    stale.append(f"{name}.{key} -> a dropped copy of {value.__name__}")
        assert stale == []
    """)
    result.assert_outcomes(passed=1)


def _module_names() -> set[str]:
    root = PACKAGE.parent
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _package_binds(package: str) -> set[str]:
    """Names a package's ``__init__`` binds to something other than its submodules."""
    init = PACKAGE.parent / package.replace(".", "/") / "__init__.py"
    modules = _module_names()
    bound = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            bound.update(alias.asname or alias.name for alias in node.names
                         if f"{node.module}.{alias.name}" not in modules)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
    return bound


def test_no_module_imports_a_submodule_with_from_package_import():
    """``from package import submodule`` reads the attribute a past import left on the package,
    which outlives the submodule in ``sys.modules``; ``import package.submodule as submodule``
    imports it when it is gone."""
    modules = _module_names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        current = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = current.split(".") if parts[-1] == "__init__" else current.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in modules and alias.name not in _package_binds(module):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: from {module} import {alias.name}")
    assert found == []
