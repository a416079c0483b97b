"""Case files read alike with libyaml's parser and with PyYAML's own: the same values, lines
and loaded cases for every shipped case file and for texts YAML parsers tend to disagree on
(line breaks, byte-order marks, block scalars), and the same errors, word for word and line
for line, for faulty texts (libyaml's are read again by PyYAML's parser)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pytest_asrbench.cases import yaml_lines
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.yaml_lines import LOADERS, PYTHON_LOADER, YamlShapeError, parse

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "cases").rglob("*.yaml"))
LIBYAML = pytest.mark.skipif(len(LOADERS) < 2, reason="PyYAML is built without libyaml here: it has one loader, "
                                                      "nothing to compare")

#: Texts both parsers accept, where their line counting or scalar reading could differ.
TRICKY = {
    "crlf": "language: en\r\ncases:\r\n  - id: a\r\n    kind: equal\r\n    texts: [a, 'b']\r\n",
    "cr-only": "language: en\rcases:\r  - id: a\r    kind: equal\r    texts: [a, 'b']\r",
    "byte-order-mark": "\ufefflanguage: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b]\n",
    "unicode-line-breaks": ("language: en\ncases:\n  - id: a\n    kind: equal\n"
                            "    texts: [\"a\u2028b\", \"c\u2029d\", \"e\x85f\"]\n  - id: b\n    kind: equal\n"
                            "    texts: [x, y]\n"),
    "block-scalars": ("language: en\ncases:\n  - id: a\n    kind: normalize\n    text: |\n      two\n      lines\n"
                      "    expect: >-\n      folded\n      text\n\n  - id: b\n    kind: equal\n    texts: [a, b]\n"),
    "multi-line-plain": ("language: en\ncases:\n  - id: a\n    kind: normalize\n    text: a plain\n      scalar\n"
                         "      on three lines\n    expect: x # comment\n"),
    "empty-and-null": "language: en\ncases:\n  - id: a\n    kind: equal\n    texts:\n      -\n      - ~\n      - ''\n",
    "yaml-1.1-scalars": ("language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [yes, no, on, off, 10:30, 2024,"
                         " 1_000, 0x1F, .5, -.inf, 2001-12-14]\n"),
    "flow-mapping": ("language: en\ncases:\n  - {id: a, kind: score, reference: 'x y',\n     hypothesis: x,"
                     "\n     expect: {rate: 0.5}}\n"),
    "explicit-document": "%YAML 1.1\n---\nlanguage: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b]\n...\n",
}

#: Faulty texts: each loader must report the same line and message (PyYAML's wording).
FAULTY = {
    "unclosed-flow": "language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b\n",
    "tab-indent": "language: en\ncases:\n  - id: a\n\tkind: equal\n",
    "value-after-value": "language: en\ncases:\n  - id: a: b\n    kind: equal\n",
    "unclosed-quote": "language: en\ncases:\n  - id: 'a\n    kind: equal\n",
    "bad-indent": "language: en\ncases:\n  - id: a\n   kind: equal\n",
    "extra-bracket": "language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b]]\n",
    "reserved-character": "language: en\ncases:\n  - id: @a\n",
    "two-documents": "language: en\n---\ncases: []\n",
    "duplicate-directive": "%YAML 1.1\n%YAML 1.1\n---\nlanguage: en\n",
    "duplicate-key": "language: en\ncases:\n  - id: a\n    kind: equal\n    kind: distinct\n",
    "nul": "language: en\ncases:\n  - id: a\x00\n",
    "escape": "language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [\x1b, b]\n",
    "anchor-and-alias": "language: &l en\ncases:\n  - id: a\n    kind: equal\n    language: *l\n",
    "merge-key": "language: en\ncases:\n  - <<: {kind: equal}\n    id: a\n",
    "list-as-key": "language: en\n? [a]\n: b\n",
    "unknown-tag": "language: en\ncases:\n  - id: !thing a\n",
}


def _error(text: str, loader) -> tuple[int, str] | None:
    try:
        parse(text, loader)
    except YamlShapeError as exc:
        return exc.line, exc.message
    return None


def test_case_files_are_composed_by_libyaml_when_pyyaml_has_it():
    assert yaml_lines.LOADERS[0] is PYTHON_LOADER is yaml.SafeLoader
    if getattr(yaml, "__with_libyaml__", False):
        assert yaml_lines._LOADER is yaml.CSafeLoader
        assert LOADERS == (yaml.SafeLoader, yaml.CSafeLoader)


@LIBYAML
@pytest.mark.parametrize("path", SHIPPED, ids=[str(path.relative_to(ROOT / "cases")) for path in SHIPPED])
def test_every_shipped_case_file_reads_the_same_with_both_loaders(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    python, libyaml = (parse(text, loader) for loader in LOADERS)
    assert libyaml == python
    loaded = []
    for loader in LOADERS:
        monkeypatch.setattr(yaml_lines, "_LOADER", loader)
        result = load_case_file(path)
        loaded.append((result.language, result.cases, [str(error) for error in result.errors]))
    assert loaded[0] == loaded[1]
    assert loaded[0][1] and not loaded[0][2]  # the shipped files load, with cases


@LIBYAML
@pytest.mark.parametrize("text", TRICKY.values(), ids=TRICKY.keys())
def test_tricky_but_valid_texts_read_the_same_with_both_loaders(text):
    python, libyaml = (parse(text, loader) for loader in LOADERS)
    assert python is not None
    assert libyaml == python


@pytest.mark.parametrize("text", FAULTY.values(), ids=FAULTY.keys())
def test_faulty_texts_give_the_same_line_and_message_with_both_loaders(text):
    errors = [_error(text, loader) for loader in LOADERS]
    assert errors[0] is not None
    assert errors.count(errors[0]) == len(errors)


@pytest.mark.parametrize("name, line, message", [
    ("unclosed-flow", 6, "YAML syntax error: expected ',' or ']', but got '<stream end>'"),
    ("tab-indent", 4, "YAML syntax error: found character '\\t' that cannot start any token "
                      "(this line has a tab: YAML indents with spaces only)"),
    ("value-after-value", 3, "YAML syntax error: mapping values are not allowed here"),
    ("two-documents", 2, "YAML syntax error: but found another document"),
    ("duplicate-key", 5, "duplicate key 'kind' (first on line 4); keep one"),
    ("anchor-and-alias", 1, "YAML anchors and aliases (&l) are not allowed in case files; "
                            "write the value out in full where it is used"),
])
def test_the_reported_error_is_pyyamls_own_wording_and_line(name, line, message):
    for loader in LOADERS:
        assert _error(FAULTY[name], loader) == (line, message)


def test_parsing_keeps_no_node_of_the_file_afterwards():
    parse(TRICKY["yaml-1.1-scalars"])
    assert yaml_lines._scalar_loader.constructed_objects == {}
    with pytest.raises(YamlShapeError):
        parse(FAULTY["unknown-tag"])
    assert yaml_lines._scalar_loader.constructed_objects == yaml_lines._scalar_loader.recursive_objects == {}
