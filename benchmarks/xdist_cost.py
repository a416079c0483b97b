"""`pytest --asrbench cases` serially against `-n 2` (pytest-xdist), and collection alone, side by side.

Runs the three commands in alternating rounds (``--rounds``, default 3) and prints, for each,
the median wall time and the median CPU time of the whole process tree (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)``), and the serial run's share spent before the first
case runs (the collection-only command). With ``-n 2`` every worker starts its own Python,
imports the plugin and collects every case file again, so the CPU time of start-up and
collection is paid once per worker plus the controller; a parallel run only wins the wall
clock back when the cases' own work, halved, outweighs that, and only on cores nobody else
is using (the load average is printed).

    python benchmarks/xdist_cost.py [--rounds 3] [--path cases]

Warm the ASR cache and the bytecode caches first (one run of each command): a run under
``PYTHONDONTWRITEBYTECODE=1`` compiles and assertion-rewrites every module of the package in
every process, every time (``--no-bytecode`` measures that setting).

Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process tree, exit code) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; each figure is their median")
    parser.add_argument("--path", default="cases", help="what to run (default: the shipped cases)")
    parser.add_argument("--no-bytecode", action="store_true", help="run with PYTHONDONTWRITEBYTECODE=1")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    base = [sys.executable, "-m", "pytest", "--asrbench", args.path, "-q", "-p", "no:cacheprovider"]
    commands = {"serial": base, "-n 2": [*base, "-n", "2"], "collect only": [*base, "--collect-only"]}
    print(f"{' '.join(base[2:])}: {args.rounds} alternating rounds; load average at start {load()}; "
          f"bytecode cache {'off' if args.no_bytecode else 'on'}")
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for round_index in range(args.rounds):
        for name in names if round_index % 2 == 0 else names[::-1]:
            wall, cpu, code = timed(commands[name], env)
            if code not in (0, 1):
                print(f"{name}: pytest exited {code}", file=sys.stderr)
                return 2
            walls[name].append(wall)
            cpus[name].append(cpu)
    wall = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    for name in names:
        print(f"  {name:<13} wall {wall[name]:7.2f} s   CPU {cpu[name]:7.2f} s")
    print(f"  -n 2 / serial: wall {wall['-n 2'] / wall['serial']:.2f}x, CPU {cpu['-n 2'] / cpu['serial']:.2f}x; "
          f"collection and start-up {cpu['collect only'] / cpu['serial']:.0%} of the serial run's CPU")
    print(f"load average at end {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
