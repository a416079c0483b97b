"""Bad input to the ASR stage gives one clear AsrbenchError (or flag), never a raw traceback:
engine settings, expect keys and flags, language tags, audio paths, truncated files; and
``asrbench transcribe`` goes on past a bad file. Also: the progress bar stays out of logs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from tests.asr.conftest import ROOT, SAMPLES, needs_faster_whisper

from pytest_asrbench.asr.engine import KNOWN_FLAGS, base_language
from pytest_asrbench.asr.errors import (
    AsrCaseError,
    AsrLanguageError,
    AudioError,
    EngineSettingsError,
)
from pytest_asrbench.errors import AsrbenchError

EN01 = SAMPLES / "en" / "en-01.wav"
EN02 = SAMPLES / "en" / "en-02.flac"


# ----------------------------------------------------------------------------- engine settings


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"compute_type": "float99"}, ["compute_type", "'float99'", "int8", "float32"]),
        ({"device": "tpu"}, ["device", "'tpu'", "cpu"]),
        ({"beam_size": 0}, ["beam_size", ">= 1"]),
        ({"beam_size": True}, ["beam_size"]),
        ({"temperature": "hot"}, ["temperature", "'hot'"]),
        ({"vad_filter": "yes"}, ["vad_filter", "true or false"]),
        ({"transcribe_options": []}, ["transcribe_options", "mapping"]),
        ({"beem_size": 5}, ["beem_size", "known:", "beam_size"]),
    ],
)
def test_bad_engine_settings_are_refused_up_front(settings, words):
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    with pytest.raises(EngineSettingsError) as info:
        FasterWhisperEngine(**settings)  # nothing loads: the check is before the model
    assert isinstance(info.value, AsrbenchError)
    for word in words:
        assert word in str(info.value)


@needs_faster_whisper
def test_transcribe_option_names_come_from_whisper_model_transcribe():
    from pytest_asrbench.asr.decode_settings import transcribe_option_names
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    assert {"no_speech_threshold", "initial_prompt", "hotwords"} <= transcribe_option_names()
    assert "audio" not in transcribe_option_names()
    with pytest.raises(EngineSettingsError, match="'bogus' is not an argument of .*WhisperModel.transcribe; accepted: .*no_speech_threshold"):
        FasterWhisperEngine(transcribe_options={"bogus": 1})
    FasterWhisperEngine(transcribe_options={"no_speech_threshold": 0.5})  # a real one is fine


# ----------------------------------------------------------------------------- language tags


@pytest.mark.parametrize("tag, code", [("hi_IN", "hi"), ("hi-IN", "hi"), ("EN", "en"), ("fr-CA", "fr"),
                                       ("zh-TW", "zh"), ("es_MX", "es"), ("yue", "yue")])
def test_a_tag_maps_to_its_base_code_as_normalize_reads_it(tag, code):
    assert base_language(tag) == code


@needs_faster_whisper
def test_whisper_language_refuses_what_whisper_lacks():
    from pytest_asrbench.asr.faster_whisper_engine import whisper_language

    assert whisper_language("hi_IN") == "hi"
    with pytest.raises(AsrLanguageError, match="Whisper has no language 'xx' .*'xx_YY'.*hi"):
        whisper_language("xx_YY")


# ----------------------------------------------------------------------------- asr runner


def _case(fields, tmp_path=None, language="en"):
    from pytest_asrbench.cases.model import Case

    return Case(id="c", kind="asr", language=language, metric="stt_wer",
                fields={"reference": "Please open the door.", **fields},
                file=(SAMPLES / "en" / "asr.yaml"), line=1)


def _run(case):
    from pytest_asrbench.cases.registry import RunContext
    from pytest_asrbench.cases.kinds.asr import AsrRunner

    return AsrRunner().run(case, RunContext(rootpath=ROOT))


class _Engine:
    """Stands in for faster-whisper (no model) so the runner's checks run fast."""

    name = "faster-whisper"

    def identity(self):
        return {"engine": self.name, "model": {"sha256": "0" * 64}, "decode": {}}

    def transcribe(self, audio, sample_rate=None, *, language):
        from pytest_asrbench.asr.engine import DecodeInfo, Transcript

        return Transcript("Please open the door.", (), DecodeInfo(language, 1.0, 0.0, 1.0, 1.0), ())


