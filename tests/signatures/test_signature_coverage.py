"""Every (metric, language) that the shipped cases score has a recorded signature case."""

from __future__ import annotations

from pathlib import Path

from pytest_asrbench.cases.loader import load_case_file

CASES = Path(__file__).resolve().parents[2] / "cases"


def test_every_scored_pair_has_a_signature_case():
    used: dict[tuple[str, str], str] = {}
    guarded: set[tuple[str, str]] = set()
    for path in sorted(CASES.rglob("*.yaml")):
        loaded = load_case_file(path)
        assert not loaded.errors, [str(error) for error in loaded.errors]
        for case in loaded.cases:
            if case.kind == "signature":
                guarded.add((case.metric, case.language))
            else:
                used.setdefault((case.metric, case.language), f"{path.relative_to(CASES.parent)}::{case.id}")
    missing = {pair: where for pair, where in used.items() if pair not in guarded}
    assert not missing, (
        "no signature case for these (metric, language) pairs (first user shown); add one with "
        f"`asrbench signature -l LANG --metric METRIC --case`: {missing}"
    )
