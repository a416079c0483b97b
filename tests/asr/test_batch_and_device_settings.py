"""The engine settings ``batch_size`` and ``device``: validation, the decode identity and the
hypothesis-cache key, and where they can be set. No GPU here: the CTranslate2 device queries
are replaced by stand-ins."""

from __future__ import annotations

import numpy as np
import pytest

from tests.asr.conftest import SAMPLES, needs_faster_whisper

from pytest_asrbench.asr.errors import EngineSettingsError

pytestmark = needs_faster_whisper

#: The decode settings every identity held before batch_size existed (recorded snapshots and
#: cached transcripts are keyed by exactly these).
SEQUENTIAL_DECODE_FIELDS = [
    "model", "device", "compute_type", "beam_size", "temperature", "vad_filter", "condition_on_previous_text",
    "detect_language", "silence_gate", "transcribe_options",
]


def _settings(**values):
    from pytest_asrbench.asr.decode_settings import DecodeSettings

    return DecodeSettings.from_mapping(values)


@pytest.mark.parametrize("bad", [0, -1, "8", 2.5, True, None])
def test_a_bad_batch_size_is_one_error_naming_the_setting_and_the_fix(bad):
    with pytest.raises(EngineSettingsError) as info:
        _settings(batch_size=bad)
    message = str(info.value)
    assert message.startswith(f"engine setting batch_size: {bad!r} is not an integer >= 1")
    assert "use 1 to decode window by window" in message


def test_batch_size_one_keeps_the_sequential_identity_and_cache_key():
    from pytest_asrbench.asr.cache import HypothesisCache
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    default, one, eight = (FasterWhisperEngine(**extra) for extra in ({}, {"batch_size": 1}, {"batch_size": 8}))
    assert list(default.identity()["decode"]) == SEQUENTIAL_DECODE_FIELDS
    assert one.identity() == default.identity()
    assert eight.identity()["decode"] == {**default.identity()["decode"], "batch_size": 8}

    def key(engine):
        return HypothesisCache.key(HypothesisCache.key_fields("0" * 64, "en", engine.identity()))

    assert key(one) == key(default)
    assert key(eight) != key(default)


@pytest.mark.parametrize("values, words", [
    ({"condition_on_previous_text": True}, ["condition_on_previous_text=False", "would be ignored"]),
    ({"transcribe_options": {"hallucination_silence_threshold": 2.0}}, ["hallucination_silence_threshold=None"]),
    ({"transcribe_options": {"max_initial_timestamp": 1.0}}, ["max_initial_timestamp=0.0"]),
    ({"transcribe_options": {"temperature": [0.0, 0.2]}}, ["keeps only the first temperature", "[0.0, 0.2]"]),
])
def test_batched_settings_the_pipeline_would_ignore_are_refused(values, words):
    with pytest.raises(EngineSettingsError) as info:
        _settings(batch_size=4, **values)
    for word in ["engine setting batch_size 4", "or use batch_size 1", *words]:
        assert word in str(info.value)
    _settings(batch_size=1, **values)  # the sequential path takes them


def test_batch_size_cannot_come_in_through_transcribe_options():
    with pytest.raises(EngineSettingsError, match="'batch_size' is not an argument"):
        _settings(transcribe_options={"batch_size": 8})


def test_long_audio_without_vad_is_refused_before_the_batched_pipeline(monkeypatch):
    from pytest_asrbench.asr.audio import load_audio
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    engine = FasterWhisperEngine(batch_size=8)
    monkeypatch.setattr(engine, "load", lambda: object())  # no model: the refusal comes first
    tone = (0.1 * np.sin(np.arange(31 * 16000) / 16000 * 2 * np.pi * 220)).astype(np.float32)
    with pytest.raises(EngineSettingsError) as info:
        engine.transcribe_clip(load_audio(tone, 16000), language="en")
    assert "31.0 s of audio with engine setting batch_size 8 and vad_filter off" in str(info.value)
    assert "set vad_filter: true, or batch_size: 1" in str(info.value)


# ----------------------------------------------------------------------------- device


@pytest.fixture
def gpus(monkeypatch):
    """Set how many CUDA devices CTranslate2 reports, and what the GPU runs."""
    import ctranslate2

    cpu_types = ctranslate2.get_supported_compute_types("cpu")

    def use(count: int, cuda_types=("float32", "float16", "int8_float16", "int8")):
        monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: count)

        def supported(device, device_index=0):
            if device == "cuda":
                if not count:
                    raise RuntimeError("CUDA driver version is insufficient for CUDA runtime version")
                return set(cuda_types)
            return cpu_types

        monkeypatch.setattr(ctranslate2, "get_supported_compute_types", supported)
    return use


