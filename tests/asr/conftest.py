"""Fixtures of the ASR tests: an isolated cache folder, and one model per session."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
HAVE_FASTER_WHISPER = importlib.util.find_spec("faster_whisper") is not None
needs_faster_whisper = pytest.mark.skipif(
    not HAVE_FASTER_WHISPER, reason="faster-whisper is not installed: pip install -e '.[asr]'"
)


@pytest.fixture(autouse=True)
def _isolated_hypothesis_cache(tmp_path_factory, monkeypatch):
    """Each test's hypothesis cache starts empty; the assembled model is shared per session
    (assembling it is a 145 MB copy), in its own folder."""
    session_models = tmp_path_factory.getbasetemp() / "asrbench-cache"
    monkeypatch.setenv("ASRBENCH_CACHE_DIR", str(session_models))
    hypotheses = tmp_path_factory.mktemp("hypotheses")
    monkeypatch.setattr(
        "pytest_asrbench.asr.cache.default_cache_dir", lambda: hypotheses
    )


@pytest.fixture(scope="session")
def engine(tmp_path_factory):
    """The embedded-model engine, loaded once per test session."""
    if not HAVE_FASTER_WHISPER:
        pytest.skip("faster-whisper is not installed: pip install -e '.[asr]'")
    import os

    os.environ.setdefault("ASRBENCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "asrbench-cache"))
    from pytest_asrbench.asr import create_engine

    eng = create_engine("faster-whisper", cpu_threads=2)
    eng.load()
    return eng
