"""docs/architecture.md matches the tree: every file, module and package path it names exists.

A path is a backticked token that contains ``/`` or ends in a file suffix (``.py``, ``.toml``,
``.md``, ``.json``, ``.tsv``, ``.yaml``); tokens with a placeholder (``<lang>``) or a glob
(``*``) are patterns, and JSON pointers (``#/$defs/...``) and a team's own folders
(``myconfigs/``, the example project of the page) are not the tree's. A module path may end in
an attribute (``scoring/counts.EditCounts``, ``signatures/sources.config_origin``) or leave out
``.py`` (``signatures/version_gate``): the module file (or package folder) is what must exist. The page names most modules relative to the package they sit
in (``steps/registry.py`` in the normalization row), so a path counts as existing when it is
found from the repository root, from ``pytest_asrbench/``, or below some package folder of
``pytest_asrbench/``; a dotted module name (``pytest_asrbench.cases.items``) is a path too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "pytest_asrbench"
SUFFIXES = (".py", ".toml", ".md", ".json", ".tsv", ".yaml")
TOKEN = re.compile(r"`([^`\s]+)`")


def named_paths(text: str) -> list[str]:
    """The path tokens of a Markdown text, in order, without repeats."""
    found = []
    for token in TOKEN.findall(text):
        token = token.rstrip(",.:;")
        if re.fullmatch(r"pytest_asrbench(\.[a-z_0-9]+)+", token):
            token = token.replace(".", "/")
            token = token + ".py" if (ROOT / (token + ".py")).exists() else token + "/"
        if "<" in token or "*" in token or "=" in token or token.startswith(("-", "http", "~", "$", "#", "myconfigs/")):
            continue
        module = re.fullmatch(r"([A-Za-z_0-9/]+/[A-Za-z_0-9]+)(\.[A-Za-z_][A-Za-z_0-9.]*(\(\))?)?", token)
        if module and not token.endswith(SUFFIXES):
            token = module.group(1)
        if ("/" in token or token.endswith(SUFFIXES)) and token not in found:
            found.append(token)
    return found


@lru_cache(maxsize=1)
def _package_dirs() -> tuple[Path, ...]:
    return (PACKAGE, *(path for path in sorted(PACKAGE.rglob("*")) if path.is_dir() and path.name != "__pycache__"))


def exists(token: str) -> bool:
    relative = token.rstrip("/")
    want_dir = token.endswith("/")
    for base in (ROOT, *_package_dirs()):
        candidate = base / relative
        if candidate.is_dir() if want_dir else (candidate.exists() or candidate.with_name(candidate.name + ".py").exists()):
            return True
    return False


def test_every_path_the_architecture_page_names_exists():
    missing = [token for token in named_paths(PAGE.read_text(encoding="utf-8")) if not exists(token)]
    assert not missing, ("docs/architecture.md names paths that are not in the tree (fix the page or the "
                         f"tree): {', '.join(missing)}")


def test_the_check_sees_a_missing_package_and_accepts_a_present_one():
    text = ("language packages `languages/de/` and `languages/en/`, `pytest_asrbench.cases.items`, `<lang>.toml`, "
            "`scoring/counts.EditCounts`, `signatures/version_gate`, `scoring/tally.py`")
    assert named_paths(text) == ["languages/de/", "languages/en/", "pytest_asrbench/cases/items.py",
                                 "scoring/counts", "signatures/version_gate", "scoring/tally.py"]
    assert [exists(token) for token in named_paths(text)] == [False, True, True, True, True, False]


def test_a_full_run_of_tests_and_cases_finds_no_unused_snapshot_folder():
    # a folder named like a case folder under tests/ (tests/cases) once made every snapshot
    # folder look orphaned in the README's test command
    from pytest_asrbench.snapshot_layout import orphan_snapshot_dirs

    root = Path(__file__).resolve().parents[1]
    assert orphan_snapshot_dirs(root, "snapshots", [root / "tests", root / "cases"], ["cases"]) == []
    assert not (root / "tests" / "cases").exists()


def _layer_table(text: str) -> str:
    """The rows of the page's "Layers and allowed imports" table."""
    section = text.split("## Layers and allowed imports", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("| "))


def test_the_layer_table_names_every_package_and_top_level_module():
    """A new stage folder (or a module at the package's top) has a row of the table, with the
    layers it may import: otherwise the page no longer shows the whole import direction."""
    table = _layer_table(PAGE.read_text(encoding="utf-8"))
    named = set(TOKEN.findall(table))
    missing = []
    for path in sorted(PACKAGE.iterdir()):
        if path.is_dir() and (path / "__init__.py").exists():
            if not {f"{path.name}/", f"pytest_asrbench/{path.name}/"} & named:
                missing.append(f"{path.name}/")
        elif path.suffix == ".py" and path.name != "__init__.py":
            if not {path.name, f"pytest_asrbench/{path.name}"} & named:
                missing.append(path.name)
    assert not missing, ("docs/architecture.md's layer table does not name these parts of pytest_asrbench/ "
                         f"(add each to the row of its layer): {', '.join(missing)}")


def test_the_page_states_the_import_direction():
    text = PAGE.read_text(encoding="utf-8")
    assert "Imports go one way, down this table" in text
    assert "| rank | layer | packages and modules | may import |" in _layer_table(text)
