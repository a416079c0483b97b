"""Audio input for the STT engines: decode, downmix to mono, resample to 16 kHz float32.

Files (wav, flac, mp3, ogg and anything else FFmpeg reads) are decoded with
``faster_whisper.decode_audio`` (PyAV/FFmpeg), the same decoder faster-whisper uses when it is
handed a path, so a clip gives the engine exactly the samples the bare library would see.
Arrays at another sample rate are resampled with PyAV's FFmpeg resampler.

Errors: :class:`~pytest_asrbench.asr.errors.AudioError` naming the file for a missing, empty
(0 bytes), undecodable (corrupt, cut off, or not audio at all: a text file named ``.flac``) or
zero-length (a valid header and no samples) input. :func:`probe_audio_file` and
:func:`check_audio_files` find the same faults without decoding a whole file, before a run
loads its model; :func:`load_audio` says the same of a file that decodes to no samples.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Union

from pytest_asrbench._shared.hashing import file_sha256
from pytest_asrbench.asr.errors import AudioError, require_asr_extra

if TYPE_CHECKING:  # numpy is imported where it is used: importing this module needs no extra
    import numpy as np

#: Whisper models take 16 kHz mono input.
TARGET_SAMPLE_RATE = 16_000

#: A clip whose loudest 30 ms frame is quieter than this (dBFS) is treated as silence.
#: -50 dBFS is far below speech at any recording level (speech peaks sit around -30..-3 dBFS)
#: and above the dither/noise floor of a 16-bit silent file (about -90 dBFS).
SILENCE_DBFS = -50.0

#: A clip is truncated when more than this many seconds *and* more than this fraction of the
#: length its header declares fail to decode (resampling changes a length by < 1 ms).
TRUNCATION_MIN_SECONDS = 0.1
TRUNCATION_MIN_FRACTION = 0.05

AudioInput = Union[str, os.PathLike, "np.ndarray"]

#: What to do with an audio file that cannot be used (every up-front check says it).
UNUSABLE_AUDIO_HINT = ("put a good copy of the file at that path, or remove the case or manifest row that names "
                       "it (FFmpeg reads wav, flac, mp3, ogg ...)")
#: What an undecodable file may be (said before :data:`UNUSABLE_AUDIO_HINT`).
NOT_AUDIO = "the file is corrupt, cut off, or not audio at all (a text or other file with an audio extension)"


@dataclass(frozen=True)
class AudioClip:
    """Decoded audio ready for an engine.

    Attributes:
        samples: mono float32 samples in [-1, 1] at :attr:`sample_rate` (16 kHz).
        sample_rate: always :data:`TARGET_SAMPLE_RATE`.
        source: the file path as given, or ``"<array>"``.
        sha256: SHA-256 of the file's bytes, or of the float32 array bytes plus the input rate
            for an array (so a cache key changes whenever the input does).
        declared_duration: seconds of audio the file's header says it holds (WAV ``data``
            chunk, FLAC STREAMINFO), ``None`` when the format does not say it exactly.
    """

    samples: "np.ndarray"
    sample_rate: int
    source: str
    sha256: str
    declared_duration: float | None = None

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

    @property
    def truncated(self) -> bool:
        """True when the file decodes to far less audio than its header declares (a cut-off
        download or copy): more than :data:`TRUNCATION_MIN_SECONDS` and more than
        :data:`TRUNCATION_MIN_FRACTION` of the declared length are missing."""
        if self.declared_duration is None:
            return False
        missing = self.declared_duration - self.duration
        return missing > max(TRUNCATION_MIN_SECONDS, TRUNCATION_MIN_FRACTION * self.declared_duration)


def _numpy():
    """numpy, or :class:`AsrDependencyError` saying to install the ``asr`` extra."""
    require_asr_extra(("numpy",))
    import numpy

    return numpy


def array_sha256(samples: np.ndarray, sample_rate: int) -> str:
    """SHA-256 of a float32 array's bytes and its sample rate."""
    np = _numpy()
    digest = hashlib.sha256()
    digest.update(f"float32:{int(sample_rate)}:".encode())
    digest.update(np.ascontiguousarray(samples, dtype=np.float32).tobytes())
    return digest.hexdigest()


def peak_frame_dbfs(samples: np.ndarray, sample_rate: int, frame_seconds: float = 0.03) -> float:
    """RMS level (dBFS) of the loudest non-overlapping frame of ``frame_seconds``."""
    np = _numpy()
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
    require_asr_extra()
    import av
    from faster_whisper.audio import decode_audio

    try:
        return decode_audio(str(path), sampling_rate=TARGET_SAMPLE_RATE)
    except (av.FFmpegError, OSError, ValueError, IndexError) as exc:
        # PyAV's FFmpegError subclasses (InvalidDataError ...), a file it cannot open (OSError),
        # a stream it cannot resample (ValueError), a container with no audio stream (IndexError)
        # the probe names the fault in the container's terms (no audio stream, no parameters)
        problem = _audio_problem(path) or (f"{path}: not decodable audio: FFmpeg cannot read it "
                                           f"({type(exc).__name__}: {exc}); {NOT_AUDIO}")
        raise AudioError(f"{problem}; {UNUSABLE_AUDIO_HINT}") from exc


