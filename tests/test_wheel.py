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
    assert "pytest_asrbench/bench/run/record.schema.json" in names  # the bench record's JSON Schema


def test_installed_wheel_writes_a_schema_valid_smoke_record(wheel, tmp_path):
    """The bench record's schema is package data: `bench run --smoke` validates against it from
    an installed wheel, outside the repository."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    env = {**os.environ, "PYTHONPATH": str(target), "HF_HUB_OFFLINE": "1"}
    code = ("import sys; from pytest_asrbench.cli import main; "
            "sys.exit(main(['bench', 'run', '--smoke', '--out', 'smoke.json']))")
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    check = ("import json; from pytest_asrbench.bench.run.schema import schema_problems, record_schema; "
             "import pytest_asrbench.bench.run.schema as s; print(s.__file__); "
             "print(schema_problems(json.load(open('smoke.json'))))")
    where, problems = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, env=env, capture_output=True,
                                     text=True, check=True).stdout.splitlines()
    assert Path(where).is_relative_to(target)
    assert problems == "[]"


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


# --- a project outside this repository, with the wheel installed, extends the shipped en ------

PROJECT_FILES = {
    "pytest.ini": "[pytest]\nasrbench_config_dirs = myconfigs\n",
    "myconfigs/en.toml": 'extends = "en"\n\n[lexicons]\nspelling = "en/spelling.tsv"\n',
    "myconfigs/en/spelling.tsv": "kubernetes\tk8s\n",
    "cases/en/product.yaml": (
        "language: en\ncases:\n"
        "  - id: k8s\n    kind: equal\n    texts: [\"Kubernetes\", \"k8s\", \"KUBERNETES!\"]\n"
    ),
}


def _venv_with_wheel(wheel: Path, where: Path) -> Path:
    """A fresh venv holding only the wheel; the dependencies are seen through a ``.pth`` file
    naming this interpreter's site-packages (a ``.pth`` line is not itself scanned for
    ``.pth`` files, so an editable install of the repository stays invisible)."""
    import site

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    outer = [path for path in [*site.getsitepackages(), site.getusersitepackages()] if Path(path).is_dir()]
    (Path(purelib) / "asrbench_test_deps.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True)
    return python


def test_project_outside_the_repo_extends_a_shipped_config_and_gates_it(wheel, tmp_path):
    python = _venv_with_wheel(wheel, tmp_path / "venv")
    project = tmp_path / "project"
    for rel, text in PROJECT_FILES.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ASRBENCH_CONFIG_DIRS")}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(python), *args], cwd=project, env=env, capture_output=True, text=True, timeout=300)

    where = run("-c", "import pytest_asrbench; print(pytest_asrbench.__file__)")
    assert Path(where.stdout.strip()).is_relative_to(tmp_path / "venv"), where.stdout + where.stderr

    # the project's own signature case, printed by the CLI with the project's folder
    printed = run("-m", "pytest_asrbench.cli", "signature", "-l", "en", "--metric", "stt_wer",
                  "--config-dir", "myconfigs", "--case")
    assert printed.returncode == 0, printed.stderr
    assert '"lexicon en/spelling.merged.tsv"' in printed.stdout
    (project / "cases/en/signature.yaml").write_text("language: en\ncases:\n" + printed.stdout, encoding="utf-8")

    pytest_args = ("-m", "pytest", "--asrbench", "cases", "-p", "no:cacheprovider", "-q")
    recorded = run(*pytest_args, "--snapshot-update")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    again = run(*pytest_args)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "2 passed" in again.stdout

    # a local lexicon edit without a bump fails, naming the project's files
    (project / "myconfigs/en/spelling.tsv").write_text("kubernetes\tk8s\nopenshift\tocp\n", encoding="utf-8")
    changed = run(*pytest_args)
    assert changed.returncode == 1, changed.stdout + changed.stderr
    assert ("metric changed without a version bump (stt_wer, en): bump the version of myconfigs/en.toml "
            '(version = "1.') in changed.stdout
    assert "changed: lexicon en/spelling.merged.tsv (from myconfigs/en/spelling.tsv)" in changed.stdout
    assert "configs/en.toml (version" not in changed.stdout.replace("myconfigs/en.toml", "")

    # the documented fix: a version in the project's file, then one re-recording command
    config = project / "myconfigs/en.toml"
    config.write_text('version = "9.0.0"\n' + config.read_text(encoding="utf-8"), encoding="utf-8")
    bumped = run(*pytest_args, "--snapshot-update")
    assert bumped.returncode == 0, bumped.stdout + bumped.stderr
    assert 'config_version: "9.0.0"' in (project / "cases/en/signature.yaml").read_text(encoding="utf-8")
    final = run(*pytest_args)
    assert final.returncode == 0, final.stdout + final.stderr
