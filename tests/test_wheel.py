"""The built wheel works outside the repository: configs ship inside it."""

from __future__ import annotations

import os
import re
import shlex
import shutil
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


# --- the team project of examples/: the documented commands, run where a team runs them ------

EXAMPLE = ROOT / "examples" / "team-project"


def test_configs_readme_example_is_the_team_projects_config():
    """configs/README.md shows examples/team-project/myconfigs/en.toml itself, so it cannot go stale."""
    readme = (ROOT / "configs" / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", readme, flags=re.S)
    config = (EXAMPLE / "myconfigs" / "en.toml").read_text(encoding="utf-8")
    assert config in blocks


def _git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args], cwd=project,
                   check=True, capture_output=True)


def _hook_command(project: Path) -> list[str]:
    """The `entry` of the project's pre-commit hook (what `pre-commit run` executes, without files)."""
    import yaml

    (hook,) = [hook for repo in yaml.safe_load((project / ".pre-commit-config.yaml").read_text(encoding="utf-8"))["repos"]
               for hook in repo["hooks"] if hook["id"] == "asrbench-check-version"]
    assert hook["pass_filenames"] is False and hook["always_run"] is True
    return shlex.split(hook["entry"])


@pytest.mark.slow
def test_team_project_example_runs_from_the_installed_wheel(wheel, tmp_path):
    """examples/team-project copied into a fresh git repository, the wheel in a fresh venv:
    its README's commands run there, and an unbumped edit of its lexicon is refused by the
    hook, by check-version and by its own signature case, each naming the project's files."""
    venv = tmp_path / "venv"
    python = _venv_with_wheel(wheel, venv)
    scripts = python.parent
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ASRBENCH_CONFIG_DIRS")}
    env["PATH"] = f"{scripts}{os.pathsep}{env.get('PATH', '')}"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(list(args), cwd=project, env=env, capture_output=True, text=True, timeout=600)

    assert shutil.which("asrbench", path=str(scripts)), "the wheel installs the asrbench command"
    printed = run("asrbench", "signature", "-l", "en", "--metric", "stt_wer", "--config-dir", "myconfigs", "--case")
    assert printed.returncode == 0, printed.stderr
    (project / "checks/en/signature.yaml").write_text("language: en\ncases:\n" + printed.stdout, encoding="utf-8")

    pytest_run = (str(python), "-m", "pytest", "--asrbench", ".", "-p", "no:cacheprovider", "-q")
    recorded = run(*pytest_run, "--snapshot-update")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    again = run(*pytest_run)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "5 passed" in again.stdout  # four product cases and the signature case
    assert "not collected as case files: .pre-commit-config.yaml" in again.stdout
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "cases, configs and recordings")

    hook = run(*_hook_command(project))
    assert hook.returncode == 0, hook.stdout + hook.stderr
    assert "no unbumped change since HEAD in myconfigs (1 metric/language pairs checked)" in hook.stdout

    # an unbumped lexicon edit: the hook (working tree against HEAD) refuses it ...
    with (project / "myconfigs/en/spelling.tsv").open("a", encoding="utf-8") as lexicon:
        lexicon.write("openshift\tocp\n")
    refused = run(*_hook_command(project))
    assert refused.returncode == 1, refused.stdout + refused.stderr
    finding = ('metric changed without a version bump (stt_wer, en): bump the version of myconfigs/en.toml '
               '(version = "1.0.0") and re-record with `pytest --asrbench checks/en --snapshot-update`')
    assert finding in refused.stdout
    assert "changed: lexicon en/spelling.merged.tsv (from myconfigs/en/spelling.tsv)" in refused.stdout
    # ... and so does check-version in CI once it is committed, and the project's own cases
    _git(project, "commit", "-q", "-am", "a product name without a bump")
    ci = run("asrbench", "check-version", "--base", "HEAD~1")
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert finding in ci.stdout and "(from myconfigs/en/spelling.tsv)" in ci.stdout
    cases = run(*pytest_run)
    assert cases.returncode == 1 and "bump the version of myconfigs/en.toml" in cases.stdout

    # the bump passes the check
    config = project / "myconfigs/en.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('version = "1.0.0"', 'version = "1.1.0"'),
                      encoding="utf-8")
    _git(project, "commit", "-q", "-am", "bump")
    bumped = run("asrbench", "check-version", "--base", "HEAD~2")
    assert bumped.returncode == 0, bumped.stdout + bumped.stderr

    # two transcript files: the corpus WER, its counts and the worst utterance aligned
    scored = run("asrbench", "score", "-l", "de", "--references", "r.txt", "--hypotheses", "h.txt")
    assert scored.returncode == 0, scored.stderr
    lines = scored.stdout.splitlines()
    assert lines[0].startswith("WER 16.67% over 3 utterance(s)  (stt_wer ")  # 2 errors over 12 words
    assert lines[1] == "hits 11  substitutions 1  deletions 0  insertions 1  reference length 12 word(s)"
    assert "3: WER 50.00% (1 S, 0 D, 0 I over 2 word(s))" in lines