def declared_duration(path: str | os.PathLike) -> float | None:
    """Seconds of audio a file's header declares, read from its first bytes, or ``None``.

    Only headers that state an exact length count: a WAV ``data`` chunk of PCM, float or
    G.711 audio (size / block align / rate), and FLAC STREAMINFO (total samples / rate).
    FFmpeg decodes a truncated file of either without complaint, so this is how a cut-off
    clip is noticed. MP3, Ogg and other formats give only estimates: ``None`` (not checked).
    A header that says "unknown length" (streamed WAV, FLAC total 0) also gives ``None``.
    """
    try:
        with open(path, "rb") as handle:
            head = handle.read(1 << 16)
    except OSError:
        return None
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return _wav_declared_duration(head)
    if head[:3] == b"ID3" and len(head) >= 10:  # an ID3v2 tag before the FLAC stream
        size = (head[6] << 21) | (head[7] << 14) | (head[8] << 7) | head[9]
        head = head[10 + size:]
    if head[:4] == b"fLaC":
        return _flac_declared_duration(head)
    return None


def _wav_declared_duration(head: bytes) -> float | None:
    import struct

    position, block_align, rate, fmt_ok = 12, 0, 0, False
    while position + 8 <= len(head):
        chunk, size = head[position:position + 4], struct.unpack("<I", head[position + 4:position + 8])[0]
        body = position + 8
        if chunk == b"fmt " and size >= 16 and body + 16 <= len(head):
            code, _channels, rate, _byte_rate, block_align = struct.unpack("<HHIIH", head[body:body + 14])
            fmt_ok = code in (1, 3, 6, 7, 0xFFFE)  # PCM, float, A-law, mu-law, extensible
        elif chunk == b"data":
            if not fmt_ok or not block_align or not rate or size in (0, 0xFFFFFFFF):
                return None
            return size / block_align / rate
        position = body + size + (size & 1)
    return None


def _flac_declared_duration(head: bytes) -> float | None:
    # fLaC, then the STREAMINFO block (header 4 bytes, body 34): sample rate 20 bits,
    # channels 3, bits per sample 5, total samples 36 (RFC 9639, section 8.2)
    if len(head) < 8 + 18 or head[4] & 0x7F != 0:
        return None
    info = int.from_bytes(head[8 + 10:8 + 18], "big")
    rate = info >> 44
    total = info & ((1 << 36) - 1)
    if not rate or not total:
        return None
    return total / rate


