"""YAML to Python with source lines: every mapping remembers the line of each key.

PyYAML's composer gives nodes with positions; this module constructs plain Python values
from them and records lines in a side table, rejecting duplicate keys (which PyYAML would
otherwise resolve silently to the last one).

Text is composed with libyaml's parser when PyYAML was built with it (``yaml.CSafeLoader``:
the same nodes and line marks, several times faster), else with PyYAML's own. The two word
their syntax errors differently ("did not find expected ',' or ']'" against "expected ',' or
']', but got '<stream end>'"), so a text libyaml refuses is read again by PyYAML's own
parser, whose error is the one reported: a case file
gives the same values, lines and messages with or without libyaml
(``tests/case_files/test_yaml_loaders.py`` compares the two on every shipped case file and
on faulty texts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml


#: PyYAML's own (pure-Python) loader: the reference for values, lines and error messages.
PYTHON_LOADER = yaml.SafeLoader
#: libyaml's loader when PyYAML was built with it (same nodes and marks, several times faster).
_LOADER = getattr(yaml, "CSafeLoader", PYTHON_LOADER)
#: The loaders this PyYAML offers: PyYAML's own, then libyaml's when present.
LOADERS: tuple[type, ...] = tuple(dict.fromkeys((PYTHON_LOADER, _LOADER)))


class YamlShapeError(Exception):
    """A structural fault in the YAML text, with its 1-based line."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class Located:
    """A constructed value plus the line of the node and of each of its keys (mappings).

    ``plain`` is the source text of an unquoted scalar (``no``, ``2024``, ``10:30``, ``""``
    for an empty value), so an error can say what YAML made of it; ``None`` for quoted
    scalars, mappings and lists.
    """

    value: Any
    line: int
    key_lines: dict[str, int]
    children: dict[Any, "Located"] | list["Located"] | None = None
    plain: str | None = None


def parse(text: str, loader: type | None = None) -> Located | None:
    """Parse one YAML document; ``None`` for an empty document.

    ``loader`` is one of :data:`LOADERS` (default: libyaml's when present); a text libyaml
    refuses is read again with :data:`PYTHON_LOADER`, so its error (message and line) is
    PyYAML's own whichever loader was asked for.

    Raises:
        YamlShapeError: syntax error, a character YAML refuses (a NUL: at its line and
            column), several documents, a duplicate mapping key, or an anchor or alias (refused before any value is built: see :func:`_refuse_aliases`).
    """
    loader = loader or _LOADER
    if loader is PYTHON_LOADER:
        node = _compose(text)
    else:
        try:
            node = yaml.compose(text, Loader=loader)
        except yaml.YAMLError:
            return parse(text, PYTHON_LOADER)  # PyYAML words (and places) the error
    if node is None:
        return None
    _refuse_aliases(text, loader)
    try:
        return _construct(node)
    finally:  # the scalar constructor's memos would keep every node of every file read
        _scalar_loader.constructed_objects.clear()
        _scalar_loader.recursive_objects.clear()


def _compose(text: str) -> yaml.Node | None:
    """The document's node tree by PyYAML's own parser, whose errors are the ones reported.

    Raises:
        YamlShapeError: a syntax error, a character YAML refuses, several documents.
    """
    try:
        return yaml.compose(text, Loader=PYTHON_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        message = f"YAML syntax error: {exc.problem or exc}"
        lines = text.splitlines()
        if 0 < line <= len(lines) and "\t" in lines[line - 1]:
            message += " (this line has a tab: YAML indents with spaces only)"
        raise YamlShapeError(line, message) from None
    except yaml.reader.ReaderError as exc:
        raise _unreadable_character(text, exc) from None
    except yaml.YAMLError as exc:
        raise YamlShapeError(1, f"YAML error: {exc}") from None


def _unreadable_character(text: str, exc: yaml.reader.ReaderError) -> YamlShapeError:
    """The error for a character YAML refuses (a NUL, another control character), at its own
    line and column.

    The reader checks the whole stream before parsing and reports the first such character
    (by offset: in characters from PyYAML's Python reader, in UTF-8 bytes from libyaml's); its
    first occurrence in ``text`` is the one reported."""
    character = exc.character if isinstance(exc.character, str) else chr(exc.character)
    offset = text.find(character)
    if offset < 0:  # pragma: no cover - the reader reports a character of the text
        return YamlShapeError(1, f"YAML error: {exc}")
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    code = f"U+{ord(character):04X}"
    name = {"\x00": " (NUL)"}.get(character, "")
    return YamlShapeError(line, f"the control character {code}{name} at column {column} is not allowed in a case "
                                "file: remove it, or write it as an escape in a double-quoted string "
                                f'("\\x{ord(character):02x}")' if ord(character) < 0x100 else
                          f"the character {code} at column {column} is not allowed in a case file: remove it")


def _refuse_aliases(text: str, loader: type) -> None:
    """Refuse anchors (``&name``) and aliases (``*name``) before anything is constructed.

    The composer keeps an alias as one shared node, but constructing plain values expands
    every use: nine nested aliases in a few hundred bytes become hundreds of millions of
    items (the "billion laughs" pattern). A case file reads on its own without them, so they
    are refused at the first one, from the parser's events (linear in the text).

    Raises:
        YamlShapeError: at the line of the first anchor or alias.
    """
    if "&" not in text and "*" not in text:
        return  # neither can occur (the usual case: no second pass over the text)
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            name = f"*{event.anchor}"
        elif getattr(event, "anchor", None):
            name = f"&{event.anchor}"
        else:
            continue
        raise YamlShapeError(event.start_mark.line + 1,
                             f"YAML anchors and aliases ({name}) are not allowed in case files; "
                             "write the value out in full where it is used")


_scalar_loader = yaml.SafeLoader("")
_STR_TAG = "tag:yaml.org,2002:str"


def _construct(node: yaml.Node) -> Located:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        value: dict[Any, Any] = {}
        key_lines: dict[str, int] = {}
        children: dict[Any, Located] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlShapeError(key_node.start_mark.line + 1, "YAML merge keys (<<) are not supported in case files")
            key = _construct(key_node).value
            if isinstance(key, (dict, list)):
                raise YamlShapeError(key_node.start_mark.line + 1, "mapping keys must be plain scalars")
            if key in value:
                raise YamlShapeError(
                    key_node.start_mark.line + 1,
                    f"duplicate key {key!r} (first on line {key_lines[str(key)]}); keep one",
                )
            child = _construct(value_node)
            value[key] = child.value
            key_lines[str(key)] = key_node.start_mark.line + 1
            children[key] = child
        return Located(value, line, key_lines, children)
    if isinstance(node, yaml.SequenceNode):
        children_list = [_construct(item) for item in node.value]
        return Located([child.value for child in children_list], line, {}, children_list)
    # plain (unquoted) style: None from PyYAML's composer, "" from libyaml's
    plain = node.value if isinstance(node, yaml.ScalarNode) and not node.style else None
    if node.tag == _STR_TAG and isinstance(node, yaml.ScalarNode):
        # what SafeConstructor.construct_yaml_str returns for a string scalar: its text
        return Located(node.value, line, {}, plain=plain)
    try:
        return Located(_scalar_loader.construct_object(node, deep=True), line, {}, plain=plain)
    except yaml.constructor.ConstructorError as exc:
        raise YamlShapeError(line, f"cannot read value: {exc.problem}") from None
