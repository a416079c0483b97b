"""Cost figures of a run: wall time, CPU core-seconds, latency percentiles, real-time factor.

- wall time: ``time.perf_counter`` around each ``engine.transcribe`` call (audio decoding
  included: it is part of what a user waits for);
- CPU core-seconds: user + system time of this process (every thread) from
  ``resource.getrusage(RUSAGE_SELF)`` (``os.times`` where ``resource`` is missing), summed
  over the decode loop: with 4 threads busy for 1 s it is ~4;
- p50/p95: percentiles with linear interpolation between order statistics (numpy's default);
- real-time factor: summed latency / summed audio seconds (< 1: faster than real time).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


def cpu_seconds() -> float:
    """User + system CPU seconds of this process so far (all threads)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        times = os.times()
        return times.user + times.system
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Stopwatch:
    """Wall and CPU time of one stretch of work: ``with Stopwatch() as watch: ...``."""

    wall: float = 0.0
    cpu: float = 0.0

    def __enter__(self) -> Stopwatch:
        self._wall, self._cpu = time.perf_counter(), cpu_seconds()
        return self

    def __exit__(self, *exc_info) -> None:
        self.wall = time.perf_counter() - self._wall
        self.cpu = cpu_seconds() - self._cpu


def real_time_factor(latencies: list[float], audio_seconds: float) -> float | None:
    """Summed latency / summed audio seconds; ``None`` without audio."""
    return sum(latencies) / audio_seconds if audio_seconds > 0 else None
