"""The built wheel works outside the repository: configs ship inside it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    try:
        import hatchling  # noqa: F401
    except ImportError:
        pytest.skip("hatchling (the build backend) is not installed in this environment")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (path,) = out.glob("pytest_asrbench-*.whl")
    return path


def test_wheel_contains_configs_and_schema(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    configs = sorted(p.relative_to(ROOT / "configs").as_posix() for p in (ROOT / "configs").rglob("*") if p.is_file())
    assert configs
    for relative in configs:
        assert f"pytest_asrbench/_configs/{relative}" in names
    assert "pytest_asrbench/cases/schema.json" in names


def test_installed_wheel_normalizes_outside_the_repo(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import pytest_asrbench, pathlib;"
        "from pytest_asrbench.normalize.registry import configs_dir;"
        "print(configs_dir());"
        "print(pytest_asrbench.normalize_text('Hello,  World!', 'en'));"
        "print(pytest_asrbench.score('a b', 'a c', 'en').rate)"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True,
                            check=True)
    where, text, rate = result.stdout.splitlines()
    assert Path(where) == target / "pytest_asrbench" / "_configs"
    assert text == "hello world"
    assert rate == "0.5"
