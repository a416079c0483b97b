"""Where ``asrbench bench run`` decodes its clips: the executor seam (:mod:`.base`), this
process (:mod:`.local`) or a pool of Ray actors (:mod:`.ray_pool`, the ``distributed`` extra)."""

from __future__ import annotations

from pytest_asrbench.bench.run.executors.base import ClipJob, Decoded, Executor, WorkerReport, build_engine

EXECUTORS = ("local", "ray")

__all__ = ["EXECUTORS", "ClipJob", "Decoded", "Executor", "WorkerReport", "build_engine", "executor_for"]


def executor_for(name: str, *, workers: int | None = None, address: str | None = None) -> Executor:
    """The executor ``name`` (one of :data:`EXECUTORS`).

    Raises:
        InputError: an unknown name, or ``workers``/``address`` given to the local executor
            (it has one worker in this process).
    """
    from pytest_asrbench.errors import InputError

    if name == "local":
        if address is not None or (workers is not None and workers != 1):
            raise InputError("--workers and --ray-address apply to --executor ray; the local executor decodes "
                             "in this process with one engine")
        from pytest_asrbench.bench.run.executors.local import LocalExecutor

        return LocalExecutor()
    if name == "ray":
        from pytest_asrbench.bench.run.executors.ray_pool import RayExecutor

        return RayExecutor(workers if workers is not None else 2, address)
    raise InputError(f"--executor {name!r}: use one of {', '.join(EXECUTORS)}")
