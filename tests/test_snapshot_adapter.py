"""The case snapshot extension writes exactly what syrupy's own JSON extension writes."""

from __future__ import annotations

import datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.extensions.json import JSONSnapshotExtension

from pytest_asrbench.snapshot.adapter import CaseSnapshotExtension

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
