"""The executor seam of ``asrbench bench run``: what the runner hands an executor, what it gets
back, and the one function that decodes a clip (every executor calls it, so a clip's transcript
cannot depend on where it was decoded).

The runner asks an executor for the transcripts of a list of :class:`ClipJob` (the manifest's
included rows, in manifest order) and receives one :class:`Decoded` per job, in the same order.
Two implementations: :mod:`.local` (this process, one engine) and :mod:`.ray_pool` (a pool of
Ray actors, one engine each).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Protocol

from pytest_asrbench.asr.cache import HypothesisCache, transcribe_with_cache
from pytest_asrbench.asr.engine import SttEngine, Transcript, create_engine
from pytest_asrbench.asr.run_record import peak_rss_bytes
from pytest_asrbench.bench.run.measure import Stopwatch

if TYPE_CHECKING:
    from pytest_asrbench.bench.run.settings import RunSettings

@dataclass(frozen=True)
class ClipJob:
    """One clip to decode: its position in the manifest's included rows, row id, audio file and
    the run's forced language."""

    index: int
    id: str
    audio_path: Path
    language: str


@dataclass(frozen=True)
class WorkerReport:
    """One decoding process: its cold model load (wall and CPU seconds) and peak RSS in bytes."""

    pid: int
    load_seconds: float | None
    load_cpu_seconds: float
    peak_rss_bytes: int | None

    def process_entry(self) -> dict:
        """This process as the record's ``executor.worker_processes`` lists it."""
        return {"pid": self.pid, "load_seconds": self.load_seconds, "peak_rss_bytes": self.peak_rss_bytes}


@dataclass(frozen=True)
class Decoded:
    """The result of one :class:`ClipJob`.

    Attributes:
        index, id: the job's.
        transcript: what the engine wrote (or the hypothesis cache held).
        latency_seconds: wall seconds of audio decoding + transcription (``None`` when the
            transcript came from the hypothesis cache).
        cpu_seconds: CPU core-seconds the decoding process spent on this clip (0 for a cache hit).
        cached: the transcript came from the hypothesis cache.
        worker: the process that decoded it, its peak RSS as of this clip.
    """

    index: int
    id: str
    transcript: Transcript
    latency_seconds: float | None
    cpu_seconds: float
    cached: bool
    worker: WorkerReport


def engine_settings(settings: RunSettings) -> dict:
    """The engine keyword arguments of a run (``batch_size`` and ``device`` only when not at
    their default, so an engine that lacks them still runs a default run; word timestamps
    only when asked)."""
    values: dict = {"model": settings.model, "cpu_threads": settings.threads, "beam_size": settings.beam_size,
                    "compute_type": settings.compute_type}
    if settings.batch_size != 1:
        values["batch_size"] = settings.batch_size
    if settings.device != "cpu":
        values["device"] = settings.device
    if settings.word_timestamps:
        values["transcribe_options"] = {"word_timestamps": True}
    return values


def build_engine(settings: RunSettings) -> SttEngine:
    """The engine a run's settings ask for (not loaded). Every executor builds its engines
    here, from the same settings object, so a setting added to the run reaches every worker."""
    return create_engine(settings.engine, **engine_settings(settings))


def load_engine(engine: SttEngine) -> WorkerReport:
    """Load ``engine``'s model now (an engine without ``load`` loads on its first clip, and
    then its load time is unknown: ``None``)."""
    with Stopwatch() as load:
        if hasattr(engine, "load"):
            engine.load()
    return WorkerReport(os.getpid(), round(load.wall, 4) if hasattr(engine, "load") else None,
                        round(load.cpu, 4), peak_rss_bytes())


def decode_clip(engine: SttEngine, job: ClipJob, cache: HypothesisCache, loaded: WorkerReport) -> Decoded:
    """Decode ``job`` with ``engine`` through ``cache`` (a disabled cache decodes every clip)
    in the job's forced language; ``loaded`` is this process's :func:`load_engine`
    report, returned with the peak RSS as of this clip.

    Raises:
        AudioError: the clip's audio cannot be decoded (names the file).
    """
    with Stopwatch() as one:
        run = transcribe_with_cache(engine, job.audio_path, job.language, cache)
    return Decoded(job.index, job.id, run.transcript, run.latency_seconds, 0.0 if run.cached else one.cpu,
                   run.cached, replace(loaded, peak_rss_bytes=peak_rss_bytes()))


class Executor(Protocol):
    """Where a run's clips are decoded.

    Use: ``start`` (engines created and loaded; raises what loading raises), then ``transcribe``
    once, then ``workers``, ``model_files`` and ``section`` for the record, then ``close``
    (always, also after an error).

    Attributes:
        name: ``local`` or ``ray``.
        engine: an engine of the run's settings in this process, for the record's identity
            and provenance (set by ``start``; loaded only by the local executor).
        model_files: the files of the model the workers loaded (the engine's ``model_files``,
            ``None`` for an engine that has none).
    """

    name: str
    engine: SttEngine | None
    model_files: object | None

    def start(self, settings: RunSettings, engine: SttEngine | None, cache: HypothesisCache) -> None: ...

    def transcribe(self, jobs: list[ClipJob]) -> Iterator[Decoded]:
        """One :class:`Decoded` per job, in the order of ``jobs``, as they become available."""
        ...

    def workers(self) -> list[WorkerReport]:
        """The decoding processes that loaded a model in this run (a restarted worker counts again)."""
        ...

    def section(self) -> dict:
        """The record's ``executor`` section (see ``record.schema.json``)."""
        ...

    def close(self) -> None: ...
