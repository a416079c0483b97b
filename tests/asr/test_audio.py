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


def _bad_files(tmp_path) -> dict:
    """One unusable file of each kind the up-front probe refuses, by name."""
    corrupt = tmp_path / "corrupt.flac"
    corrupt.write_bytes(b"fLaC" + b"not audio at all" * 100)
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    zero = tmp_path / "zero.wav"
    _write_wav(zero, np.zeros(0), 16000)
    return {"corrupt.flac": corrupt, "empty.wav": empty, "zero.wav": zero, "missing.wav": tmp_path / "missing.wav",
            "a-folder": tmp_path}


@pytest.mark.parametrize("name", ["en/en-01.wav", "de/de-01.flac", "en/en-02.flac"])
def test_the_probe_passes_the_committed_samples(name):
    from pytest_asrbench.asr.audio import probe_audio_file

    probe_audio_file(SAMPLES / name)


@pytest.mark.parametrize("name, words", [
    ("corrupt.flac", "cannot be decoded"), ("empty.wav", "is empty"), ("zero.wav", "no audio frame"),
    ("missing.wav", "not found"), ("a-folder", "is a directory"),
])
def test_the_probe_refuses_an_unusable_file_naming_it_and_what_to_do(tmp_path, name, words):
    from pytest_asrbench.asr.audio import UNUSABLE_AUDIO_HINT, probe_audio_file

    path = _bad_files(tmp_path)[name]
    with pytest.raises(AudioError) as info:
        probe_audio_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and words in message and message.endswith(UNUSABLE_AUDIO_HINT)


def test_checking_many_files_names_every_unusable_one_once_in_one_error(tmp_path):
    from pytest_asrbench.asr.audio import UNUSABLE_AUDIO_HINT, check_audio_files

    bad = _bad_files(tmp_path)
    good = SAMPLES / "en" / "en-01.wav"
    check_audio_files([good, good])  # nothing to say
    with pytest.raises(AudioError) as info:
        check_audio_files([good, bad["corrupt.flac"], bad["zero.wav"], bad["corrupt.flac"], good])
    lines = str(info.value).splitlines()
    assert lines[0] == "2 audio files cannot be used:"
    assert [line.split(": ")[0].strip() for line in lines[1:3]] == [str(bad["corrupt.flac"]), str(bad["zero.wav"])]
    assert lines[3] == f"for each: {UNUSABLE_AUDIO_HINT}" and len(lines) == 4
