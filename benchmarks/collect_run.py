"""Per-item cost of `pytest --asrbench` against plain pytest doing the same work, side by side.

Builds, in a temporary folder, ``--cases`` `equal` cases (YAML files of 100 cases each,
English text variants: plain, upper case with "!", no-break spaces, capitalized with double
spaces and a full stop) and two plain test modules:

- ``test_plain.py``: one parametrized test per case over the same texts, doing the same
  normalization work (the English normalizer on every text, all forms equal) as a project
  would write it without the plugin;
- ``test_floor.py``: as many trivial parametrized tests, run with ``-p no:asrbench``:
  pytest's own per-item cost (the floor no plugin can go under).

The case snapshots are recorded once (``--snapshot-update``). Then every command runs once
per round, ``--repeat`` alternating rounds (the order reversed every other round, so load
drift hits each side alike), each in a fresh ``python -m pytest`` process:

- ``cases``: ``pytest --asrbench cases``; ``plain``: ``pytest test_plain.py``;
  ``floor``: ``pytest -p no:asrbench test_floor.py``;
- the same three with ``--collect-only``: collection alone, so the item count's effect on
  collection is seen apart from running.

Printed: the median wall time and CPU time (user + system of the pytest process) of each,
in ms per item, and the ratios ``cases / plain`` (the target: at most 1.5x) and ``cases /
floor``, on CPU time (on a shared machine the wall clock follows the scheduler) and wall
time; the load average before and after (compare only figures of one run). ``--before DIR``
adds the cases run with another checkout's package (``git archive HEAD pytest_asrbench
configs | tar -x -C DIR``), alternating with this one, for a before/after figure.

    python benchmarks/collect_run.py [--cases 10000] [--repeat 5] [--keep DIR] [--before DIR]

Bytecode: every pytest process of every arm reads and writes compiled modules in one cache
folder of the project (``PYTHONPYCACHEPREFIX``; ``PYTHONDONTWRITEBYTECODE`` is removed from
the children's environment, where it would make each process compile every module it
imports again, a fixed cost that hides the per-item figures), and one unmeasured warm-up
round runs every arm first, so each arm starts its measured rounds with its modules (this
checkout's or ``--before``'s, the libraries' and pytest's) compiled: no arm pays for
compiling what another arm compiled.

``--keep DIR`` builds the project in ``DIR`` (it must not exist) and leaves it there, to
profile one command by hand, e.g. ``cd DIR && python -m cProfile -o cases.prof -m pytest
--asrbench cases -q -p no:cacheprovider``.

Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ["flight", "booking", "seven", "account", "password", "manager", "network", "today", "tomorrow",
         "please", "check", "the", "my", "is", "at", "for", "order", "number", "delivery", "address"]
PER_FILE = 100


def variants(rng: random.Random) -> list[str]:
    """Four spellings of one random English phrase that normalize alike."""
    words = rng.sample(WORDS, k=rng.randint(3, 8))
    plain = " ".join(words)
    return [plain, plain.upper() + "!", "\u00a0".join(words), "  ".join(w.capitalize() for w in words) + "."]


def _quoted(text: str) -> str:
    return '"' + text.replace("\u00a0", "\\u00a0") + '"'


def write_project(folder: Path, total: int) -> None:
    """The case files, the two plain modules and a ``pytest.ini`` in ``folder``."""
    rng = random.Random(2026)
    texts = [variants(rng) for _ in range(total)]
    cases_dir = folder / "cases" / "en"
    cases_dir.mkdir(parents=True)
    for start in range(0, total, PER_FILE):
        lines = ["language: en", "cases:"]
        for index in range(start, min(total, start + PER_FILE)):
            lines += [f"  - id: case-{index}", "    kind: equal",
                      f"    texts: [{', '.join(_quoted(text) for text in texts[index])}]"]
        (cases_dir / f"bench_{start // PER_FILE:03d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = ",\n".join(f"    [{', '.join(_quoted(text) for text in four)}]" for four in texts)
    (folder / "test_plain.py").write_text(
        "import pytest\n\n"
        "from pytest_asrbench.normalize.registry import get_normalizer\n\n"
        f"TEXTS = [\n{rows},\n]\n\n\n"
        "@pytest.mark.parametrize('texts', TEXTS, ids=[f'case-{index}' for index in range(len(TEXTS))])\n"
        "def test_equal(texts):\n"
        "    normalize = get_normalizer('en')\n"
        "    forms = [normalize(text) for text in texts]\n"
        "    assert len(set(forms)) == 1, forms\n",
        encoding="utf-8",
    )
    (folder / "test_floor.py").write_text(
        "import pytest\n\n"
        f"@pytest.mark.parametrize('index', range({total}))\n"
        "def test_trivial(index):\n    assert index >= 0\n",
        encoding="utf-8",
    )
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")


COMMANDS = {
    "cases": ["--asrbench", "cases"],
    "plain": ["test_plain.py"],
    "floor": ["-p", "no:asrbench", "test_floor.py"],
}


#: The bytecode cache every arm's processes share, inside the project folder.
BYTECODE_CACHE = ".pycache"


def child_environment(folder: Path, pythonpath: str | None = None) -> dict[str, str]:
    """The environment of one measured pytest process: bytecode written and read in
    ``folder``/:data:`BYTECODE_CACHE` (``PYTHONPYCACHEPREFIX``, shared by every arm; no
    ``PYTHONDONTWRITEBYTECODE``), and ``pythonpath`` first on ``PYTHONPATH`` when given."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(folder).resolve() / BYTECODE_CACHE)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def run(folder: Path, *args: str, pythonpath: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process) of one ``python -m pytest -q -p
    no:cacheprovider ARGS`` in ``folder`` (environment: :func:`child_environment`);
    ``pythonpath`` puts another checkout's package first.

    Raises:
        SystemExit: pytest did not pass (its output's tail is shown).
    """
    env = child_environment(folder, pythonpath)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                            capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def measure(folder: Path, total: int, repeat: int, before: str | None) -> dict[str, list[tuple[float, float]]]:
    """``{arm: [(wall, CPU seconds) per round]}`` for every command, run and collect-only
    (and ``cases`` from the checkout ``before``, when given), after one unmeasured warm-up
    round of every arm (it fills the shared bytecode cache)."""
    write_project(folder, total)
    run(folder, *COMMANDS["cases"], "--snapshot-update", pythonpath=before)
    arms = {name: (args, None) for name, args in COMMANDS.items()}
    if before:
        arms["cases before"] = (COMMANDS["cases"], before)
    arms.update({f"{name} collect": ([*args, "--collect-only"], path) for name, (args, path) in list(arms.items())})
    names = list(arms)
    for name in names:  # warm-up: every arm's modules compiled into the shared cache
        run(folder, *arms[name][0], pythonpath=arms[name][1])
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for round_index in range(repeat):
        for name in names if round_index % 2 == 0 else names[::-1]:
            args, path = arms[name]
            times[name].append(run(folder, *args, pythonpath=path))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="items per arm (default 10,000)")
    parser.add_argument("--repeat", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--keep", type=Path, default=None, help="build the project in this new folder and keep it")
    parser.add_argument("--before", default=None, metavar="DIR",
                        help="also run the cases with the package of another checkout (DIR on PYTHONPATH: a "
                             "`git archive` of pytest_asrbench/ and configs/), alternating with this one")
    args = parser.parse_args(argv)
    print(f"{args.cases} items per arm, {args.repeat} alternating rounds; load average at start {load()}")
    if args.keep is not None:
        args.keep.mkdir(parents=True)
        times = measure(args.keep, args.cases, args.repeat, args.before)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            times = measure(Path(tmp), args.cases, args.repeat, args.before)
    per_item = 1e3 / args.cases
    wall = {name: statistics.median(w for w, _ in values) for name, values in times.items()}
    cpu = {name: statistics.median(c for _, c in values) for name, values in times.items()}
    print(f"{'arm':<20} {'wall s':>8} {'ms/item':>8} {'CPU s':>8} {'ms/item':>8}   (medians)")
    for name in times:
        print(f"{name:<20} {wall[name]:>8.2f} {wall[name] * per_item:>8.3f} {cpu[name]:>8.2f} {cpu[name] * per_item:>8.3f}")
    for label, key in (("run", ""), ("collection only", " collect")):
        line = (f"{label}: cases / plain {cpu['cases' + key] / cpu['plain' + key]:.2f}x CPU, "
                f"{wall['cases' + key] / wall['plain' + key]:.2f}x wall (target for the run <= 1.5x); "
                f"cases / floor {cpu['cases' + key] / cpu['floor' + key]:.2f}x CPU; "
                f"plain / floor {cpu['plain' + key] / cpu['floor' + key]:.2f}x CPU")
        if args.before:
            line += f"; before / plain {cpu['cases before' + key] / cpu['plain' + key]:.2f}x CPU"
        print(line)
    print(f"load average at end {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
