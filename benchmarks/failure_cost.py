"""What a failing case costs against the same case passing.

Two copies of the repository's case files (``--languages``; the ``signature`` and
``benchmark`` kinds left out) are made in a temporary folder and recorded there
(``--snapshot-update``; the ASR hypothesis cache is shared, so no clip is decoded). In the
second copy every case is then made to fail without changing what it computes: each recorded
snapshot gets every ``errors`` count raised by one (so the output differs from its recording,
in several places, as after a real regression), and the expectations are changed: a ``score``
case expects a rate of 9, an ``asr`` case a transcript ``zz``, a ``normalize`` case an output
starting ``zz``. Only ``equal``, ``distinct`` and ``untouched`` cases, whose failure needs
texts that normalize otherwise, get a first text starting ``qq``. The two copies then run
alternately ``--repeat`` times (``pytest --asrbench cases --junitxml``, one process each).

Reported: each run's wall time, and per kind the median time pytest took for a case
(setup, call and teardown, from the JUnit file) over the cases that pass in the first copy
and fail in the second, with the ratio failing / passing.

    python benchmarks/failure_cost.py [--languages en hi] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
LEFT_OUT = ("signature", "benchmark")


def _break(case: dict) -> None:
    """Change the expectations of ``case`` (a case mapping) so that it fails; only the text
    kinds, whose expectation is the input itself, get another first text."""
    kind = case.get("kind")
    if kind == "score":
        case["expect"] = {**(case.get("expect") or {}), "rate": 9.0}
    elif kind == "asr":
        case["expect"] = {**(case.get("expect") or {}), "transcript": "zz"}
    elif kind == "normalize":
        case["expect"] = f"zz {case['expect']}"
    elif kind in ("equal", "distinct", "untouched"):
        case["texts"] = [f"qq {case['texts'][0]}", *case["texts"][1:]]


def _raise_errors(value):
    """``value`` (a snapshot's JSON data) with every ``errors`` count raised by one."""
    if isinstance(value, dict):
        return {key: item + 1 if key == "errors" and isinstance(item, int) else _raise_errors(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_raise_errors(item) for item in value]
    return value


def _move_recordings(folder: Path) -> None:
    """Every recorded snapshot under ``folder/snapshots`` with its ``errors`` counts raised."""
    import json

    for path in (folder / "snapshots").rglob("*.json"):
        data = _raise_errors(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _write_cases(folder: Path, languages: list[str], broken: bool) -> None:
    """The repository's case files of ``languages`` in ``folder/cases`` (broken: :func:`_break`)."""
    for language in languages:
        for source in sorted((ROOT / "cases" / language).glob("*.yaml")):
            data = yaml.safe_load(source.read_text(encoding="utf-8"))
            data["cases"] = [case for case in data["cases"] if case.get("kind") not in LEFT_OUT]
            if not data["cases"]:
                continue
            if broken:
                for case in data["cases"]:
                    _break(case)
            target = folder / "cases" / language / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _project(folder: Path, languages: list[str]) -> None:
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (folder / "samples").symlink_to(ROOT / "samples")
    _write_cases(folder, languages, broken=False)


def _pytest(folder: Path, *extra: str) -> tuple[float, subprocess.CompletedProcess]:
    command = [sys.executable, "-m", "pytest", "--asrbench", "cases", "-p", "no:cacheprovider", "-q", *extra]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    return time.perf_counter() - start, done


def _times(junit: Path) -> dict[str, tuple[str, float]]:
    """``{case name: (outcome, seconds)}`` of a JUnit file."""
    found = {}
    for case in ET.parse(junit).iter("testcase"):
        outcome = "failed" if case.find("failure") is not None or case.find("error") is not None else (
            "skipped" if case.find("skipped") is not None else "passed")
        found[f"{case.get('classname')}::{case.get('name')}"] = (outcome, float(case.get("time")))
    return found


def _kinds(folder: Path) -> dict[str, str]:
    """``{case name as JUnit gives it: kind}``."""
    kinds = {}
    for path in (folder / "cases").rglob("*.yaml"):
        classname = ".".join(path.relative_to(folder).parts)
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            kinds[f"{classname}::{case['id']}"] = case["kind"]
    return kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["en", "hi"], help="case folders to copy (default en hi)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each copy (alternating)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        passing, failing = Path(temporary, "passing"), Path(temporary, "failing")
        for folder in (passing, failing):
            _project(folder, args.languages)
            _, done = _pytest(folder, "--snapshot-update")
            if done.returncode != 0:
                raise SystemExit(f"recording {folder.name} failed:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
        shutil.rmtree(failing / "cases")
        _write_cases(failing, args.languages, broken=True)
        _move_recordings(failing)
        kinds = _kinds(passing)
        walls: dict[str, list[float]] = {"passing": [], "failing": []}
        per_case: dict[str, dict[str, list[float]]] = {"passing": defaultdict(list), "failing": defaultdict(list)}
        outcomes: dict[str, dict[str, str]] = {}
        for round_ in range(args.repeat):
            for name, folder in (("passing", passing), ("failing", failing)):
                junit = Path(temporary, f"{name}-{round_}.xml")
                wall, done = _pytest(folder, f"--junitxml={junit}")
                walls[name].append(wall)
                for case, (outcome, seconds) in _times(junit).items():
                    per_case[name][case].append(seconds)
                    outcomes.setdefault(name, {})[case] = outcome
        compared = [case for case, outcome in outcomes["failing"].items()
                    if outcome == "failed" and outcomes["passing"].get(case) == "passed"]
        print(f"languages {' '.join(args.languages)}; {len(outcomes['passing'])} cases, {len(compared)} pass in "
              f"the first copy and fail in the second; {args.repeat} alternating run(s) of each")
        for name in walls:
            print(f"{name} runs: " + ", ".join(f"{wall:.2f}" for wall in walls[name])
                  + f" s (median {statistics.median(walls[name]):.2f} s)")
        print(f"wall ratio failing / passing: {statistics.median(walls['failing']) / statistics.median(walls['passing']):.2f}x")
        print(f"{'kind':<10} {'cases':>5} {'passing ms':>11} {'failing ms':>11} {'ratio':>6}")
        by_kind = defaultdict(list)
        for case in compared:
            by_kind[kinds.get(case, "?")].append(case)
        for kind, cases in sorted(by_kind.items()):
            good = statistics.median(statistics.median(per_case["passing"][case]) for case in cases) * 1000
            bad = statistics.median(statistics.median(per_case["failing"][case]) for case in cases) * 1000
            print(f"{kind:<10} {len(cases):>5} {good:>11.2f} {bad:>11.2f} {bad / good if good else float('nan'):>5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