def _resample_array(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """Resample a mono float32 array to 16 kHz with FFmpeg's resampler (via PyAV)."""
    np = _numpy()
    import av  # a dependency of faster-whisper

    frame = av.AudioFrame.from_ndarray(samples[np.newaxis, :], format="flt", layout="mono")
    frame.sample_rate = int(sample_rate)
    resampler = av.AudioResampler(format="flt", layout="mono", rate=TARGET_SAMPLE_RATE)
    chunks = [out.to_ndarray().reshape(-1) for out in resampler.resample(frame)]
    chunks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    if not chunks:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate(chunks).astype(np.float32, copy=False)



def check_audio_file(path: Path) -> None:
    """Check what can be checked of an audio file without decoding it (nothing heavy is
    imported): it exists, is a file, and is not empty.

    Raises:
        AudioError: a folder, a missing file or an empty one; names the file.
    """
    if path.is_dir():
        raise AudioError(f"{path}: is a directory, not an audio file")
    if not path.is_file():
        raise AudioError(f"{path}: audio file not found")
    if path.stat().st_size == 0:
        raise AudioError(f"{path}: audio file is empty (0 bytes)")


#: Files named in one :func:`check_audio_files` error, at most (the rest are counted).
MAX_LISTED_FILES = 20


def probe_audio_file(path: str | os.PathLike) -> None:
    """Check that an audio file can be decoded, without decoding it: it exists, is a file, is
    not empty, can be read, and FFmpeg (through PyAV, the decoder :func:`load_audio` uses)
    opens it, finds an audio stream and decodes its first audio frame. The rest of the file
    is not decoded (milliseconds a file), so this runs before any model loads.

    Undecodable and zero-length are told apart: a file is not decodable audio when FFmpeg
    cannot open it, finds no audio stream in it, finds an audio stream without a sample rate or
    channels (a text file named ``.flac``: FFmpeg picks the demuxer by the extension and the
    FLAC demuxer takes any bytes), cannot decode its first frame, or decodes no frame although
    the header declares a length (cut off or corrupt); a zero-length clip is a file whose header
    states the sample rate and channels, and no samples.

    Raises:
        AudioError: the file is missing, a folder, empty, unreadable, not decodable audio (the
            container's error or finding named, and :data:`NOT_AUDIO`), or a zero-length clip;
            the message names the file and says what to do (:data:`UNUSABLE_AUDIO_HINT`).
        AsrDependencyError: PyAV (the ``asr`` extra) is not installed.
    """
    problem = _audio_problem(Path(path))
    if problem is not None:
        raise AudioError(f"{problem}; {UNUSABLE_AUDIO_HINT}")


def check_audio_files(paths) -> None:
    """:func:`probe_audio_file` on every path (each file once, in order), as one error naming
    every file that fails: the check a run makes before it loads a model, so a bad file costs
    no model load and no decoded clip.

    Raises:
        AudioError: one line per unusable file (at most :data:`MAX_LISTED_FILES`, then a count)
            and what to do.
        AsrDependencyError: PyAV is not installed.
    """
    problems = [found for found in (_audio_problem(path) for path in dict.fromkeys(Path(p) for p in paths))
                if found is not None]
    if len(problems) == 1:
        raise AudioError(f"{problems[0]}; {UNUSABLE_AUDIO_HINT}")
    if problems:
        listed = problems[:MAX_LISTED_FILES]
        more = f"\n  ... and {len(problems) - len(listed)} more" if len(problems) > len(listed) else ""
        raise AudioError(f"{len(problems)} audio files cannot be used:\n  " + "\n  ".join(listed) + more
                         + f"\nfor each: {UNUSABLE_AUDIO_HINT}")


def _audio_problem(path: Path) -> str | None:
    """``"<path>: <what is wrong>"`` for an audio file :func:`probe_audio_file` refuses, else ``None``."""
    try:
        check_audio_file(path)
        with open(path, "rb") as handle:
            handle.read(1)
    except AudioError as exc:
        return str(exc)
    except OSError as exc:
        return f"{path}: cannot read the audio file ({exc.strerror or exc})"
    require_asr_extra(("av",))
    import av

    try:
        with av.open(str(path), metadata_errors="ignore") as container:
            return _container_problem(path, container)
    except (av.error.FFmpegError, OSError, ValueError) as exc:  # PyAV's errors subclass these
        return f"{path}: not decodable audio: FFmpeg cannot read it ({type(exc).__name__}: {exc}); {NOT_AUDIO}"


def _container_problem(path: Path, container) -> str | None:
    """What :func:`_audio_problem` finds in a file FFmpeg opened (``container``), else ``None``."""
    import av

    kind = container.format.name
    if not container.streams.audio:
        return f"{path}: not decodable audio: FFmpeg reads it as {kind} with no audio stream; {NOT_AUDIO}"
    stream = container.streams.audio[0]
    rate, channels = stream.sample_rate or 0, stream.codec_context.channels or 0
    if not rate or not channels:
        return (f"{path}: not decodable audio: FFmpeg's {kind} demuxer finds no audio parameters in it ({rate} Hz, "
                f"{channels} channels); {NOT_AUDIO}")
    if next(container.decode(audio=0), None) is not None:
        return None
    declared = declared_duration(path)
    if declared is None and container.duration:
        declared = container.duration / av.time_base  # FFmpeg's estimate from the header or bit rate
    if declared:
        return (f"{path}: not decodable audio: its {kind} header declares {declared:.2f} s but not one audio frame "
                f"decodes; {NOT_AUDIO}")
    return f"{path}: holds no audio frame (a zero-length clip: a {kind} header of {rate} Hz, {channels} channel(s) and no samples)"


def load_audio(audio: AudioInput, sample_rate: int | None = None) -> AudioClip:
    """Decode ``audio`` to a 16 kHz mono float32 :class:`AudioClip`.

    Args:
        audio: a path to an audio file, or a numpy array of samples. An array is mono
            ``(n,)`` or multi-channel ``(n, channels)``; integer arrays are scaled to [-1, 1].
        sample_rate: the array's sample rate in Hz (required for arrays, ignored for files).

    Raises:
        AudioError: a missing, empty or undecodable file, a zero-length clip (told apart as
            :func:`probe_audio_file` tells them), or a bad array; names the file.
    """
    np = _numpy()
    if isinstance(audio, np.ndarray):
        return _load_array(audio, sample_rate)
    path = Path(audio)
    check_audio_file(path)
    samples = _decode_file(path)
    if samples.size == 0:  # not audio, cut off, or a zero-length clip: the probe tells which
        problem = _audio_problem(path) or f"{path}: audio decodes to zero samples"
        raise AudioError(f"{problem}; {UNUSABLE_AUDIO_HINT}")
    if not np.all(np.isfinite(samples)):
        raise AudioError(f"{path}: decoded audio contains NaN or infinite samples")
    return AudioClip(
        samples=np.ascontiguousarray(samples, dtype=np.float32),
        sample_rate=TARGET_SAMPLE_RATE,
        source=str(path),
        sha256=file_sha256(path),
        declared_duration=declared_duration(path),
    )


def _load_array(samples: np.ndarray, sample_rate: int | None) -> AudioClip:
    np = _numpy()
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
