"""Audio input for the STT engines: decode, downmix to mono, resample to 16 kHz float32.

Files (wav, flac, mp3, ogg and anything else FFmpeg reads) are decoded with
``faster_whisper.decode_audio`` (PyAV/FFmpeg), the same decoder faster-whisper uses when it is
handed a path, so a clip gives the engine exactly the samples the bare library would see.
Arrays at another sample rate are resampled with PyAV's FFmpeg resampler.

Errors: :class:`~pytest_asrbench.asr.errors.AudioError` naming the file for a missing, empty
(0 bytes), corrupt (undecodable) or zero-length (decodes to no samples) input.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import numpy as np

from pytest_asrbench.asr.errors import AsrDependencyError, AudioError

#: Whisper models take 16 kHz mono input.
TARGET_SAMPLE_RATE = 16_000

#: A clip whose loudest 30 ms frame is quieter than this (dBFS) is treated as silence.
#: -50 dBFS is far below speech at any recording level (speech peaks sit around -30..-3 dBFS)
#: and above the dither/noise floor of a 16-bit silent file (about -90 dBFS).
SILENCE_DBFS = -50.0

AudioInput = Union[str, os.PathLike, np.ndarray]


@dataclass(frozen=True)
class AudioClip:
    """Decoded audio ready for an engine.

    Attributes:
        samples: mono float32 samples in [-1, 1] at :attr:`sample_rate` (16 kHz).
        sample_rate: always :data:`TARGET_SAMPLE_RATE`.
        source: the file path as given, or ``"<array>"``.
        sha256: SHA-256 of the file's bytes, or of the float32 array bytes plus the input rate
            for an array (so a cache key changes whenever the input does).
    """

    samples: np.ndarray
    sample_rate: int
    source: str
    sha256: str

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.samples) / float(self.sample_rate)

    @property
    def peak_dbfs(self) -> float:
        """Loudness of the loudest 30 ms frame in dBFS (``-inf`` for digital silence)."""
        return peak_frame_dbfs(self.samples, self.sample_rate)

    @property
    def is_silent(self) -> bool:
        """True when no 30 ms frame reaches :data:`SILENCE_DBFS`."""
        return self.peak_dbfs < SILENCE_DBFS


def file_sha256(path: str | os.PathLike, chunk_size: int = 1 << 20) -> str:
    """SHA-256 hex digest of a file's bytes, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(chunk_size), b""):
            digest.update(block)
    return digest.hexdigest()


def array_sha256(samples: np.ndarray, sample_rate: int) -> str:
    """SHA-256 of a float32 array's bytes and its sample rate."""
    digest = hashlib.sha256()
    digest.update(f"float32:{int(sample_rate)}:".encode())
    digest.update(np.ascontiguousarray(samples, dtype=np.float32).tobytes())
    return digest.hexdigest()


def peak_frame_dbfs(samples: np.ndarray, sample_rate: int, frame_seconds: float = 0.03) -> float:
    """RMS level (dBFS) of the loudest non-overlapping frame of ``frame_seconds``."""
    if samples.size == 0:
        return float("-inf")
    frame = max(1, int(sample_rate * frame_seconds))
    usable = (len(samples) // frame) * frame
    if usable == 0:
        frames = samples[np.newaxis, :]
    else:
        frames = samples[:usable].reshape(-1, frame)
    rms = np.sqrt(np.mean(np.square(frames.astype(np.float64)), axis=1))
    peak = float(rms.max())
    if peak <= 0.0:
        return float("-inf")
    return 20.0 * float(np.log10(peak))


def _decode_file(path: Path) -> np.ndarray:
    try:
        from faster_whisper.audio import decode_audio
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise AsrDependencyError(
            "decoding audio needs faster-whisper: pip install 'pytest-asrbench[asr]'"
        ) from exc
    try:
        return decode_audio(str(path), sampling_rate=TARGET_SAMPLE_RATE)
    except Exception as exc:  # PyAV raises many FFmpegError subclasses; name them all
        raise AudioError(
            f"{path}: cannot decode audio ({type(exc).__name__}: {exc}); the file is corrupt or "
            "not in a format FFmpeg reads (wav, flac, mp3, ogg ...)"
        ) from exc


def _resample_array(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """Resample a mono float32 array to 16 kHz with FFmpeg's resampler (via PyAV)."""
    import av  # a dependency of faster-whisper

    frame = av.AudioFrame.from_ndarray(samples[np.newaxis, :], format="flt", layout="mono")
    frame.sample_rate = int(sample_rate)
    resampler = av.AudioResampler(format="flt", layout="mono", rate=TARGET_SAMPLE_RATE)
    chunks = [out.to_ndarray().reshape(-1) for out in resampler.resample(frame)]
    chunks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    if not chunks:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate(chunks).astype(np.float32, copy=False)


def load_audio(audio: AudioInput, sample_rate: int | None = None) -> AudioClip:
    """Decode ``audio`` to a 16 kHz mono float32 :class:`AudioClip`.

    Args:
        audio: a path to an audio file, or a numpy array of samples. An array is mono
            ``(n,)`` or multi-channel ``(n, channels)``; integer arrays are scaled to [-1, 1].
        sample_rate: the array's sample rate in Hz (required for arrays, ignored for files).

    Raises:
        AudioError: missing/empty/corrupt/zero-length file, or a bad array; names the file.
    """
    if isinstance(audio, np.ndarray):
        return _load_array(audio, sample_rate)
    path = Path(audio)
    if not path.is_file():
        raise AudioError(f"{path}: audio file not found")
    if path.stat().st_size == 0:
        raise AudioError(f"{path}: audio file is empty (0 bytes)")
    samples = _decode_file(path)
    if samples.size == 0:
        raise AudioError(f"{path}: audio decodes to zero samples (a zero-length clip, or a corrupt file FFmpeg could not read)")
    if not np.all(np.isfinite(samples)):
        raise AudioError(f"{path}: decoded audio contains NaN or infinite samples")
    return AudioClip(
        samples=np.ascontiguousarray(samples, dtype=np.float32),
        sample_rate=TARGET_SAMPLE_RATE,
        source=str(path),
        sha256=file_sha256(path),
    )


def _load_array(samples: np.ndarray, sample_rate: int | None) -> AudioClip:
    if sample_rate is None or int(sample_rate) <= 0:
        raise AudioError("<array>: a sample_rate (Hz, > 0) is required with an array input")
    array = np.asarray(samples)
    if np.issubdtype(array.dtype, np.integer):
        scale = float(np.iinfo(array.dtype).max) + 1.0
        array = array.astype(np.float32) / scale
    else:
        array = array.astype(np.float32, copy=False)
    if array.ndim == 2:
        # (n, channels) as soundfile returns it; downmix by averaging the channels.
        array = array.mean(axis=1, dtype=np.float32)
    elif array.ndim != 1:
        raise AudioError(f"<array>: expected shape (n,) or (n, channels), got {array.shape}")
    if array.size == 0:
        raise AudioError("<array>: zero-length audio (no samples)")
    if not np.all(np.isfinite(array)):
        raise AudioError("<array>: audio contains NaN or infinite samples")
    digest = array_sha256(array, int(sample_rate))
    if int(sample_rate) != TARGET_SAMPLE_RATE:
        array = _resample_array(np.ascontiguousarray(array), int(sample_rate))
    return AudioClip(
        samples=np.ascontiguousarray(array, dtype=np.float32),
        sample_rate=TARGET_SAMPLE_RATE,
        source="<array>",
        sha256=digest,
    )
