"""Audio decoding: formats, downmix, resampling, and clear errors naming the file."""

from __future__ import annotations

import wave

import numpy as np
import pytest

from tests.asr.conftest import SAMPLES, needs_faster_whisper

from pytest_asrbench.asr.audio import TARGET_SAMPLE_RATE, load_audio, peak_frame_dbfs
from pytest_asrbench.asr.errors import AudioError

pytestmark = needs_faster_whisper


def _write_wav(path, samples: np.ndarray, rate: int, channels: int = 1):
    data = (np.clip(samples, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(data.tobytes())


def test_stereo_44k_wav_is_downmixed_and_resampled(tmp_path):
    t = np.arange(44100) / 44100
    tone = 0.5 * np.sin(2 * np.pi * 440 * t)
    stereo = np.stack([tone, tone], axis=1).reshape(-1)
    path = tmp_path / "stereo.wav"
    _write_wav(path, stereo, 44100, channels=2)
    clip = load_audio(path)
    assert clip.sample_rate == TARGET_SAMPLE_RATE
    assert clip.samples.dtype == np.float32 and clip.samples.ndim == 1
    assert abs(clip.duration - 1.0) < 0.01
    assert not clip.is_silent


@pytest.mark.parametrize("name", ["en/en-01.wav", "de/de-01.flac"])
def test_committed_samples_decode(name):
    clip = load_audio(SAMPLES / name)
    assert 0.5 < clip.duration < 10 and len(clip.sha256) == 64


def test_array_at_another_rate_is_resampled():
    samples = np.zeros(8000, dtype=np.float32)
    samples[::50] = 0.3
    clip = load_audio(samples, 8000)
    assert abs(clip.duration - 1.0) < 0.01 and clip.source == "<array>"


def test_integer_and_two_channel_arrays():
    data = (np.ones((1600, 2)) * 1000).astype(np.int16)
    clip = load_audio(data, 16000)
    assert clip.samples.shape == (1600,) and clip.samples.max() < 0.1


def test_missing_file(tmp_path):
    with pytest.raises(AudioError, match="nowhere.wav: audio file not found"):
        load_audio(tmp_path / "nowhere.wav")


def test_empty_file_names_the_file(tmp_path):
    path = tmp_path / "empty.wav"
    path.write_bytes(b"")
    with pytest.raises(AudioError, match=r"empty\.wav: audio file is empty"):
        load_audio(path)


def test_corrupt_file_names_the_file(tmp_path):
    path = tmp_path / "corrupt.flac"
    path.write_bytes(b"not audio at all" * 100)
    with pytest.raises(AudioError, match=r"corrupt\.flac: (cannot decode audio|audio decodes to zero samples .*corrupt)"):
        load_audio(path)


def test_zero_length_wav_names_the_file(tmp_path):
    path = tmp_path / "zero.wav"
    _write_wav(path, np.zeros(0), 16000)
    with pytest.raises(AudioError, match=r"zero\.wav: audio decodes to zero samples"):
        load_audio(path)


def test_array_needs_a_rate_and_samples():
    with pytest.raises(AudioError, match="sample_rate"):
        load_audio(np.zeros(10, dtype=np.float32))
    with pytest.raises(AudioError, match="zero-length"):
        load_audio(np.zeros(0, dtype=np.float32), 16000)


def test_silence_levels():
    assert peak_frame_dbfs(np.zeros(16000, dtype=np.float32), 16000) == float("-inf")
    quiet = np.full(16000, 1e-4, dtype=np.float32)  # -80 dBFS
    assert load_audio(quiet, 16000).is_silent
