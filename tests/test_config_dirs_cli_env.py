"""Project config folders reach the CLI (``--config-dir``, ``ASRBENCH_CONFIG_DIRS``) and the
plugin (the ``asrbench_config_dirs`` ini option first, then ``ASRBENCH_CONFIG_DIRS``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_asrbench._shared.config_layers import ENV_VAR


def spelling_folder(folder: Path, word: str) -> Path:
    """A config folder whose en.toml extends the shipped one: 'kubernetes' -> ``word``."""
    (folder / "en").mkdir(parents=True)
    (folder / "en.toml").write_text('extends = "en"\n[lexicons]\nspelling = "en/spelling.tsv"\n', encoding="utf-8")
    (folder / "en/spelling.tsv").write_text(f"kubernetes\t{word}\n", encoding="utf-8")
    return folder


def asrbench(*args: str, cwd: Path, env_dirs: str | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != ENV_VAR}
    if env_dirs is not None:
        env[ENV_VAR] = env_dirs
    return subprocess.run([sys.executable, "-m", "pytest_asrbench.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_cli_config_dir_then_the_variable_then_the_package(tmp_path):
    spelling_folder(tmp_path / "first", "k8s")
    spelling_folder(tmp_path / "second", "kube")
    assert asrbench("normalize", "-l", "en", "Kubernetes", cwd=tmp_path).stdout == "kubernetes\n"
    assert asrbench("normalize", "-l", "en", "--config-dir", "second", "Kubernetes", cwd=tmp_path).stdout == "kube\n"
    assert asrbench("normalize", "-l", "en", "Kubernetes", cwd=tmp_path, env_dirs="second").stdout == "kube\n"
    both = asrbench("score", "-l", "en", "--config-dir", "first", "Kubernetes", "k8s", cwd=tmp_path, env_dirs="second")
    assert both.returncode == 0 and both.stdout.startswith("WER 0.00%"), both.stdout + both.stderr
    repeated = asrbench("explain", "-l", "en", "--config-dir", "second", "--config-dir", "first", "Kubernetes",
                        cwd=tmp_path)
    assert repeated.stdout.splitlines()[-1].endswith("kube"), repeated.stdout


def test_cli_missing_config_dir_is_a_usage_error_naming_the_setting(tmp_path):
    done = asrbench("normalize", "-l", "en", "--config-dir", "nope", "x", cwd=tmp_path)
    assert done.returncode == 2
    assert f"config folder {tmp_path.resolve() / 'nope'} (named by --config-dir) does not exist" in done.stderr
    done = asrbench("normalize", "-l", "en", "x", cwd=tmp_path, env_dirs="gone")
    assert done.returncode == 2 and f"(named by the {ENV_VAR} variable)" in done.stderr


def test_cli_signature_reads_the_project_folder(tmp_path):
    spelling_folder(tmp_path / "mine", "k8s")
    done = asrbench("signature", "-l", "en", "--metric", "stt_wer", "--config-dir", "mine", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"lexicon en/spelling.merged.tsv"' in done.stdout


PROBE = '''
from pytest_asrbench import normalize_text

def test_probe():
    assert normalize_text("Kubernetes", "en") == {expected!r}
'''


@pytest.mark.parametrize(("ini", "env", "expected"), [
    ("ini_dir", None, "k8s"),
    (None, "env_dir", "kube"),
    ("ini_dir", "env_dir", "k8s"),  # the ini option first
])
def test_plugin_reads_the_ini_option_then_the_variable(pytester, monkeypatch, ini, env, expected):
    spelling_folder(pytester.path / "ini_dir", "k8s")
    spelling_folder(pytester.path / "env_dir", "kube")
    pytester.makeini("[pytest]\n" + (f"asrbench_config_dirs = {ini}\n" if ini else ""))
    pytester.makepyfile(test_probe=PROBE.format(expected=expected))
    if env:
        monkeypatch.setenv(ENV_VAR, str(pytester.path / env))
    else:
        monkeypatch.delenv(ENV_VAR, raising=False)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_plugin_missing_folder_is_a_usage_error(pytester, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(pytester.path / "gone"))
    pytester.makepyfile(test_ok="def test_ok():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*config folder *gone (named by the {ENV_VAR} variable) does not exist*"])


@pytest.mark.parametrize("ini_file, text", [
    ("pytest.ini", "[pytest]\nasrbench_config_dirs = ini_dir\n"),
    ("pyproject.toml", '[tool.pytest.ini_options]\nasrbench_config_dirs = ["ini_dir"]\n'),
    ("tox.ini", "[pytest]\nasrbench_config_dirs = ini_dir\n"),
])
def test_cli_reads_the_project_ini_option_as_its_pytest_run_does(tmp_path, ini_file, text):
    spelling_folder(tmp_path / "ini_dir", "k8s")
    (tmp_path / ini_file).write_text(text, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    assert asrbench("normalize", "-l", "en", "Kubernetes", cwd=tmp_path / "sub").stdout == "k8s\n"
    scored = asrbench("score", "-l", "en", "deploy Kubernetes", "deploy k8s", cwd=tmp_path)
    assert scored.stdout.startswith("WER 0.00%"), scored.stdout + scored.stderr
    explained = asrbench("explain", "-l", "en", "Kubernetes", "k8s", cwd=tmp_path)
    assert "'Kubernetes' vs 'k8s': the same normalized form" in explained.stdout, explained.stdout + explained.stderr
    signature = asrbench("signature", "-l", "en", "--metric", "stt_wer", "--json", cwd=tmp_path)
    assert '"lexicon en/spelling.merged.tsv"' in signature.stdout, signature.stderr


def test_cli_config_dir_then_the_ini_option_then_the_variable(tmp_path):
    spelling_folder(tmp_path / "given", "kube")
    spelling_folder(tmp_path / "ini_dir", "k8s")
    spelling_folder(tmp_path / "env_dir", "kbs")
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_config_dirs = ini_dir\n", encoding="utf-8")
    assert asrbench("normalize", "-l", "en", "--config-dir", "given", "Kubernetes", cwd=tmp_path,
                    env_dirs="env_dir").stdout == "kube\n"
    assert asrbench("normalize", "-l", "en", "Kubernetes", cwd=tmp_path, env_dirs="env_dir").stdout == "k8s\n"


def test_cli_missing_folder_of_the_ini_option_is_a_usage_error_naming_the_file(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_config_dirs = gone\n", encoding="utf-8")
    done = asrbench("explain", "-l", "en", "x", cwd=tmp_path)
    assert done.returncode == 2
    assert (f"asrbench explain: error: config folder {tmp_path.resolve() / 'gone'} (named by the asrbench_config_dirs "
            f"option of {tmp_path.resolve() / 'pytest.ini'}) does not exist") in done.stderr, done.stderr


def test_every_command_that_scores_or_normalizes_takes_the_project_s_config_folders():
    from pytest_asrbench.cli import CONFIG_COMMANDS, build_parser

    parser = build_parser()
    for names in CONFIG_COMMANDS:
        args = parser.parse_args(_minimal_args(names))
        assert args.config_dir == [Path("x")], names


def _minimal_args(names: tuple[str, ...]) -> list[str]:
    """The shortest command line of each config command, with ``--config-dir x``."""
    rest = {("normalize",): ["-l", "en", "t"], ("explain",): ["-l", "en", "t"], ("score",): ["-l", "en", "a", "b"],
            ("signature",): ["-l", "en"], ("transcribe",): ["-l", "en", "a.wav"], ("add-case",): ["-l", "en", "--kind", "equal"],
            ("review",): [], ("export", "sclite"): ["cases", "-o", "out"],
            ("bench", "score"): ["--refs", "r", "--hyps", "h"], ("bench", "run"): ["--manifest", "m.jsonl", "-o", "out"],
            ("asr", "parity"): ["cases"]}[names]
    return [*names, *rest, "--config-dir", "x"]


def test_bench_score_reads_the_project_s_config_folders(tmp_path):
    """The rate of ``asrbench bench score`` follows a project config (``--config-dir``, then the
    ini option), as ``asrbench score`` does."""
    for folder, rows in (("refs", [{"id": "u1", "text": "deploy Kubernetes now", "cluster": "s1"}]),
                         ("hyps", [{"id": "u1", "text": "deploy k8s now"}])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "talks.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    spelling_folder(tmp_path / "mine", "k8s")
    command = ("bench", "score", "--refs", "refs", "--hyps", "hyps", "-l", "en", "--resamples", "20", "--json", "out.json")

    def rate(*extra: str) -> float:
        done = asrbench(*command, *extra, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["overall"]["rate"]

    assert rate() == pytest.approx(1 / 3)
    assert rate("--config-dir", "mine") == 0.0
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_config_dirs = mine\n", encoding="utf-8")
    assert rate() == 0.0


@pytest.mark.parametrize("command", [("bench", "run", "--manifest", "m.jsonl", "-o", "out"), ("asr", "parity", "cases"),
                                     ("bench", "score", "--refs", "r", "--hyps", "h")])
def test_benchmark_and_parity_commands_check_the_project_s_config_folders_first(tmp_path, command):
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_config_dirs = gone\n", encoding="utf-8")
    done = asrbench(*command, cwd=tmp_path)
    assert done.returncode == 2
    assert f"config folder {tmp_path.resolve() / 'gone'} (named by the asrbench_config_dirs option" in done.stderr, done.stderr
    done = asrbench(*command, "--config-dir", "nope", cwd=tmp_path)
    assert done.returncode == 2 and "(named by --config-dir) does not exist" in done.stderr, done.stderr
