"""Tests with the real embedded model (the ``asr`` extra): few and short, one model per session."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.asr.conftest import ROOT, SAMPLES

pytestmark = pytest.mark.asr

CLIP = SAMPLES / "en" / "en-01.wav"


def test_transcribes_a_sample_clip(engine):
    from pytest_asrbench.asr import SttEngine

    assert isinstance(engine, SttEngine)
    transcript = engine.transcribe(CLIP, language="en")
    assert transcript.text == "Good morning, how are you today?"
    assert transcript.segments and transcript.segments[0].end <= transcript.info.duration + 0.5
    assert transcript.info.language == "en" and transcript.flags == ()
    assert engine.model_files.model_sha256 == engine.model_sha256()


def test_array_input_gives_the_same_transcript(engine):
    from pytest_asrbench.asr import load_audio

    clip = load_audio(CLIP)
    assert engine.transcribe(clip.samples, 16000, language="en").text == engine.transcribe(CLIP, language="en").text


def test_silence_is_an_empty_transcript_flagged_no_speech(engine):
    transcript = engine.transcribe(np.zeros(32000, dtype=np.float32), 16000, language="hi")
    assert transcript.text == "" and transcript.flags == ("no_speech",) and transcript.no_speech


def test_same_clip_twice_in_one_process_is_identical(engine):
    first = engine.transcribe(SAMPLES / "ja" / "ja-01.flac", language="ja")
    second = engine.transcribe(SAMPLES / "ja" / "ja-01.flac", language="ja")
    assert first == second


def _cli(*args, env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    code = "import sys\nfrom pytest_asrbench.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
    )


def test_same_clip_in_another_process_is_identical_and_cli_json_is_a_run_record(engine):
    here = engine.transcribe(CLIP, language="en")
    done = _cli("transcribe", "-l", "en", str(CLIP), "--json", "--threads", "2")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["schema"] == "asrbench.run/1"
    assert record["clips"][0]["transcript"] == here.text
    assert record["timings"]["cold_load_seconds"] > 0
    assert record["model"]["model_sha256"] == "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57"


def test_cli_prints_transcript_and_timings():
    done = _cli("transcribe", "-l", "en", str(CLIP), "--threads", "2")
    assert done.returncode == 0, done.stderr
    assert "Good morning, how are you today?" in done.stdout
    assert "model load" in done.stdout and "RTF" in done.stdout


def test_asr_runner_scores_and_caches(engine, tmp_path, monkeypatch):
    from pytest_asrbench.asr import session as session_module
    from pytest_asrbench.cases.model import Case
    from pytest_asrbench.cases.registry import RunContext
    from pytest_asrbench.cases.kinds.asr import AsrRunner

    asr = session_module.AsrSession()
    asr.engines[json.dumps({"name": "faster-whisper"}, sort_keys=True)] = engine
    monkeypatch.setattr("pytest_asrbench.cases.asr_session._GLOBAL", asr)
    case = Case(
        id="en-01", kind="asr", language="en", metric="stt_wer",
        fields={"audio": "en-01.wav", "reference": "Good morning, how are you today?", "expect": {"rate": 0.0}},
        file=SAMPLES / "en" / "asr.yaml", line=1,
    )
    context = RunContext(rootpath=ROOT)
    first = AsrRunner().run(case, context)
    second = AsrRunner().run(case, context)
    assert first.passed and first.output == second.output
    assert asr.cache.hits == 1 and [c["cached"] for c in asr.clips] == [False, True]
    (recording,) = first.output["recordings"]
    assert recording["transcript"] == "Good morning, how are you today?"
    assert "latency" not in json.dumps(first.output)
    bad = Case(id="x", kind="asr", language="en", metric="stt_wer",
               fields={"audio": "missing.wav", "reference": "x"}, file=SAMPLES / "en" / "asr.yaml", line=3)
    from pytest_asrbench.asr.errors import AudioError

    # raised (an AsrbenchError: the case fails at file:line), not an output to compare with a
    # snapshot, so no "output differs ... bump the version" note comes with it
    with pytest.raises(AudioError, match="missing.wav: audio file not found"):
        AsrRunner().run(bad, context)
