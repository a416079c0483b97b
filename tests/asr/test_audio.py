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


def _zero_length_flac(path):
    """A valid FLAC file of 16 kHz mono with no samples (written by FFmpeg's encoder)."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream("flac", rate=16000, layout="mono")
        for packet in stream.encode(None):
            out.mux(packet)


def _header_only_flac(path):
    """A FLAC file cut after its metadata: STREAMINFO declares the sample's length, no frame follows."""
    data = (SAMPLES / "de" / "de-01.flac").read_bytes()
    position = 4
    while True:  # metadata blocks: 1 byte (last-block flag, type), 3 bytes length (RFC 9639)
        last, size = data[position] & 0x80, int.from_bytes(data[position + 1:position + 4], "big")
        position += 4 + size
        if last:
            break
    path.write_bytes(data[:position])


@pytest.mark.parametrize("suffix", [".flac", ".wav", ".mp3", ".ogg", ".m4a", ".opus", ".ac3"])
def test_a_text_file_with_an_audio_extension_is_not_decodable_audio_not_a_zero_length_clip(tmp_path, suffix):
    from pytest_asrbench.asr.audio import NOT_AUDIO, UNUSABLE_AUDIO_HINT, probe_audio_file

    path = tmp_path / f"notes{suffix}"
    path.write_text("20 Euro bitte\nthis is a transcript, not audio\n", encoding="utf-8")
    for read in (probe_audio_file, load_audio):
        with pytest.raises(AudioError) as info:
            read(path)
        message = str(info.value)
        assert message.startswith(f"{path}: not decodable audio: FFmpeg"), (read.__name__, message)
        assert message.endswith(f"; {NOT_AUDIO}; {UNUSABLE_AUDIO_HINT}") and "zero-length" not in message


def test_a_text_file_named_flac_says_what_the_flac_demuxer_found(tmp_path):
    # FFmpeg picks the FLAC demuxer by the extension and it takes any bytes without an error;
    # the stream it reports has neither a sample rate nor channels.
    from pytest_asrbench.asr.audio import probe_audio_file

    path = tmp_path / "clip.flac"
    path.write_text("hello, this is text\n", encoding="utf-8")
    with pytest.raises(AudioError, match=r"clip\.flac: not decodable audio: FFmpeg's flac demuxer finds no audio "
                                         r"parameters in it \(0 Hz, 0 channels\)"):
        probe_audio_file(path)


def test_a_header_that_declares_audio_with_no_frame_after_it_is_not_decodable_audio(tmp_path):
    from pytest_asrbench.asr.audio import probe_audio_file

    path = tmp_path / "cut.flac"
    _header_only_flac(path)
    for read in (probe_audio_file, load_audio):
        with pytest.raises(AudioError, match=r"cut\.flac: not decodable audio: its flac header declares 2\.64 s but "
                                             r"not one audio frame decodes; the file is corrupt, cut off"):
            read(path)


@pytest.mark.parametrize(("name", "header"), [("zero.wav", "a wav header"), ("zero.flac", "a flac header")])
def test_a_zero_length_clip_keeps_its_message(tmp_path, name, header):
    from pytest_asrbench.asr.audio import UNUSABLE_AUDIO_HINT, probe_audio_file

    path = tmp_path / name
    if name.endswith(".wav"):
        _write_wav(path, np.zeros(0), 16000)
    else:
        _zero_length_flac(path)
    for read in (probe_audio_file, load_audio):
        with pytest.raises(AudioError) as info:
            read(path)
        assert str(info.value) == (f"{path}: holds no audio frame (a zero-length clip: {header} of 16000 Hz, "
                                   f"1 channel(s) and no samples); {UNUSABLE_AUDIO_HINT}")


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
    ("corrupt.flac", "not decodable audio: FFmpeg cannot read it"), ("empty.wav", "is empty"),
    ("zero.wav", "no audio frame (a zero-length clip"),
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
