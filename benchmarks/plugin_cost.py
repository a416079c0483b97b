"""What the installed plugin costs a plain pytest run that does not use ``--asrbench``.

Two figures, each against a baseline measured side by side on the same machine:

1. import time of ``pytest_asrbench.plugin`` and the ASR hooks it names in ``pytest_plugins``
   (what pytest pays at start-up through the ``pytest11`` entry point), timed in ``--repeat`` fresh interpreters with pytest already
   imported, so only the plugin's own modules count; the median is reported next to the
   median time of ``import pytest`` itself;
2. a plain suite of ``--tests`` trivial parametrized tests (no YAML, no ``--asrbench``) with
   the plugin loaded vs ``-p no:asrbench``, the two runs alternating ``--repeat`` times; the
   best wall time of each and their ratio.

    python benchmarks/plugin_cost.py [--tests 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

IMPORT_PLUGIN = (
    "import time, pytest\n"
    "start = time.perf_counter()\n"
    "import pytest_asrbench.plugin, pytest_asrbench.asr.pytest_hooks, pytest_asrbench.reports.pytest_hooks\n"
    "print(time.perf_counter() - start)\n"
)
IMPORT_PYTEST = (
    "import time\n"
    "start = time.perf_counter()\n"
    "import pytest\n"
    "print(time.perf_counter() - start)\n"
)


def fresh_import_seconds(code: str) -> float:
    """Seconds one fresh interpreter spends in the timed import of ``code``."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


def write_suite(folder: Path, tests: int) -> None:
    (folder / "test_plain.py").write_text(
        "import pytest\n\n"
        f"@pytest.mark.parametrize('index', range({tests}))\n"
        "def test_trivial(index):\n    assert index >= 0\n",
        encoding="utf-8",
    )
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")


def run_suite(folder: Path, *args: str) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "test_plain.py"],
                          cwd=folder, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    plugin_imports, pytest_imports = [], []
    for _ in range(args.repeat):
        plugin_imports.append(fresh_import_seconds(IMPORT_PLUGIN))
        pytest_imports.append(fresh_import_seconds(IMPORT_PYTEST))
    plugin_import, pytest_import = statistics.median(plugin_imports), statistics.median(pytest_imports)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_suite(folder, args.tests)
        with_plugin, without = [], []
        for _ in range(args.repeat):
            with_plugin.append(run_suite(folder))
            without.append(run_suite(folder, "-p", "no:asrbench"))
    loaded, disabled = min(with_plugin), min(without)

    print(f"import pytest_asrbench.plugin (+ asr hooks): {plugin_import * 1e3:.0f} ms median of {args.repeat} fresh interpreters "
          f"(import pytest itself: {pytest_import * 1e3:.0f} ms)")
    print(f"{args.tests} plain tests, plugin loaded:      {loaded:.3f} s (best of {args.repeat})")
    print(f"{args.tests} plain tests, -p no:asrbench:     {disabled:.3f} s")
    print(f"ratio:                                {loaded / disabled:.2f}x")


if __name__ == "__main__":
    main()