@pytest.fixture
def fake_session(monkeypatch):
    from pytest_asrbench.asr import session as session_module
    from pytest_asrbench.asr.engine import create_engine

    asr = session_module.AsrSession(use_cache=False)
    monkeypatch.setattr("pytest_asrbench.cases.asr_session._GLOBAL", asr)
    # default settings: the stand-in; any other setting: the real engine class (its checks)
    monkeypatch.setattr(session_module, "create_engine", lambda name, **settings: (
        _Engine() if not settings else create_engine(name, **settings)))
    return asr


@needs_faster_whisper
@pytest.mark.parametrize(
    "fields, error, words",
    [
        ({"audio": "en-02.flac", "engine": {"compute_type": "float99"}}, EngineSettingsError, ["float99"]),
        ({"audio": "en-02.flac", "engine": {"transcribe_options": {"bogus": 1}}}, EngineSettingsError, ["bogus"]),
        ({"audio": "missing.flac"}, AudioError, ["missing.flac: audio file not found"]),
        ({"audio": "."}, AudioError, ["is a directory"]),
        ({"audio": "en-02.flac", "expect": {"flags": ["no_speeech"]}}, AsrCaseError,
         ["'no_speeech'", *sorted(KNOWN_FLAGS)]),
        ({"audio": "en-02.flac", "expect": {"max_rat": 1}}, AsrCaseError,
         ["'max_rat'", "max_rate", "transcript", "flags", "rate", "substitutions"]),
    ],
)
def test_bad_case_input_raises_before_any_snapshot(fake_session, fields, error, words):
    with pytest.raises(error) as info:
        _run(_case(fields))
    assert isinstance(info.value, AsrbenchError)
    message = str(info.value)
    for word in words:
        assert word in message
    assert "snapshot" not in message and "bump" not in message


@needs_faster_whisper
def test_good_expect_keys_and_flags_still_check(fake_session):
    result = _run(_case({"audio": "en-02.flac", "expect": {"max_rate": 0, "flags": [], "rate": 0.0}}))
    assert result.passed, result.failures
    result = _run(_case({"audio": "en-02.flac", "expect": {"flags": ["no_speech"]}}))
    lead = result.failures[0].splitlines()  # the finding, then this run's transcript and rate
    assert lead[0] == "flags [] != expected ['no_speech']"
    assert lead[-1].startswith("now on ") and "'Please open the door.' (WER 0)" in lead[-1]
    assert len(result.failures) == 2 and "REF: please open the door" in result.failures[1]  # the account


# ----------------------------------------------------------------------------- truncated audio


@needs_faster_whisper
@pytest.mark.parametrize("clip, keep", [(EN02, 5000), (EN01, 20000)])
def test_truncated_file_is_noticed_from_its_header(tmp_path, clip, keep):
    from pytest_asrbench.asr.audio import declared_duration, load_audio

    whole = load_audio(clip)
    assert not whole.truncated and declared_duration(clip) == pytest.approx(whole.duration, abs=1e-3)
    cut = tmp_path / f"cut{clip.suffix}"
    cut.write_bytes(clip.read_bytes()[:keep])
    clip_cut = load_audio(cut)
    assert clip_cut.duration < whole.duration / 2
    assert clip_cut.declared_duration == pytest.approx(whole.duration, abs=1e-3) and clip_cut.truncated


def test_formats_without_an_exact_header_length_are_not_judged(tmp_path):
    from pytest_asrbench.asr.audio import declared_duration

    (tmp_path / "x.mp3").write_bytes(b"\xff\xfb\x90\x00" + bytes(400))
    streamed = bytearray(EN01.read_bytes()[:2000])
    data = streamed.index(b"data")
    streamed[data + 4:data + 8] = b"\xff\xff\xff\xff"  # "unknown length", as a pipe writer leaves it
    (tmp_path / "streamed.wav").write_bytes(bytes(streamed))
    assert declared_duration(tmp_path / "x.mp3") is None
    assert declared_duration(tmp_path / "streamed.wav") is None


@pytest.mark.asr
def test_engine_flags_a_truncated_clip(engine, tmp_path):
    cut = tmp_path / "cut.flac"
    cut.write_bytes(EN02.read_bytes()[:5000])
    assert "truncated_audio" in engine.transcribe(cut, language="en").flags
    assert "truncated_audio" not in engine.transcribe(EN02, language="en").flags


# ----------------------------------------------------------------------------- transcribe CLI


