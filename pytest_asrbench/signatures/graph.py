"""The import graph of the package and the AST hash of its modules.

Modules are found by reading ``import`` and ``from ... import`` statements (anywhere in a
module: top level, inside functions, under ``if TYPE_CHECKING``), relative imports and
``importlib.import_module("...")`` calls with a literal name. Importing ``a.b.c`` runs
``a/__init__.py`` and ``a/b/__init__.py`` too, so parent packages are part of the graph.

A module's hash is taken over its syntax tree with docstrings removed, so comments,
docstrings and formatting do not change it. Two literals are left out because they are
the version gate itself, not behaviour: ``__version__ = ...`` and the ``version`` of a
``Metric(...)`` call (otherwise bumping one metric would change every other signature).
"""

from __future__ import annotations

import ast
import hashlib
import sys
from dataclasses import dataclass, field
from functools import lru_cache

from pytest_asrbench.signatures.sources import PACKAGE

_STDLIB = set(sys.stdlib_module_names) | {"__future__"}


@dataclass
class ModuleGraph:
    """Modules of the package reached from some roots, and the outside imports they make.

    ``modules`` maps a dotted name to its file (relative POSIX path); ``external`` holds the
    top-level names of non-standard-library imports (``jiwer``, ``pythainlp`` ...).
    """

    modules: dict[str, str] = field(default_factory=dict)
    external: set[str] = field(default_factory=set)
    missing: set[str] = field(default_factory=set)


def module_path(source, name: str) -> str | None:
    """The file of module ``name`` in ``source`` (``a/b.py`` or ``a/b/__init__.py``), if any."""
    rel = name.replace(".", "/")
    for candidate in (f"{rel}.py", f"{rel}/__init__.py"):
        if source.read(candidate) is not None:
            return candidate
    return None


def _is_package(path: str) -> bool:
    return path.endswith("/__init__.py")


