"""cases/schema.json is generated from the case-kind modules (cases/kinds/<kind>.py) and kept fresh."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    from pytest_asrbench.cases import loader, schema_errors

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
                 schema_errors._accepts_text(error), schema_errors._type_hint(error)) for error in found]

    assert "$ref" not in str(validator.schema)
    errors = described(validator.iter_errors(entry))
    assert errors and errors == described(referencing.iter_errors(entry))


def _shipped_entries() -> list[dict]:
    """Every case entry of the shipped case files, as the loader parses them."""
    from pathlib import Path

    from pytest_asrbench.cases.yaml_lines import parse

    root = Path(__file__).resolve().parents[2] / "cases"
    entries = []
    for path in sorted(root.rglob("*.yaml")):
        parsed = parse(path.read_text(encoding="utf-8"))
        if parsed is not None and isinstance(parsed.value, dict) and isinstance(parsed.value.get("cases"), list):
            entries += [entry for entry in parsed.value["cases"] if isinstance(entry, dict)]
    return entries


SHIPPED_ENTRIES = _shipped_entries()
#: Values a mutation puts in a field: every JSON type, the edges of the schema's bounds, and the
#: scalars YAML makes of unquoted words (booleans, integral floats).
ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, -0.5, 0.25, 2.5]) |
    st.sampled_from(["", "x", "bad id!", "en", "stt_wer", "faster-whisper", "cpu", "a.b-c_1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["rate", "hits", "max_rate", "x", "flags", "batch_size", "tolerance", "wer_hi"]), inner,
        max_size=3),
    max_leaves=6,
)


@st.composite
def mutated_files(draw):
    """A case file of shipped entries, each possibly with a field removed, replaced by any
    value, or added, or its kind swapped."""
    entries = [dict(entry) for entry in draw(st.lists(st.sampled_from(SHIPPED_ENTRIES), min_size=1, max_size=3))]
    for entry in entries:
        for _ in range(draw(st.integers(0, 2))):
            action = draw(st.sampled_from(["drop", "set", "add", "kind"]))
            keys = sorted(entry)
            if action == "drop" and keys:
                entry.pop(draw(st.sampled_from(keys)))
            elif action == "set" and keys:
                entry[draw(st.sampled_from(keys))] = draw(ANY_VALUE)
            elif action == "add":
                entry[draw(st.sampled_from(["extra", "engine", "expect", "tolerance", "note", "texts", "text"]))] = \
                    draw(ANY_VALUE)
            else:
                entry["kind"] = draw(st.sampled_from([*KINDS, "unknown"]))
    return {"language": draw(st.sampled_from(["en", 1, None])), "cases": entries}


def _jsonschema_errors(data):
    from pytest_asrbench.cases import loader

    errors = list(loader._file_validator().iter_errors(data))
    for entry in data["cases"] if isinstance(data.get("cases"), list) and not errors else []:
        kind = entry.get("kind")
        errors += list(loader._case_validator(kind if kind in KINDS else None).iter_errors(entry))
    return errors


@settings(max_examples=300, deadline=None)
@given(mutated_files())
def test_the_compiled_check_passes_no_file_that_jsonschema_rejects(data):
    from pytest_asrbench.cases.loader import _passes_fast

    if _passes_fast(data):
        assert _jsonschema_errors(data) == []


def test_the_compiled_check_passes_every_shipped_case():
    from pytest_asrbench.cases.loader import _passes_fast

    assert SHIPPED_ENTRIES
    refused = [entry["id"] for entry in SHIPPED_ENTRIES if not _passes_fast({"cases": [entry]})]
    assert refused == []
