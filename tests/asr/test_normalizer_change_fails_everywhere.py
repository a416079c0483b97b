"""A normalizer change fails the affected ``asr`` case on any host: the native host (compared
exactly), a CPU no snapshot records (judged by tolerance) and a simulated host (kernel variables
set). A project outside the repository holds en-01 with its shipped snapshot and a team config
that extends English; making "today" a filler (with a version bump) removes a word of en-01's
transcript and reference alike, which moves the score of every recorded transcript. The same
project with only the version bump passes on every host, so the failure is the change's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import pytest

from pytest_asrbench._shared.toml import load_toml

from .conftest import ROOT, needs_faster_whisper
from .hosts import other_cpu_plugin

HOSTS = ["native", "unrecorded-cpu", "simulated"]


def _project(tmp_path, *, filler: bool):
    project = tmp_path / "project"
    (project / "cases" / "en").mkdir(parents=True)
    (project / "samples" / "en").mkdir(parents=True)
    (project / "snapshots" / "en" / "asr").mkdir(parents=True)
    (project / "myconfigs").mkdir()
    shutil.copy(ROOT / "samples" / "en" / "en-01.wav", project / "samples" / "en")
    shutil.copy(ROOT / "snapshots" / "en" / "asr" / "en-01.json", project / "snapshots" / "en" / "asr")
    (project / "cases" / "en" / "asr.yaml").write_text(
        "language: en\ncases:\n  - id: en-01\n    kind: asr\n    audio: ../../samples/en/en-01.wav\n"
        '    reference: "Good morning, how are you today?"\n', encoding="utf-8")
    shipped = load_toml((ROOT / "configs" / "en.toml").read_text(encoding="utf-8"), "configs/en.toml")
    fillers = shipped["fillers"] + (["today"] if filler else [])
    major, minor, _ = shipped["version"].split(".")
    (project / "myconfigs" / "en.toml").write_text(
        f'extends = "en"\nversion = "{major}.{int(minor) + 1}.0"\nfillers = {fillers!r}\n'.replace("'", '"'),
        encoding="utf-8")
    (project / "pytest.ini").write_text("[pytest]\nasrbench_config_dirs = myconfigs\n", encoding="utf-8")
    return project


def _run(project, host: str, tmp_path) -> subprocess.CompletedProcess:
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("CT2_", "MKL_", "ONEDNN_", "DNNL_"))}
    extra: list[str] = []
    if host == "unrecorded-cpu":
        plugin, more = other_cpu_plugin(tmp_path / "amd")
        env.update(more)
        extra = ["-p", plugin]
    elif host == "simulated":
        env["CT2_FORCE_CPU_ISA"] = "AVX2"
    return subprocess.run([sys.executable, "-m", "pytest", "--asrbench", "cases", "-q", "-p", "no:cacheprovider",
                           "--no-header", *extra],
                          cwd=project, env=env, capture_output=True, text=True, timeout=600, check=False)


@needs_faster_whisper
@pytest.mark.asr
@pytest.mark.parametrize("host", HOSTS)
def test_a_filler_that_removes_a_word_fails_en_01_on_every_host(tmp_path, host):
    control = _run(_project(tmp_path / "bump-only", filler=False), host, tmp_path)
    assert control.returncode == 0, control.stdout[-3000:] + control.stderr[-2000:]
    changed = _run(_project(tmp_path / "filler", filler=True), host, tmp_path)
    text = changed.stdout + changed.stderr
    assert changed.returncode == 1, text[-3000:]
    assert "1 failed" in changed.stdout.strip().splitlines()[-1], text[-3000:]
    assert "score of 15 recorded transcript(s) moved, their text did not" in text
    assert "output differs from the recorded snapshot" in text  # then the diff of the moved scores