def _resolve_relative(current: str, is_package: bool, level: int, module: str | None) -> str:
    parts = current.split(".") if is_package else current.split(".")[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    base = ".".join(parts)
    if module:
        return f"{base}.{module}" if base else module
    return base


def imported_names(tree: ast.AST, current: str, is_package: bool) -> list[tuple[str, list[str]]]:
    """``(module, [names imported from it])`` for every import in ``tree``, absolute names."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, []))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _resolve_relative(current, is_package, node.level, node.module)
            else:
                base = node.module or ""
            found.append((base, [alias.name for alias in node.names if alias.name != "*"]))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                name = node.args[0].value
                if name.startswith("."):
                    level = len(name) - len(name.lstrip("."))
                    name = _resolve_relative(current, is_package, level, name.lstrip(".") or None)
                found.append((name, []))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def eager_imported_names(tree: ast.Module, current: str, is_package: bool) -> list[tuple[str, list[str]]]:
    """Like :func:`imported_names`, but only the imports that run when the module is imported:
    imports inside functions (lazy ones) and under ``if TYPE_CHECKING:`` are left out."""
    eager: list[ast.stmt] = []
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending[:0] = node.orelse
            continue
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While, ast.ClassDef)):
            for name in ("body", "orelse", "finalbody"):
                pending[:0] = getattr(node, name, [])
            for handler in getattr(node, "handlers", []):
                pending[:0] = handler.body
            continue
        eager.append(node)
    return imported_names(ast.Module(body=eager, type_ignores=[]), current, is_package)


def walk(source, roots: list[str], package: str = PACKAGE, skip: frozenset[str] = frozenset()) -> ModuleGraph:
    """Every module of ``package`` reached from ``roots`` (dotted names), transitively.

    ``skip`` names modules whose import from their own parent package is not followed (the
    step registry importing a step module the language does not use); another module's
    import of them still is.
    """
    graph = ModuleGraph()
    pending: list[str] = []
    seen: set[str] = set()

    def want(name: str) -> None:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):  # parent packages run on import
            prefix = ".".join(parts[:end])
            if prefix not in seen:
                seen.add(prefix)
                pending.append(prefix)

    for root in roots:
        want(root)
    while pending:
        name = pending.pop()
        path = module_path(source, name)
        if path is None:
            if not source.is_dir(name.replace(".", "/")):  # a namespace folder has no file
                graph.missing.add(name)
            continue
        graph.modules[name] = path
        for module, names in _imports_of(source.read(path), path, name):
            top = module.split(".")[0]
            if top == package:
                if module in skip and module.rpartition(".")[0] == name:
                    continue
                want(module)
                for member in names:  # `from pkg import submodule`
                    candidate = f"{module}.{member}"
                    if candidate in skip and module == name:
                        continue
                    if module_path(source, candidate) is not None:
                        want(candidate)
            elif top and top not in _STDLIB:
                graph.external.add(top)
    graph.missing -= set(graph.modules)
    return graph


@lru_cache(maxsize=4096)
def _imports_of(data: bytes, path: str, name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """:func:`imported_names` of a module's text, cached (signatures re-read unchanged files)."""
    return tuple((module, tuple(names)) for module, names in imported_names(parse(data, path), name, _is_package(path)))


def parse(data: bytes, path: str) -> ast.Module:
    return ast.parse(data, filename=path)


@lru_cache(maxsize=4096)
def steps_in(data: bytes, path: str) -> frozenset[str]:
    """:func:`registered_steps` of a module's text, cached."""
    return frozenset(registered_steps(parse(data, path)))


def registered_steps(tree: ast.AST) -> set[str]:
    """Names a module registers with ``@step("name")`` (or ``step("name")(function)``)."""
    return set(step_libraries(tree))


def step_libraries(tree: ast.AST) -> dict[str, tuple[str, ...]]:
    """``{step name: declared libraries}`` of the ``@step("name", libraries=(...))`` calls of a
    module (``()`` for a step that declares none), read from its syntax tree.

    Raises:
        ValueError: a ``libraries=`` value is not a literal tuple of strings.
    """
    found: dict[str, tuple[str, ...]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called == "step" and isinstance(node.args[0].value, str):
                declared: tuple[str, ...] = ()
                for keyword in node.keywords:
                    if keyword.arg == "libraries":
                        value = ast.literal_eval(keyword.value)
                        if not isinstance(value, tuple) or not all(isinstance(item, str) for item in value):
                            raise ValueError(f"step {node.args[0].value!r}: libraries= must be a literal tuple of "
                                             f"distribution names, e.g. libraries=(\"text2num\",)")
                        declared = value
                found[node.args[0].value] = declared
    return found


def step_libraries_in(data: bytes, path: str) -> dict[str, tuple[str, ...]]:
    """:func:`step_libraries` of a module's text (cached: signatures re-read unchanged files)."""
    return dict(_step_libraries_cached(data, path))


@lru_cache(maxsize=4096)
def _step_libraries_cached(data: bytes, path: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(step_libraries(parse(data, path)).items())


def _strip_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:] or [ast.Pass()]
    return body


class _Normalizer(ast.NodeTransformer):
    """Drops docstrings, ``__version__`` assignments, ``Metric(...)`` version literals, and
    the imports of ``skip`` modules by their own parent package (see :func:`walk`)."""

    def __init__(self, name: str = "", is_package: bool = False, skip: frozenset[str] = frozenset()):
        self.name = name
        self.is_package = is_package
        self.skip = {module for module in skip if module.rpartition(".")[0] == name}

    def visit_ImportFrom(self, node: ast.ImportFrom):
        if not self.skip:
            return node
        base = _resolve_relative(self.name, self.is_package, node.level, node.module) if node.level else node.module
        node.names = [alias for alias in node.names if f"{base}.{alias.name}" not in self.skip]
        return node if node.names else None

    def visit_Import(self, node: ast.Import):
        if not self.skip:
            return node
        node.names = [alias for alias in node.names if alias.name not in self.skip]
        return node if node.names else None

    def generic_visit(self, node):
        node = super().generic_visit(node)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            node.body = _strip_docstring(node.body)
        return node

    def visit_Assign(self, node: ast.Assign):
        if any(isinstance(target, ast.Name) and target.id == "__version__" for target in node.targets):
            return None
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        node = self.generic_visit(node)
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if called == "Metric":
            if len(node.args) >= 2:
                node.args[1] = ast.Constant("<version>")
            for keyword in node.keywords:
                if keyword.arg == "version":
                    keyword.value = ast.Constant("<version>")
        return node


def _canonical(node) -> object:
    """A plain, Python-version-stable form of a tree: no positions, no empty/None fields."""
    if isinstance(node, ast.AST):
        fields = []
        for name, value in ast.iter_fields(node):
            if value is None or value == [] or name == "type_comment":
                continue
            fields.append((name, _canonical(value)))
        return (type(node).__name__, tuple(fields))
    if isinstance(node, list):
        return tuple(_canonical(item) for item in node)
    if isinstance(node, (bytes, str, int, float, complex, bool)) or node is Ellipsis:
        return (type(node).__name__, repr(node))
    return repr(node)


@lru_cache(maxsize=4096)
def module_hash(data: bytes, path: str, name: str = "", skip: frozenset[str] = frozenset()) -> str:
    """SHA-256 (hex) of a module's code: its syntax tree without docstrings or positions.

    Raises:
        SyntaxError: the module does not parse.
    """
    tree = _Normalizer(name, _is_package(path), skip).visit(parse(data, path))
    return hashlib.sha256(repr(_canonical(tree)).encode("utf-8")).hexdigest()
