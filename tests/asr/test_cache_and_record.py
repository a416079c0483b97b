"""Hypothesis cache and run record with a fake engine (no model needed)."""

from __future__ import annotations

import json
import multiprocessing

import pytest

from tests.asr.conftest import SAMPLES, needs_faster_whisper

from pytest_asrbench.asr.cache import HypothesisCache, transcribe_with_cache
from pytest_asrbench.asr.engine import DecodeInfo, Transcript
from pytest_asrbench.asr.errors import RunRecordError
from pytest_asrbench.asr.run_record import SCHEMA, build_record, clip_entry, percentile, write_record

pytestmark = needs_faster_whisper
CLIP = SAMPLES / "en" / "en-02.flac"


class FakeEngine:
    name = "fake"

    def __init__(self, beam_size=5):
        self.beam_size = beam_size
        self.calls = 0
        self.load_seconds = None

    def identity(self):
        return {"engine": "fake", "model": {"name": "fake", "sha256": "0" * 64}, "decode": {"beam_size": self.beam_size}}

    def transcribe(self, audio, sample_rate=None, *, language):
        self.calls += 1
        info = DecodeInfo(language, 1.0, 0.0, 1.0, round(len(audio) / sample_rate, 3))
        return Transcript("please open the door", (), info, ())


def test_second_lookup_is_a_hit_and_runs_no_engine(tmp_path):
    cache, engine = HypothesisCache(tmp_path), FakeEngine()
    first = transcribe_with_cache(engine, CLIP, "en", cache)
    second = transcribe_with_cache(engine, CLIP, "en", cache)
    assert (first.cached, second.cached, engine.calls) == (False, True, 1)
    assert second.transcript == first.transcript and second.latency_seconds is None


def test_decode_settings_and_language_are_in_the_key(tmp_path):
    cache = HypothesisCache(tmp_path)
    transcribe_with_cache(FakeEngine(5), CLIP, "en", cache)
    other = FakeEngine(1)
    assert not transcribe_with_cache(other, CLIP, "en", cache).cached
    assert not transcribe_with_cache(other, CLIP, "de", cache).cached


@pytest.mark.parametrize("damage", [b"{not json", b'{"schema": "asrbench.hypothesis/1"}', b"[1, 2]", b"null", None])
def test_corrupt_entry_is_detected_and_recomputed(tmp_path, damage):
    cache, engine = HypothesisCache(tmp_path), FakeEngine()
    transcribe_with_cache(engine, CLIP, "en", cache)
    [entry] = list(tmp_path.rglob("*.json"))
    if damage is None:  # valid JSON, tampered transcript: the checksum catches it
        data = json.loads(entry.read_text())
        data["transcript"]["text"] = "something else"
        damage = json.dumps(data).encode()
    entry.write_bytes(damage)
    again = transcribe_with_cache(engine, CLIP, "en", cache)
    assert not again.cached and engine.calls == 2 and cache.corrupt == 1
    assert transcribe_with_cache(engine, CLIP, "en", cache).cached  # rewritten whole


def test_bypass_reads_and_writes_nothing(tmp_path):
    cache, engine = HypothesisCache(tmp_path, enabled=False), FakeEngine()
    transcribe_with_cache(engine, CLIP, "en", cache)
    transcribe_with_cache(engine, CLIP, "en", cache)
    assert engine.calls == 2 and not list(tmp_path.rglob("*.json"))


def _write_many(root):
    cache = HypothesisCache(root)
    for _ in range(30):
        transcribe_with_cache(FakeEngine(), CLIP, "en", HypothesisCache(root, enabled=False))
        cache.put("ab" * 32, Transcript("x" * 5000, (), DecodeInfo("en", 1.0, 0.0, 1.0, 1.0)), {"k": 1})
        assert cache.get("ab" * 32) is not None  # never sees a half-written entry
    return cache.corrupt


def test_two_processes_writing_one_key_never_corrupt_it(tmp_path):
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert pool.map(_write_many, [tmp_path, tmp_path]) == [0, 0]


def test_percentile_interpolates():
    assert percentile([], 50) is None
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)


def test_run_record_has_every_field(tmp_path):
    cache, engine = HypothesisCache(tmp_path / "c"), FakeEngine()
    runs = [transcribe_with_cache(engine, CLIP, "en", cache) for _ in range(2)]
    clips = [clip_entry(r, reference="Please open the door.") for r in runs]
    record = build_record(engine, clips, cache=cache)
    assert record["schema"] == SCHEMA
    for key in ("model", "engine", "libraries", "host", "timings", "peak_rss_bytes", "clips", "cases_git_commit"):
        assert key in record
    assert {"os", "cpu_model", "ram_bytes", "threads", "logical_cpus"} <= set(record["host"])
    timings = record["timings"]
    assert timings["clips"] == 2 and timings["clips_cached"] == 1
    assert timings["latency_p50_seconds"] is not None and timings["real_time_factor"] > 0
    assert record["peak_rss_bytes"] > 0
    with pytest.raises(RunRecordError, match="does not exist; create it first"):
        write_record(record, tmp_path / "out" / "run.json")  # a missing folder is never created silently
    (tmp_path / "out").mkdir()
    path = write_record(record, tmp_path / "out" / "run.json")
    assert json.loads(path.read_text())["schema"] == SCHEMA


class _NoLoadEngine(FakeEngine):
    def load(self):
        raise AssertionError("the model was loaded before the audio was checked")


def test_a_corrupt_clip_fails_before_the_model_loads(tmp_path):
    from pytest_asrbench.asr.errors import AudioError

    corrupt = tmp_path / "corrupt.wav"
    corrupt.write_bytes(b"RIFF" + b"\x00" * 40 + b"garbage" * 50)
    with pytest.raises(AudioError, match=r"corrupt\.wav: "):
        transcribe_with_cache(_NoLoadEngine(), corrupt, "en", HypothesisCache(tmp_path / "cache"))

