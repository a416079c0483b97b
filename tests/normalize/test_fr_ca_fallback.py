"""fr-CA has no config of its own and gives exactly French output (the original requirements,
"Canadian French": fr-CA.json had drifted from fr.json and was removed).

The fallback is one rule (``_shared/languages.resolve_tag``: a regional tag without a config
uses its base language). These tests run EVERY case of every file in ``cases/fr`` under
``fr-CA`` too and compare the outputs, so a French case added later is covered by itself.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import pytest_asrbench.cases.kinds  # noqa: F401  (registers the case kinds)
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.registry import RUNNERS, RunContext
from pytest_asrbench.normalize.registry import configs_dir, explain, normalize_text
from pytest_asrbench.scoring import score
from pytest_asrbench.signatures.compute import compute

ROOT = Path(__file__).resolve().parents[2]
FRENCH_FILES = sorted((ROOT / "cases" / "fr").glob("*.yaml"))
TEXT_KINDS = ("normalize", "equal", "distinct", "untouched", "score")


def _french_cases():
    for path in FRENCH_FILES:
        loaded = load_case_file(path)
        assert not loaded.errors, loaded.errors
        for case in loaded.cases:
            yield pytest.param(case, id=f"{path.stem}::{case.id}")


def _strings(value):
    """Every string inside a snapshot or case field (texts, references, transcripts)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_fr_ca_has_no_config_of_its_own():
    assert not (configs_dir() / "fr-CA.toml").exists()
    assert len(FRENCH_FILES) >= 4, "the French case files (words, symbols, titles ...) are missing"


@pytest.mark.parametrize("case", list(_french_cases()))
def test_every_french_case_runs_the_same_under_fr_ca(case):
    context = RunContext(rootpath=ROOT)
    if case.kind in TEXT_KINDS:
        french = RUNNERS[case.kind].run(case, context)
        canadian = RUNNERS[case.kind].run(dataclasses.replace(case, language="fr-CA"), context)
        french.output.pop("language")
        canadian.output.pop("language")
        assert canadian.output == french.output
        assert canadian.failures == french.failures
        texts = list(_strings(case.fields))
    elif case.kind == "signature":
        assert compute(case.metric, "fr-CA").signature == compute(case.metric, "fr").signature
        return
    else:
        # asr (and any kind with a recording): the reference and every recorded transcript
        # normalize and score alike; the engine itself is not re-run here.
        recorded = ROOT / "snapshots" / "fr" / case.file.stem / f"{case.id}.json"
        texts = list(_strings(case.fields.get("reference", "")))
        if recorded.exists():
            texts += list(_strings(json.loads(recorded.read_text(encoding="utf-8"))))
    assert texts
    for text in texts:
        assert normalize_text(text, "fr-CA") == normalize_text(text, "fr"), text
        assert explain(text, "fr-CA") == explain(text, "fr"), text
    if case.kind == "score" or "reference" in case.fields:
        reference, hypothesis = case.fields["reference"], case.fields.get("hypothesis", case.fields["reference"])
        assert score(reference, hypothesis, "fr-CA") == score(reference, hypothesis, "fr")