def test_cuda_without_a_gpu_is_one_error_naming_the_check(gpus):
    gpus(0)
    with pytest.raises(EngineSettingsError) as info:
        _settings(device="cuda")
    assert str(info.value) == (
        "engine setting device: 'cuda' needs a CUDA GPU, and ctranslate2.get_cuda_device_count() finds none on "
        "this host (no GPU, or no CUDA driver CTranslate2 can use); use device: cpu, or auto to take a GPU only "
        "where there is one")


def test_a_compute_type_the_gpu_lacks_is_refused(gpus):
    gpus(1, cuda_types=("float32", "float16"))
    assert _settings(device="cuda", compute_type="float16").device == "cuda"
    with pytest.raises(EngineSettingsError) as info:
        _settings(device="cuda", compute_type="int8")
    assert "this host cannot run 'int8' on cuda; it runs float16, float32" in str(info.value)


@pytest.mark.parametrize("count, resolved", [(0, "cpu"), (2, "cuda")])
def test_auto_resolves_to_the_device_that_decodes_and_the_identity_names_it(gpus, count, resolved):
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    gpus(count)
    engine = FasterWhisperEngine(device="auto")
    assert engine.settings.device == resolved
    assert engine.identity()["decode"]["device"] == resolved
    if resolved == "cpu":  # the same key as an explicit cpu: the same decode
        assert engine.identity() == FasterWhisperEngine(device="cpu").identity()
    else:
        assert engine.identity()["kernels"] == {"device": "cuda"}


def test_the_run_record_names_the_resolved_device_and_the_batch_size(gpus, tmp_path):
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine
    from pytest_asrbench.asr.run_record import build_record

    gpus(1)
    record = build_record(FasterWhisperEngine(device="auto", compute_type="float16", batch_size=8), [],
                          cases_root=tmp_path)
    assert record["engine"]["decode_settings"]["device"] == "cuda"
    assert record["engine"]["decode_settings"]["batch_size"] == 8
    assert record["engine"]["kernels"] == {"device": "cuda"}


def test_an_unknown_device_lists_the_devices():
    with pytest.raises(EngineSettingsError, match="'tpu' is not a device; use one of cpu, cuda, auto"):
        _settings(device="tpu")


# ----------------------------------------------------------------------------- where they are set


def test_transcribe_command_passes_batch_size_and_device():
    import argparse

    from pytest_asrbench.asr import transcribe_command

    parser = argparse.ArgumentParser()
    transcribe_command.add_parser(parser.add_subparsers())
    args = parser.parse_args(["transcribe", "-l", "en", "--batch-size", "8", "--device", "auto", "a.wav"])
    assert transcribe_command._settings(args) == {"name": "faster-whisper", "batch_size": 8, "device": "auto"}


def test_transcribe_command_refuses_batch_size_zero_before_any_clip(capsys):
    from pytest_asrbench import cli

    assert cli.main(["transcribe", "-l", "en", "--batch-size", "0", str(SAMPLES / "en" / "en-02.flac")]) == 2
    assert "engine setting batch_size: 0 is not an integer >= 1" in capsys.readouterr().err


def test_bench_run_passes_batch_size_and_device_to_the_engine_and_the_command_line(tmp_path):
    import argparse

    from pytest_asrbench.bench.run import cli as run_cli
    from pytest_asrbench.bench.run.executors.base import engine_settings

    parser = argparse.ArgumentParser()
    run_cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["run", "--manifest", "m.jsonl", "--audio-root", "a", "--batch-size", "8",
                              "--device", "auto", "--threads", "2", "--out", str(tmp_path / "r.json")])
    settings = run_cli._settings(args, run_cli.command_line(args))
    assert engine_settings(settings) == {"model": "embedded", "cpu_threads": 2, "beam_size": 5,
                                         "compute_type": "int8", "batch_size": 8, "device": "auto"}
    assert "--batch-size 8 --device auto" in " ".join(settings.argv)
    default = parser.parse_args(["run", "--manifest", "m.jsonl", "--audio-root", "a", "--threads", "2",
                                 "--out", str(tmp_path / "r.json")])
    assert "batch_size" not in engine_settings(run_cli._settings(default, []))


def test_bench_run_refuses_batch_size_zero(tmp_path, capsys):
    from pytest_asrbench import cli

    assert cli.main(["bench", "run", "--manifest", "m.jsonl", "--audio-root", ".", "--batch-size", "0",
                     "--out", str(tmp_path / "r.json")]) == 2
    assert "--batch-size must be >= 1" in capsys.readouterr().err


@pytest.mark.asr
def test_a_batched_decode_of_a_sample_clip_gives_the_sequential_transcript(engine):
    from pytest_asrbench.asr import create_engine

    clip = SAMPLES / "en" / "en-01.wav"
    batched = create_engine("faster-whisper", cpu_threads=2, batch_size=8)
    batched._model = engine.load()  # the session's loaded model: one load per test session
    assert batched.transcribe(clip, language="en").text == engine.transcribe(clip, language="en").text \
        == "Good morning, how are you today?"
