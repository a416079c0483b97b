"""How many CPUs this process may use, and the default number of engine threads.

``os.cpu_count()`` counts the machine's CPUs, not the ones a process may run on: in a
container or under ``taskset`` it can say 64 where 2 are usable, and more decoding threads
than usable CPUs only make them wait for each other. The usable count is the CPU affinity
(``os.process_cpu_count`` on Python 3.13+, ``os.sched_getaffinity`` on Linux), further
limited by a cgroup v2 CPU quota (``/sys/fs/cgroup/cpu.max``, ``quota period``) when one is
set.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

#: The most threads a default engine uses: CTranslate2's CPU decoding of Whisper ``base``
#: gains little past 4 intra-op threads, and a CI runner shares its CPUs with other jobs.
DEFAULT_THREAD_CAP = 4
#: The cgroup v2 file that holds a CPU quota (``max 100000`` when there is none).
CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def _quota_cpus(path: Path = CGROUP_CPU_MAX) -> int | None:
    """The CPUs a cgroup v2 quota allows (rounded up), or ``None`` without a readable quota."""
    try:
        quota, period = path.read_text(encoding="ascii").split()[:2]
        if quota == "max":
            return None
        return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        return None


def usable_cpus(cgroup_cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """The number of CPUs this process may run on (at least 1): its affinity, limited by a
    cgroup v2 quota read from ``cgroup_cpu_max``."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        count = os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        count = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - macOS, Windows before 3.13
        count = os.cpu_count()
    count = max(1, count or 1)
    quota = _quota_cpus(cgroup_cpu_max)
    return min(count, quota) if quota else count


def default_threads() -> int:
    """Engine threads when none are asked for: the usable CPUs, at most :data:`DEFAULT_THREAD_CAP`."""
    return min(usable_cpus(), DEFAULT_THREAD_CAP)
