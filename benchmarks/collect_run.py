"""Per-item cost of `pytest --asrbench` against plain pytest, measured side by side.

Builds, in a temporary folder, 10,000 `equal` cases (100 YAML files of 100 cases, realistic
English text variants) and a plain test module of 10,000 trivial parametrized tests. Records
the case snapshots once, then times each run `--repeat` times in alternation and reports the
best wall time per item and the ratio (target: at most 3x plain pytest per item).

    python benchmarks/collect_run.py [--cases 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ["flight", "booking", "seven", "account", "password", "manager", "network", "today", "tomorrow",
         "please", "check", "the", "my", "is", "at", "for", "order", "number", "delivery", "address"]


def variants(rng: random.Random) -> list[str]:
    words = rng.sample(WORDS, k=rng.randint(3, 8))
    plain = " ".join(words)
    return [plain, plain.upper() + "!", "\u00a0".join(words), "  ".join(w.capitalize() for w in words) + "."]


def write_cases(folder: Path, total: int, per_file: int = 100) -> None:
    rng = random.Random(2026)
    cases_dir = folder / "cases" / "en"
    cases_dir.mkdir(parents=True)
    for file_index in range(0, total, per_file):
        lines = ["language: en", "cases:"]
        for case_index in range(file_index, min(total, file_index + per_file)):
            texts = ", ".join('"' + text.replace("\u00a0", "\\u00a0") + '"' for text in variants(rng))
            lines += [f"  - id: case-{case_index}", "    kind: equal", f"    texts: [{texts}]"]
        (cases_dir / f"bench_{file_index // per_file:03d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "test_plain.py").write_text(
        "import pytest\n\n"
        f"@pytest.mark.parametrize('index', range({total}))\n"
        "def test_trivial(index):\n    assert index >= 0\n",
        encoding="utf-8",
    )
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")


def run(folder: Path, *args: str) -> float:
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                            capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_cases(folder, args.cases)
        run(folder, "--asrbench", "cases", "--snapshot-update")
        plain_times, case_times = [], []
        for _ in range(args.repeat):
            plain_times.append(run(folder, "test_plain.py"))
            case_times.append(run(folder, "--asrbench", "cases"))
    plain, cases = min(plain_times), min(case_times)
    print(f"items per run:            {args.cases}")
    print(f"plain pytest:             {plain:.2f} s  ({plain / args.cases * 1e3:.3f} ms/item)")
    print(f"pytest --asrbench (equal): {cases:.2f} s  ({cases / args.cases * 1e3:.3f} ms/item)")
    print(f"ratio per item:           {cases / plain:.2f}x  (target <= 3x)")


if __name__ == "__main__":
    main()
