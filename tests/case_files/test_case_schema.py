"""cases/schema.json is generated from the case-kind modules (cases/kinds/<kind>.py) and kept fresh."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

from pytest_asrbench.cases import schema as schema_module
from pytest_asrbench.cases.kinds import KINDS, get_runner, kind_module
from pytest_asrbench.cases.loader import case_schema, common_fields, load_case_file, schema_kinds
from pytest_asrbench.cases.registry import RUNNERS


def test_the_shipped_schema_file_is_the_generated_one():
    shipped = schema_module.SCHEMA_FILE.read_text(encoding="utf-8")
    assert shipped == schema_module.schema_text(), (
        "pytest_asrbench/cases/schema.json is stale; regenerate it: python -m pytest_asrbench.cases.schema --write")


def test_every_kind_module_holds_its_schema_fragment_and_its_runner():
    for kind in KINDS:
        module = kind_module(kind)
        assert set(module.SCHEMA) <= {"description", "properties", "required"}, module.__name__
        assert set(module.SCHEMA["required"]) <= set(module.SCHEMA["properties"]), module.__name__
        runner = get_runner(kind)
        assert runner.kind == kind and type(runner).__module__ == module.__name__
    assert sorted(RUNNERS) == sorted(KINDS)


def test_the_loader_reads_the_kinds_in_their_declared_order():
    assert schema_kinds() == list(KINDS) == ["equal", "distinct", "untouched", "normalize", "score", "signature", "asr",
                                            "benchmark"]
    assert case_schema()["$defs"]["kind_score"] == kind_module("score").SCHEMA


def test_the_fields_every_case_may_have_are_defined_once_and_kept_out_of_the_kind_fields(tmp_path):
    assert common_fields() == set(schema_module.COMMON["properties"])
    path = tmp_path / "cases.yaml"
    path.write_text("language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [one, \"1\"]\n"
                    "    note: why\n    source: reviewer\n    metric: stt_wer\n", encoding="utf-8")
    (case,) = load_case_file(path).cases
    assert (case.note, case.source, case.metric) == ("why", "reviewer", "stt_wer")
    assert case.fields == {"texts": ["one", "1"]}


def test_a_new_kind_is_one_module(monkeypatch):
    fake = types.ModuleType("pytest_asrbench.cases.kinds.spelled")
    fake.SCHEMA = {"properties": {"word": {"type": "string"}}, "required": ["word"]}
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    monkeypatch.setattr(schema_module, "KINDS", (*KINDS, "spelled"))
    monkeypatch.setattr(schema_module, "kind_module", lambda kind: fake if kind == "spelled" else kind_module(kind))
    built = schema_module.build_schema()
    assert built["$defs"]["kind_spelled"] == fake.SCHEMA
    assert {"if": {"properties": {"kind": {"const": "spelled"}}}, "then": {"$ref": "#/$defs/kind_spelled"}} \
        in built["$defs"]["case"]["allOf"]
    assert built["$defs"]["common"]["properties"]["kind"]["enum"][-1] == "spelled"


def test_a_kind_module_without_schema_is_named(monkeypatch):
    fake = types.ModuleType("pytest_asrbench.cases.kinds.bare")
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    monkeypatch.setattr(schema_module, "KINDS", ("bare",))
    monkeypatch.setattr(schema_module, "kind_module", lambda kind: fake)
    with pytest.raises(TypeError, match=r"pytest_asrbench\.cases\.kinds\.bare defines no SCHEMA dict"):
        schema_module.build_schema()


def test_check_command_reports_a_stale_file(tmp_path, monkeypatch):
    stale = tmp_path / "schema.json"
    stale.write_text(json.dumps({"stale": True}), encoding="utf-8")
    monkeypatch.setattr(schema_module, "SCHEMA_FILE", stale)
    assert schema_module.main(["--check"]) == 1
    assert schema_module.main(["--write"]) == 0
    assert schema_module.main(["--check"]) == 0
    assert stale.read_text(encoding="utf-8") == schema_module.schema_text()


def test_the_documented_command_runs():
    done = subprocess.run([sys.executable, "-m", "pytest_asrbench.cases.schema", "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "is up to date" in done.stdout


FAULTY_ENTRIES = [
    {"id": "a", "kind": "equal", "texts": ["only one"]},
    {"id": "a", "kind": "equal", "texts": "not a list"},
    {"id": "a", "kind": "equal", "texts": ["a", 3, None]},
    {"id": "a", "kind": "distinct", "texts": ["a", "b", "c"]},
    {"id": "a", "kind": "untouched", "texts": []},
    {"id": "a", "kind": "score", "reference": [], "hypothesis": 5, "expect": {"rate": "half", "hits": -1}},
    {"id": "a", "kind": "score", "reference": ["x"], "hypothesis": ["y", 2], "expect": {}},
    {"id": "bad id!", "kind": "normalize", "text": 1, "expect": None, "extra": True},
    {"kind": "asr", "audio": "", "expect": {"max_rate": "low"}},
]


@pytest.mark.parametrize("entry", FAULTY_ENTRIES, ids=[f"{entry['kind']}-{index}" for index, entry in
                                                       enumerate(FAULTY_ENTRIES)])
def test_inlined_kind_validators_report_what_the_referencing_schema_reports(entry):
    from pytest_asrbench.cases import loader

    defs = loader.case_schema()["$defs"]
    validator = loader._case_validator(entry["kind"])
    referencing = loader._make_validator({  # the same rules with their $refs kept
        "$defs": defs, "type": "object",
        "properties": {**defs["common"]["properties"], **defs[f"kind_{entry['kind']}"].get("properties", {})},
        "required": [*defs["common"]["required"], *defs[f"kind_{entry['kind']}"].get("required", [])],
        "additionalProperties": False})

    def described(found):
        # a oneOf's value lists its branches, which are inlined; what the messages read of it is
        # whether a branch takes text, unchanged
        return [(list(error.absolute_path), error.validator, error.message,
                 loader._accepts_text(error), loader._number_hint(error)) for error in found]

    assert "$ref" not in str(validator.schema)
    errors = described(validator.iter_errors(entry))
    assert errors and errors == described(referencing.iter_errors(entry))
