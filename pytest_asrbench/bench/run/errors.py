"""Errors of ``asrbench bench run``'s executors (kept apart from :mod:`pytest_asrbench.bench.errors`,
which the benchmark metric's signature hashes: a new run error is no change of any score)."""

from __future__ import annotations

from pytest_asrbench.bench.errors import BenchError


class ExecutorError(BenchError, RuntimeError):
    """``bench run --executor ray`` cannot run: Ray is not installed (install the
    ``distributed`` extra), the cluster cannot be reached, or a worker died more often than
    the restart budget allows (the message says which and what to do)."""
