"""What the HTML and Markdown reports add to a run of the project's own cases.

The same command, ``python -m pytest --asrbench cases -p no:cacheprovider -q`` (from the
repository root, so the recorded snapshots are compared), runs with and without
``--asrbench-report PATH --asrbench-markdown PATH``, the two alternating ``--repeat`` times
after one warm-up run (which fills the ASR hypothesis cache, so no run decodes audio);
reported: each run's wall time, the median of each side and their ratio, the time each run
with reports says it spent rendering and writing them (the plugin prints it), and the size of
the files written. The terminal summary is printed in both (it is part of every ``--asrbench``
run), so the difference is the reports' own cost: collecting nothing more, rendering and
writing two files.

    python benchmarks/report_cost.py [--repeat 3] [--workers 0] [--cases cases]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


WROTE = re.compile(r"^asrbench --asrbench-(?:report|markdown): wrote .* in ([0-9.]+) s$", re.MULTILINE)


def run(cases: str, workers: int, extra: list[str], own: list[float] | None = None) -> float:
    """Wall seconds of one pytest run; the seconds the run itself reports spending on its
    report files are added to ``own``. Raises if the run fails (a failing run measures
    nothing)."""
    command = [sys.executable, "-m", "pytest", "--asrbench", cases, "-p", "no:cacheprovider", "-q", *extra]
    if workers:
        command += ["-n", str(workers)]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the run failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    if own is not None:
        own.append(sum(float(seconds) for seconds in WROTE.findall(done.stdout)))
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (alternating)")
    parser.add_argument("--workers", type=int, default=0, help="pytest-xdist workers (0: none)")
    parser.add_argument("--cases", default="cases", help="case folder to run (relative to the repository)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        html, markdown = Path(folder, "report.html"), Path(folder, "summary.md")
        reports = ["--asrbench-report", str(html), "--asrbench-markdown", str(markdown)]
        print(f"warm-up: {run(args.cases, args.workers, []):.2f} s")
        plain, with_reports, own = [], [], []
        for index in range(args.repeat):
            plain.append(run(args.cases, args.workers, []))
            with_reports.append(run(args.cases, args.workers, reports, own))
            print(f"round {index + 1}: without {plain[-1]:.2f} s, with reports {with_reports[-1]:.2f} s")
        sizes = f"HTML {html.stat().st_size / 1024:.0f} KiB, Markdown {markdown.stat().st_size / 1024:.1f} KiB"
    base, reported = statistics.median(plain), statistics.median(with_reports)
    print(f"median without: {base:.2f} s; with --asrbench-report and --asrbench-markdown: {reported:.2f} s; "
          f"ratio {reported / base:.3f}x ({reported - base:+.2f} s); rendering and writing both files, as the "
          f"runs report it: median {statistics.median(own) * 1000:.0f} ms ({statistics.median(own) / base:.2%} of "
          f"a run); {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
