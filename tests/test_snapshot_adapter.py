"""The case snapshot extension writes exactly what syrupy's own JSON extension writes."""

from __future__ import annotations

import datetime
import json
import types

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.extensions.base import AbstractSyrupyExtension
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from pytest_asrbench.snapshot.adapter import SNAPSHOT_DIR, CaseSnapshotExtension, _file_stem
from pytest_asrbench.snapshot.plain_json import plain_json

#: Plain JSON values as case outputs hold them: text with non-ASCII and control characters,
#: whole and fractional numbers, booleans, nulls, lists, tuples and string-keyed dicts.
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(PLAIN)
def test_a_plain_output_is_serialized_as_syrupys_json_extension_does(data):
    assert CaseSnapshotExtension().serialize(data) == JSONSnapshotExtension().serialize(data)


def test_outputs_that_are_not_plain_json_keep_syrupys_serializer():
    deep: list = []
    node = deep
    for _ in range(120):  # deeper than syrupy's depth limit: it writes "..." there
        node.append([])
        node = node[0]
    for data in ({1: "a", "b": 2}, {"set": {3, 1, 2}}, {"when": datetime.date(2026, 12, 2)}, {"deep": deep},
                 {"object": object()}):
        assert CaseSnapshotExtension().serialize(data) == JSONSnapshotExtension().serialize(data)


def test_a_property_filter_is_applied_as_syrupy_applies_it():
    data = {"keep": 1, "drop": 2}

    def exclude(*, prop, path):
        return prop == "drop"

    assert CaseSnapshotExtension().serialize(data, exclude=exclude) == "{\n  \"keep\": 1\n}\n"


@settings(max_examples=400, deadline=None)
@given(PLAIN)
def test_the_one_walk_writer_gives_json_dumps_text_byte_for_byte(data):
    assert plain_json(data, 99) == json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def _nested(levels: int) -> list:
    outer: list = []
    node = outer
    for _ in range(levels - 1):
        node.append([])
        node = node[0]
    return outer


def test_the_one_walk_writer_refuses_what_is_not_plain_json():
    class Count(int):
        pass

    for data in ({1: "a"}, {"set": {1}}, [Count(3)], {"flag": Count(1)}, ("text", b"bytes"), object()):
        assert plain_json(data, 99) is None
    # containers nested up to the limit are written, one level more is refused (syrupy's limit)
    assert plain_json(_nested(99), 99) == json.dumps(_nested(99), indent=2) + "\n"
    assert plain_json(_nested(100), 99) is None


@pytest.mark.parametrize("name", [
    "case-1", "a.b_c-D9", "test_x[case-2]", "x" * 250, "x" * 251, "é-accent", "a:b", 'a\\b/c?d*e|f"g<h>i',
    "tab\there", "zero\u200bwidth", "",
])
def test_a_snapshot_file_stem_is_the_one_syrupy_makes(name):
    assert _file_stem(name) == CaseSnapshotExtension._SingleFileSnapshotExtension__clean_filename(name)


def test_a_case_snapshot_location_is_the_one_syrupy_computes(tmp_path):
    def run_case():
        pass

    stash = pytest.Stash()
    stash[SNAPSHOT_DIR] = tmp_path / "snapshots" / "en" / "greetings"
    item = types.SimpleNamespace(path=tmp_path / "cases" / "en" / "greetings.yaml", obj=run_case,
                                 name="hello-1", nodeid="cases/en/greetings.yaml::hello-1", stash=stash)
    location = PyTestLocation(item)
    for index in (0, 1, "named"):
        ours = CaseSnapshotExtension.get_location(test_location=location, index=index)
        assert ours == AbstractSyrupyExtension.get_location.__func__(CaseSnapshotExtension, test_location=location,
                                                                     index=index)
    assert ours.endswith("greetings/hello-1[named].json")
