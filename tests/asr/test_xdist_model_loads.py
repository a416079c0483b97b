"""Under ``pytest --asrbench -n 2`` the ``asr`` cases of one engine setting run on one worker
(the plugin's model-group scheduler), so each worker loads each model at most once, and the
run summary counts the loads per worker."""

from __future__ import annotations

import re
import shutil

import pytest

from .conftest import ROOT, needs_faster_whisper

CASES = """\
language: en
cases:
  - {id: default-01, kind: asr, audio: ../../samples/en/en-01.wav, reference: "Good morning, how are you today?"}
  - {id: default-02, kind: asr, audio: ../../samples/en/en-02.flac, reference: "Please open the door."}
  - {id: default-03, kind: asr, audio: ../../samples/en/en-01.wav, reference: "Good morning, how are you today?"}
  - {id: beam1-01, kind: asr, audio: ../../samples/en/en-01.wav, reference: "Good morning, how are you today?",
     engine: {beam_size: 1}}
  - {id: beam1-02, kind: asr, audio: ../../samples/en/en-02.flac, reference: "Please open the door.",
     engine: {beam_size: 1}}
  - {id: beam1-03, kind: asr, audio: ../../samples/en/en-02.flac, reference: "Please open the door.",
     engine: {beam_size: 1}}
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch):
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)  # the inner run is not a worker of this one
    pytester.makeini("[pytest]\n")
    (pytester.path / "samples" / "en").mkdir(parents=True)
    for clip in ("en-01.wav", "en-02.flac"):
        shutil.copy(ROOT / "samples" / "en" / clip, pytester.path / "samples" / "en")
    (pytester.path / "cases" / "en").mkdir(parents=True)
    (pytester.path / "cases" / "en" / "asr.yaml").write_text(CASES, encoding="utf-8")
    return pytester


@needs_faster_whisper
def test_under_two_workers_each_model_is_loaded_at_most_once_per_worker(project):
    # no hypothesis cache: every case decodes, so every case needs its engine's model loaded
    result = project.runpytest_subprocess("--asrbench", "cases", "-n", "2", "--snapshot-update",
                                          "--asrbench-no-cache", "-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6)
    text = result.stdout.str()
    # the two engine settings (default-*, beam1-*) are two groups; the cases of one run on one worker
    groups = {}
    for worker, setting in re.findall(r"\[(gw\d)\] .*?PASSED cases/en/asr\.yaml::(\w+)-\d+", text):
        groups.setdefault(setting, set()).add(worker)
    assert set(groups) == {"default", "beam1"} and all(len(workers) == 1 for workers in groups.values()), text
    loads = dict(re.findall(r"(gw\d) (\d+)", re.search(r"model loads per worker: ([^;\n]+)", text).group(1)))
    assert sum(int(n) for n in loads.values()) == 2, text  # one load per engine setting, in the whole run
    assert all(int(n) <= 2 for n in loads.values()), text
