"""Bad engine settings are refused before (and without) any model load, also when the
hypothesis cache is warm: the error comes from the settings, never from a failed load."""

from __future__ import annotations

import pytest

from tests.asr.conftest import SAMPLES, needs_faster_whisper

from pytest_asrbench.asr.errors import EngineSettingsError

pytestmark = needs_faster_whisper
CLIP = SAMPLES / "en" / "en-02.flac"


@pytest.fixture
def no_model_load(monkeypatch):
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    def refuse(self):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(FasterWhisperEngine, "load", refuse)


def _host_lacks() -> str:
    import ctranslate2

    supported = ctranslate2.get_supported_compute_types("cpu")
    for kind in ("float16", "bfloat16", "int8_float16", "int8_bfloat16"):
        if kind not in supported:
            return kind
    pytest.skip("this CPU runs every compute type")


def _warm_session(tmp_path):
    """A session whose cache holds the default engine's transcript of CLIP."""
    from pytest_asrbench.asr.cache import HypothesisCache
    from pytest_asrbench.asr.engine import DecodeInfo, Transcript
    from pytest_asrbench.asr.audio import file_sha256
    from pytest_asrbench.asr.session import AsrSession

    session = AsrSession(cache_dir=tmp_path / "hypotheses", use_cache=True)
    engine = session.engine_for({})
    fields = HypothesisCache.key_fields(file_sha256(CLIP), "en", engine.identity())
    session.cache.put(HypothesisCache.key(fields),
                      Transcript("Please open the door.", (), DecodeInfo("en", 1.0, 0.0, 1.0, 1.0), ()), fields)
    return session, engine


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"compute_type": "int9"}, ["'int9' is not a CTranslate2 compute type"]),
        ({"transcribe_options": {"beam_sise": 3}}, ["'beam_sise' is not an argument"]),
        ({"compute_type": "HOST-LACKS"}, ["this host cannot run", "it runs", "int8"]),
    ],
)
def test_bad_settings_with_a_warm_cache_load_no_model(tmp_path, no_model_load, settings, words):
    session, default_engine = _warm_session(tmp_path)
    if settings.get("compute_type") == "HOST-LACKS":
        settings = {"compute_type": _host_lacks()}
    with pytest.raises(EngineSettingsError) as info:
        session.transcribe(CLIP, "en", settings)
    for word in words:
        assert word in str(info.value)
    # the good settings still come from the cache, with no model loaded
    run = session.transcribe(CLIP, "en", {})
    assert run.cached and run.transcript.text == "Please open the door."
    assert not default_engine.loaded
    assert all(not engine.loaded for engine in session.engines.values())
