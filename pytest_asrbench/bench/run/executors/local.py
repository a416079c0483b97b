"""The local executor: one engine in this process decodes every clip in manifest order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from pytest_asrbench.bench.run.executors.base import ClipJob, Decoded, WorkerReport, build_engine, decode_clip, load_engine

if TYPE_CHECKING:
    from pytest_asrbench.asr.cache import HypothesisCache
    from pytest_asrbench.asr.engine import SttEngine
    from pytest_asrbench.bench.run.settings import RunSettings


class LocalExecutor:
    """Decode in this process with one engine (the run's, or one built from its settings)."""

    name = "local"

    def __init__(self) -> None:
        self.engine: SttEngine | None = None
        self._cache: HypothesisCache | None = None
        self._report: WorkerReport | None = None
        self._threads: int | None = None

    def start(self, settings: RunSettings, engine: SttEngine | None, cache: HypothesisCache) -> None:
        self.engine = engine if engine is not None else build_engine(settings)
        self._cache = cache
        self._threads = settings.threads
        self._report = load_engine(self.engine)

    def transcribe(self, jobs: list[ClipJob]) -> Iterator[Decoded]:
        for job in jobs:
            decoded = decode_clip(self.engine, job, self._cache, self._report)
            self._report = decoded.worker
            yield decoded

    @property
    def model_files(self):
        return getattr(self.engine, "model_files", None)

    def workers(self) -> list[WorkerReport]:
        return [self._report] if self._report is not None else []

    def section(self) -> dict:
        return {"name": self.name, "address": None, "library": None, "workers": 1,
                "threads_per_worker": self._threads, "resources_per_worker": None,
                "max_restarts": None, "max_task_retries": None,
                "worker_processes": [report.process_entry() for report in self.workers()]}

    def close(self) -> None:
        return None
