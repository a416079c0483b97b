"""The Ray executor: the manifest's clips spread over a pool of Ray actors, each holding one
engine loaded once.

Ray does the scheduling, transport and recovery; this module only configures it:

- one actor per worker (:class:`ClipWorker`), requesting ``num_gpus=1`` when the engine's
  device is ``cuda`` and ``num_cpus`` = the engine's threads otherwise
  (:func:`actor_resources`);
- ``ray.util.ActorPool.map`` hands each idle actor the next clip and yields the results in
  the order of the jobs (manifest order) as they arrive;
- a worker that dies is restarted by Ray (``max_restarts``) and the call it was running is
  resubmitted (``max_task_retries``), so every clip is decoded and returned exactly once;
  a worker that dies more often than that fails the run with :class:`ExecutorError`;
- every actor decodes through the same :func:`~.base.decode_clip` and the hypothesis cache
  folder of the driver (on one host, or a folder every node mounts at the same path).

Without an address a local Ray is started for the run (``num_cpus`` = workers x threads, no
dashboard, its temporary folder under the system's temporary folder) and shut down after it.
Ray is imported here only inside functions: it is the optional ``distributed`` extra.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from typing import TYPE_CHECKING, Iterator

from pytest_asrbench.bench.run.errors import ExecutorError
from pytest_asrbench.bench.run.executors.base import (
    ClipJob, Decoded, WorkerReport, build_engine, decode_clip, load_engine)

if TYPE_CHECKING:
    from pytest_asrbench.asr.cache import HypothesisCache
    from pytest_asrbench.asr.engine import SttEngine
    from pytest_asrbench.bench.run.settings import RunSettings

#: Restarts Ray grants each worker actor, and resubmissions of the call a dead worker was running.
MAX_RESTARTS = 3
MAX_TASK_RETRIES = 3
#: The object store of a local Ray started for a run (bytes): transcripts are small.
LOCAL_OBJECT_STORE_BYTES = 128 * 1024 * 1024
INSTALL = "install the distributed extra: pip install 'pytest-asrbench[distributed]'"


def actor_resources(device: str | None, threads: int) -> dict:
    """What each worker actor asks Ray for: ``{"num_gpus": 1, "num_cpus": 1}`` on a ``cuda``
    engine (the GPU decodes; one CPU feeds it), ``{"num_cpus": threads}`` otherwise."""
    if device == "cuda":
        return {"num_gpus": 1, "num_cpus": 1}
    return {"num_cpus": threads}


class ClipWorker:
    """A Ray actor's state: the engine (built from the run's settings and loaded once, again
    after a restart) and the hypothesis cache."""

    def __init__(self, settings: RunSettings, cache_root: str, use_cache: bool):
        from pytest_asrbench.asr.cache import HypothesisCache

        self.engine = build_engine(settings)
        self.cache = HypothesisCache(cache_root, enabled=use_cache)
        self.report = load_engine(self.engine)

    def ready(self) -> tuple[WorkerReport, object | None]:
        """This worker's load report and the files of the model it loaded."""
        return self.report, getattr(self.engine, "model_files", None)

    def decode(self, job: ClipJob) -> Decoded:
        decoded = decode_clip(self.engine, job, self.cache, self.report)
        self.report = decoded.worker
        return decoded


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise ExecutorError(f"--executor ray needs Ray ({exc}); {INSTALL}") from None
    return ray


@contextlib.contextmanager
def _worker_errors():
    """A worker's own error (bad audio, a missing model) is raised as itself; a worker that
    died past its restart budget is an :class:`ExecutorError`."""
    from ray.exceptions import ActorDiedError, RayTaskError

    try:
        yield
    except RayTaskError as exc:
        raise exc.cause from None
    except ActorDiedError as exc:
        raise ExecutorError(f"a ray worker died more than {MAX_RESTARTS} times, the last time: {exc}; "
                            "the run is incomplete and no record was written") from None


#: Seconds to wait for a cluster's address to accept a connection before saying it cannot.
REACH_TIMEOUT_SECONDS = 5.0


