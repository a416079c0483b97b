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

Printed: the median and best wall time of each, in ms per item, and the ratios
``cases / plain`` (the target: at most 1.5x) and ``cases / floor``; the load average before
and after (the machine is shared: compare only figures of one run).

    python benchmarks/collect_run.py [--cases 10000] [--repeat 5] [--keep DIR]

``--keep DIR`` builds the project in ``DIR`` (it must not exist) and leaves it there, to
profile one command by hand, e.g. ``cd DIR && python -m cProfile -o cases.prof -m pytest
--asrbench cases -q -p no:cacheprovider``.

Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
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


def run(folder: Path, *args: str) -> float:
    """Wall seconds of one ``python -m pytest -q -p no:cacheprovider ARGS`` in ``folder``.

    Raises:
        SystemExit: pytest did not pass (its output's tail is shown).
    """
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                            capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def measure(folder: Path, total: int, repeat: int) -> dict[str, list[float]]:
    """``{arm: [wall seconds per round]}`` for every command, run and collect-only."""
    write_project(folder, total)
    run(folder, *COMMANDS["cases"], "--snapshot-update")
    arms = {**{name: args for name, args in COMMANDS.items()},
            **{f"{name} collect": [*args, "--collect-only"] for name, args in COMMANDS.items()}}
    names = list(arms)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_index in range(repeat):
        for name in names if round_index % 2 == 0 else names[::-1]:
            times[name].append(run(folder, *arms[name]))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="items per arm (default 10,000)")
    parser.add_argument("--repeat", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--keep", type=Path, default=None, help="build the project in this new folder and keep it")
    args = parser.parse_args(argv)
    print(f"{args.cases} items per arm, {args.repeat} alternating rounds; load average at start {load()}")
    if args.keep is not None:
        args.keep.mkdir(parents=True)
        times = measure(args.keep, args.cases, args.repeat)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            times = measure(Path(tmp), args.cases, args.repeat)
    median = {name: statistics.median(values) for name, values in times.items()}
    best = {name: min(values) for name, values in times.items()}
    per_item = 1e3 / args.cases
    print(f"{'arm':<16} {'median s':>9} {'ms/item':>8} {'best s':>8} {'ms/item':>8}")
    for name in times:
        print(f"{name:<16} {median[name]:>9.2f} {median[name] * per_item:>8.3f} {best[name]:>8.2f} "
              f"{best[name] * per_item:>8.3f}")
    for label, key in (("run", ""), ("collection only", " collect")):
        print(f"{label}: cases / plain {median['cases' + key] / median['plain' + key]:.2f}x median, "
              f"{best['cases' + key] / best['plain' + key]:.2f}x best (target <= 1.5x for the run); "
              f"cases / floor {median['cases' + key] / median['floor' + key]:.2f}x; "
              f"plain / floor {median['plain' + key] / median['floor' + key]:.2f}x")
    print(f"load average at end {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
