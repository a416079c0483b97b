"""Markers of the repository's own tests, set by rule so that a new test is classed without
anyone remembering to: ``pytest -m "not slow"`` is the everyday loop (README, "Developing").

- ``asr``: every test under ``tests/asr/`` (the engine, the model cache, audio decoding: they
  load the embedded model or decode audio, which a cold model cache makes minutes long), and
  every test that uses a fixture of :data:`MODEL_FIXTURES` (they decode clips with the model).
- ``browser``: ``tests/test_report_browser.py`` (drives Chromium).
- ``slow``: every ``asr`` and ``browser`` test, and every test that starts a child process,
  directly or through a helper of its module or a fixture it uses (``subprocess``,
  ``sys.executable``, pytester's ``runpytest_subprocess``, ``venv``, xdist's ``-n 2``
  workers): wheel and venv builds,
  child pytest runs, the CLI run as a program, end-to-end runs of the cases tree. A test may
  also carry ``@pytest.mark.slow`` itself: the sweeps over every file, step or language
  (signature proofs per feeding file, Hypothesis sweeps per step and per language) do.

The markers are declared in ``pyproject.toml`` (``[tool.pytest.ini_options] markers``).
"""

from __future__ import annotations

import inspect
import types
from functools import lru_cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

#: Fixtures that load the embedded model and decode clips (``tests/asr/conftest.py``'s engine,
#: ``tests/bench/conftest.py``'s two pilot runs of ``asrbench bench run``).
MODEL_FIXTURES = frozenset({"engine", "pilot_runs"})

#: Source fragments that mean a child process is started.
CHILD_PROCESS = ("subprocess.", "sys.executable", "runpytest_subprocess", "venv.create", "Popen(",
                 '"-n", "2"')  # a pytester run with xdist workers


@lru_cache(maxsize=None)
def _source(function) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):  # built in or generated: nothing to read, so no child process
        return ""


def _helpers(function, module: types.ModuleType | None) -> list:
    """The module-level functions of ``module`` that ``function`` names (one level deep)."""
    code = getattr(function, "__code__", None)
    if code is None or module is None:
        return []
    names = set(code.co_names) | {name for const in code.co_consts if isinstance(const, types.CodeType)
                                  for name in const.co_names}
    return [value for name in names if isinstance(value := getattr(module, name, None), types.FunctionType)]


def _starts_child_process(function, module: types.ModuleType | None) -> bool:
    return any(fragment in _source(part) for part in [function, *_helpers(function, module)]
               for fragment in CHILD_PROCESS)


def _fixture_functions(item: pytest.Item) -> list:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return [definition.func for definitions in info.name2fixturedefs.values() for definition in definitions]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path)).resolve()
        if TESTS not in path.parents:
            continue
        if TESTS / "asr" in path.parents or MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.asr)
        if path.name == "test_report_browser.py":
            item.add_marker(pytest.mark.browser)
        function = getattr(item, "function", None)
        module = getattr(item, "module", None)
        child = function is not None and (
            _starts_child_process(function, module)
            or any(_starts_child_process(fixture, inspect.getmodule(fixture)) for fixture in _fixture_functions(item)))
        if child or item.get_closest_marker("asr") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)