def cluster_endpoint(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``--ray-address`` (``HOST:PORT`` or ``ray://HOST:PORT``); ``None``
    for ``auto`` (Ray finds the cluster this machine started).

    Raises:
        InputError: the address is neither form.
    """
    from pytest_asrbench.errors import InputError

    if address == "auto":
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(f"--ray-address {address!r}: give HOST:PORT (the address `ray start --head` printed, "
                         "e.g. 127.0.0.1:6379), ray://HOST:PORT, or auto")
    return host.strip("[]"), int(port)


def require_reachable(address: str, timeout: float = REACH_TIMEOUT_SECONDS) -> None:
    """Fail at once when nothing accepts a connection at ``address`` (Ray itself would retry
    for minutes).

    Raises:
        InputError: the address is malformed (:func:`cluster_endpoint`).
        ExecutorError: no connection within ``timeout`` seconds.
    """
    import socket

    endpoint = cluster_endpoint(address)
    if endpoint is None:
        return
    try:
        socket.create_connection(endpoint, timeout=timeout).close()
    except OSError as exc:
        raise ExecutorError(f"--ray-address {address}: nothing accepts a connection at {endpoint[0]}:{endpoint[1]} "
                            f"({exc}); start the cluster (`ray start --head`) and give the address it printed, "
                            "or leave the option out to start a local Ray") from None


class RayExecutor:
    """Decode on ``workers`` Ray actors, on the cluster at ``address`` or a local one.

    Raises (from :meth:`start` and :meth:`transcribe`):
        ExecutorError: Ray is not installed, the cluster cannot be reached, or a worker died
            more than :data:`MAX_RESTARTS` times.
        AsrbenchError subclasses: what loading the engine or decoding a clip raised in a worker.
    """

    name = "ray"

    def __init__(self, workers: int, address: str | None = None):
        if workers < 1:
            from pytest_asrbench.errors import InputError

            raise InputError(f"--workers {workers}: give at least 1 worker")
        if address is not None:
            cluster_endpoint(address)  # InputError: a malformed address, before any work
        self.workers_requested = workers
        self.address = address
        self.actors: list = []
        self.engine: SttEngine | None = None
        self.model_files = None
        self._started_ray = False
        self._temp_dir: str | None = None
        self._reports: dict[int, WorkerReport] = {}
        self._resources: dict | None = None
        self._threads: int | None = None

    def start(self, settings: RunSettings, engine: SttEngine | None, cache: HypothesisCache) -> None:
        ray = _ray()
        if engine is not None:
            from pytest_asrbench.errors import InputError

            raise InputError("the ray executor builds each worker's engine from the run's settings; "
                             "run a given engine object with the local executor")
        self.engine = build_engine(settings)
        device = self.engine.identity().get("decode", {}).get("device")
        self._threads = settings.threads
        self._resources = actor_resources(device, settings.threads)
        if not ray.is_initialized():
            self._init(ray, settings.threads)
        remote = ray.remote(ClipWorker).options(max_restarts=MAX_RESTARTS, max_task_retries=MAX_TASK_RETRIES,
                                                **self._resources)
        self.actors = [remote.remote(settings, str(cache.root), cache.enabled)
                       for _ in range(self.workers_requested)]
        for report, files in self._get(ray, [actor.ready.remote() for actor in self.actors]):
            self._reports[report.pid] = report
            self.model_files = files

    def _init(self, ray, threads: int) -> None:
        if self.address is None:
            self._temp_dir = tempfile.mkdtemp(prefix="asrbench-ray-")
            ray.init(num_cpus=self.workers_requested * threads, include_dashboard=False,
                     object_store_memory=LOCAL_OBJECT_STORE_BYTES, _temp_dir=self._temp_dir,
                     log_to_driver=False, configure_logging=False)
        else:
            require_reachable(self.address)
            try:
                ray.init(address=self.address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError) as exc:
                raise ExecutorError(f"--ray-address {self.address}: cannot join that Ray cluster ({exc}); "
                                    "give the address `ray start --head` printed, or leave the option out "
                                    "to start a local Ray") from None
        self._started_ray = True

    @staticmethod
    def _get(ray, refs):
        with _worker_errors():
            return ray.get(refs)

    def transcribe(self, jobs: list[ClipJob]) -> Iterator[Decoded]:
        from ray.util import ActorPool

        pool = ActorPool(self.actors)
        results = pool.map(lambda actor, job: actor.decode.remote(job), jobs)
        while True:
            with _worker_errors():
                decoded = next(results, None)
            if decoded is None:
                return
            self._reports[decoded.worker.pid] = decoded.worker
            yield decoded

    def workers(self) -> list[WorkerReport]:
        return list(self._reports.values())

    def section(self) -> dict:
        from pytest_asrbench._shared.versions import installed_version

        return {"name": self.name, "address": self.address or "local", "library": {"ray": installed_version("ray")},
                "workers": self.workers_requested, "threads_per_worker": self._threads,
                "resources_per_worker": self._resources, "max_restarts": MAX_RESTARTS,
                "max_task_retries": MAX_TASK_RETRIES,
                "worker_processes": [report.process_entry() for report in self.workers()]}

    def close(self) -> None:
        if not (self.actors or self._started_ray or self._temp_dir):
            return  # nothing was started (Ray missing, or bad options)
        ray = _ray()
        for actor in self.actors:
            ray.kill(actor, no_restart=True)
        self.actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir)
            self._temp_dir = None
