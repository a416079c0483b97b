"""A project's pytest settings read without pytest (``_shared/project_ini.py``), as pytest finds them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_asrbench._shared.project_ini import find_settings
from pytest_asrbench.errors import ConfigError


@pytest.mark.parametrize(("name", "text"), [
    ("pytest.ini", "[pytest]\nasrbench_config_dirs = myconfigs other\n"),
    ("pyproject.toml", '[tool.pytest.ini_options]\nasrbench_config_dirs = ["myconfigs", "other"]\n'),
    ("pyproject.toml", '[tool.pytest.ini_options]\nasrbench_config_dirs = "myconfigs other"\n'),
    ("tox.ini", "[pytest]\nasrbench_config_dirs =\n    myconfigs\n    other\n"),
    ("setup.cfg", "[tool:pytest]\nasrbench_config_dirs = myconfigs other\n"),
])
def test_each_ini_file_pytest_reads_gives_the_options(tmp_path: Path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    settings = find_settings(tmp_path / "sub" / "deeper")
    assert settings.root == tmp_path and settings.ini_file == tmp_path / name
    assert settings.args("asrbench_config_dirs") == ["myconfigs", "other"]
    assert settings.args("asrbench_case_dirs", ["cases"]) == ["cases"]


def test_files_that_do_not_configure_pytest_are_passed_over(tmp_path: Path):
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_case_dirs = checks\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    (tmp_path / "sub" / "setup.cfg").write_text("[metadata]\nname = x\n", encoding="utf-8")
    settings = find_settings(tmp_path / "sub")
    assert settings.root == tmp_path and settings.args("asrbench_case_dirs") == ["checks"]


def test_pytest_ini_wins_over_pyproject_in_one_folder(tmp_path: Path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\nasrbench_case_dirs = ["x"]\n',
                                             encoding="utf-8")
    assert find_settings(tmp_path).args("asrbench_case_dirs", ["cases"]) == ["cases"]


def test_no_ini_file_is_the_start_folder_with_no_options(tmp_path: Path):
    settings = find_settings(tmp_path)
    assert settings.ini_file is None or settings.ini_file.parent != tmp_path
    if settings.ini_file is None:
        assert settings.root == tmp_path.resolve() and settings.options == {}


def test_a_bad_value_names_the_file(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\nasrbench_config_dirs = 3\n",
                                             encoding="utf-8")
    with pytest.raises(ConfigError, match=r"pyproject.toml: asrbench_config_dirs must be a list"):
        find_settings(tmp_path).args("asrbench_config_dirs")
