"""The root package loads its API on first use: pytest imports the plugin for every run, and a
run without ``--asrbench`` should not import the normalizers and the scorer."""

from __future__ import annotations

import subprocess
import sys

import pytest


def fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_plugin_loads_neither_normalize_nor_scoring():
    loaded = fresh("import sys, pytest_asrbench.plugin, pytest_asrbench.asr.pytest_hooks\n"
                   "print(sorted(m for m in sys.modules if m.startswith(('pytest_asrbench.normalize', "
                   "'pytest_asrbench.scoring'))))")
    assert loaded == "[]"


def test_the_public_names_still_import_from_the_root_package():
    assert fresh("from pytest_asrbench import Score, explain, normalize_text, score\n"
                 "print(normalize_text('Hello,  World!', 'en'), score('a b', 'a c', 'en').rate, "
                 "isinstance(score('a', 'a', 'en'), Score), explain('A', 'en')[-1][1])") == "hello world 0.5 True a"


def test_an_unknown_name_is_an_attribute_error():
    import pytest_asrbench

    with pytest.raises(AttributeError, match="module 'pytest_asrbench' has no attribute 'nope'"):
        pytest_asrbench.nope  # noqa: B018
    assert {"normalize_text", "score", "explain", "Score"} <= set(dir(pytest_asrbench))