@pytest.mark.asr
def test_transcribe_goes_past_bad_files_and_takes_any_tag(engine, tmp_path):
    (tmp_path / "empty.wav").write_bytes(b"")
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from pytest_asrbench.cli import main; sys.exit(main(sys.argv[1:]))",
         "transcribe", "-l", "en_US", "--threads", "2", "--json",
         str(EN01), str(tmp_path / "missing.wav"), str(tmp_path), str(tmp_path / "empty.wav"), str(EN02)],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300,
    )
    assert done.returncode == 2, done.stderr
    record = json.loads(done.stdout)
    assert [c["transcript"] for c in record["clips"]] == ["Good morning, how are you today?", "Please open the door."]
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 4, done.stderr  # one per bad file, then the count, each with the command's prefix
    assert all(line.startswith("asrbench transcribe: error: ") for line in errors)
    assert "missing.wav: audio file not found" in errors[0]
    assert f"{tmp_path}: is a directory" in errors[1]
    assert "empty.wav: audio file is empty" in errors[2]
    assert errors[3].endswith("error: 3 of 5 audio file(s) could not be transcribed (see the errors above)")
    assert "Traceback" not in done.stderr


@needs_faster_whisper
def test_transcribe_refuses_an_unknown_language_before_any_clip(capsys):
    from pytest_asrbench.cli import main

    assert main(["transcribe", "-l", "xx_YY", str(EN01)]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and "Whisper has no language 'xx'" in err


# ----------------------------------------------------------------------------- progress bar


class _Stream(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


@needs_faster_whisper
@pytest.mark.parametrize("tty", [False, True])
def test_progress_bar_only_on_a_terminal_and_erased_after(monkeypatch, tty):
    from pytest_asrbench.asr.session import PROGRESS_MIN_CLIPS, AsrSession

    stream = _Stream(tty)
    monkeypatch.setattr(sys, "stderr", stream)
    session = AsrSession(use_cache=False)
    session.expected_clips = PROGRESS_MIN_CLIPS + 3
    seen_leave = []
    for n in range(session.expected_clips):
        session.add_clip({"n": n})
        if session._bar is not None:
            seen_leave.append(session._bar.leave)
    assert session._bar is None  # closed after the last clip
    if tty:
        assert "asr clips" in stream.getvalue() and seen_leave and not any(seen_leave)
    else:
        assert stream.getvalue() == "" and not seen_leave


@pytest.mark.asr
def test_a_compute_type_this_host_lacks_is_a_settings_error(engine):
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    import ctranslate2

    lacking = [c for c in ("float16", "bfloat16", "int8_float16") if c not in ctranslate2.get_supported_compute_types("cpu")]
    if not lacking:
        pytest.skip("this CPU runs every half-precision compute type")
    # refused by the settings check, before any load (see test_settings_without_model_load.py)
    with pytest.raises(EngineSettingsError, match=f"this host cannot run '{lacking[0]}' on cpu; it runs .*int8"):
        FasterWhisperEngine(compute_type=lacking[0], cpu_threads=1)


#: Undecodable clips of asr cases: name, bytes, what the failure says of them.
UNDECODABLE_CLIPS = (
    ("corrupt.wav", b"RIFF" + b"\x00" * 40 + b"garbage" * 50, "not decodable audio: FFmpeg cannot read it"),
    ("notes.flac", b"hello, this is a text file\n", "not decodable audio: FFmpeg's flac demuxer finds no audio"),
)


@needs_faster_whisper
def test_asr_cases_with_undecodable_clips_fail_naming_them_before_any_model_loads(pytester, monkeypatch):
    # one pytester run in this process (the asr extra's modules load once per process)
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    def refuse(self):
        raise AssertionError("the model was loaded before the audio was checked")

    monkeypatch.setattr(FasterWhisperEngine, "load", refuse)
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeini("[pytest]\n")
    (pytester.path / "cases").mkdir()
    lines = ["language: en", "cases:"]
    for index, (clip, content, _) in enumerate(UNDECODABLE_CLIPS):
        (pytester.path / "cases" / clip).write_bytes(content)
        lines.append(f"  - {{id: broken-clip-{index}, kind: asr, audio: {clip}, reference: hello}}")
    (pytester.path / "cases" / "asr.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = pytester.runpytest("--asrbench", "cases", "--asrbench-no-cache", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=len(UNDECODABLE_CLIPS))
    text = result.stdout.str()
    for clip, _, words in UNDECODABLE_CLIPS:
        assert f"{clip}: {words}" in text
    assert text.count("put a good copy of the file at that path") >= len(UNDECODABLE_CLIPS)
    assert "the model was loaded" not in text and "zero-length" not in text
