"""A case file's schema errors in the user's terms: which field, at which line, what it holds
and what the field takes, never jsonschema's own wording.

:func:`describe` is the one helper the loader hands every jsonschema error to. Each message
names its place (``case 'c', field `expect.rate`: ``), says what the value is in YAML's terms
(text, a number, a list, true/false, empty) and what the field takes, with the field's meaning
and an example line from the schema (:mod:`pytest_asrbench.cases.field_help`, the same words
``asrbench add-case --help`` shows). An unknown field is reported at its own line with the
nearest known field (:func:`~pytest_asrbench.cases.field_help.did_you_mean`) and the fields
that place takes.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import jsonschema

from pytest_asrbench.cases.field_help import (FIELD_DOCS, closest, did_you_mean, example_line, field_meaning,
                                              what_to_write)
from pytest_asrbench.cases.yaml_lines import Located

__all__ = ["describe", "field_rule", "locate", "number_text_problem", "where_in"]

#: JSON Schema types in the user's terms (a case file is YAML).
_TYPE_WORDS = {"string": "text", "number": "a number", "integer": "a whole number", "array": "a list",
               "object": "a mapping (`key: value` lines)", "boolean": "true or false", "null": "null (no value)"}


def locate(root: Located, path: list) -> tuple[Located, int, bool]:
    """The deepest node on ``path`` that exists, its line, and whether it is the whole path
    (a missing key points at its parent)."""
    node, line = root, root.line
    for part in path:
        if isinstance(node.children, dict) and part in node.children:
            line = node.key_lines.get(str(part), node.children[part].line)
            node = node.children[part]
        elif isinstance(node.children, list) and isinstance(part, int) and part < len(node.children):
            node = node.children[part]
            line = node.line
        else:
            return node, line, False
    return node, line, True


def describe(error: jsonschema.ValidationError, data: dict, root: Located, schema: dict) -> list[tuple[int, str]]:
    """``(line, message)`` of each fault ``error`` (one jsonschema error of ``data``, the whole
    case file, parsed into ``root``) stands for: one per unknown field, else one. ``schema`` is
    the whole case schema (each field's ``description`` and ``examples``)."""
    path = list(error.absolute_path)
    if error.validator in ("oneOf", "anyOf") and error.context:
        # the branch of the instance's own shape failed deeper (a list of texts holding a
        # number): that deeper error is the fault
        deeper = max(error.context, key=lambda sub: len(sub.absolute_path))
        if len(deeper.absolute_path) > len(path):
            return describe(deeper, data, root, schema)
    line = locate(root, path)[1]
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        return _unknown_fields(error, data, root, path)
    return [(line, where_in(path, data) + _problem(error, data, root, path, schema))]


def _unknown_fields(error, data: dict, root: Located, path: list) -> list[tuple[int, str]]:
    """One fault per key of the mapping that the place does not take, at the key's own line."""
    allowed = sorted(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
    node = locate(root, path)[0]
    found = []
    for key in error.instance if isinstance(error.instance, dict) else []:
        if key in allowed:
            continue
        place = where_in(path, data).rstrip(": ")
        takes = f"{_holder(path, data)} takes: {', '.join(allowed)}"
        hint = did_you_mean(str(key), allowed)
        message = (f"unknown field `{key}`: {hint + ' ' if hint else ''}remove it or fix its spelling "
                   f"({takes})")
        line = node.key_lines.get(str(key), node.line) if isinstance(node.children, dict) else node.line
        found.append((line, f"{place}: {message}" if place else message))
    return found


def _holder(path: list, data: dict) -> str:
    """What holds the fields at ``path``, for "... takes: ": ``a normalize case``, ``field
    `engine```, ``the top of the file``."""
    if not path:
        return "the top of the file"
    if len(path) == 2 and path[0] == "cases" and isinstance(path[1], int):
        case = data["cases"][path[1]]
        kind = case.get("kind") if isinstance(case, dict) else None
        return f"{'an' if str(kind)[:1] in 'aeiou' else 'a'} {kind} case" if isinstance(kind, str) else "a case"
    return _field_label(path[2:] if path[0] == "cases" else path)


def where_in(path: list, data: dict) -> str:
    """``"case 'c', field `expect.rate`: "`` for a path in the file's data (``item 2 of
    `texts```, ``field `language```); empty for the file itself."""
    if len(path) >= 2 and path[0] == "cases" and isinstance(path[1], int):
        case = data["cases"][path[1]]
        case_id = case.get("id") if isinstance(case, dict) else None
        if isinstance(case_id, str) and len(case_id) > 60:
            case_id = case_id[:40] + "..."  # a refused over-long id: its start is enough to find it
        where = f"case {case_id!r}" if isinstance(case_id, str) and case_id else f"case #{path[1] + 1}"
        rest = path[2:]
        return where + (f", {_field_label(rest)}" if rest else "") + ": "
    return f"{_field_label(path)}: " if path else ""


def _field_label(parts: list) -> str:
    """``field `expect.rate```, ``item 2 of `texts```."""
    if parts and isinstance(parts[-1], int) and len(parts) > 1:
        return f"item {parts[-1] + 1} of `{_dotted(parts[:-1])}`"
    return f"field `{_dotted(parts)}`"


def _dotted(parts: list) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _value(value: Any) -> str:
    """What a YAML value is, in the user's terms: ``text 'half'``, ``the number 1.5``, ``true``,
    ``empty (null)``, ``a list``, ``a mapping``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "empty (null)"
    if isinstance(value, str):
        return f"the text {value!r}" if value else "empty text"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


#: A number with an exponent: mantissa (digits, a point or both) and exponent.
_EXPONENT_FORM = re.compile(r"([-+]?)(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)[eE]([-+]?)(\d+)")


def number_text_problem(text: str, text_allowed: bool = False) -> str | None:
    """Why an unquoted scalar that reads as a number in Python but as text in YAML 1.1 is not
    a number, and what to write; ``None`` for any other text.

    YAML 1.1 (the YAML case files are read as, PyYAML's) reads a float only with a decimal point
    and a signed exponent: ``1e-5`` and ``1.0e5`` stay text, ``1.0e-5`` and ``1.0e+5`` are
    numbers. A text that stands for NaN or infinity (``nan``, ``inf``, ``1e400``, beyond the
    largest float) is refused: a figure must be a finite number. ``text_allowed``: the field
    also takes text, and the message says to quote the value if text is meant.
    """
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value):
        reading = "NaN" if math.isnan(value) else "infinity, beyond the largest number"
        return f"{text} is not a finite number ({reading}): write a finite number such as 0.25"
    found = _EXPONENT_FORM.fullmatch(text)
    if found is None:
        return None
    sign, mantissa, exponent_sign, exponent = found.groups()
    if "." not in mantissa:
        mantissa += ".0"
    written = f"{sign}{mantissa}e{exponent_sign or '+'}{exponent}"
    return (f"YAML 1.1 reads {text} as text, not as a number: write {written} (a decimal point and a signed "
            "exponent)" + (", or quote it if you mean the text" if text_allowed else ""))


def _types(expected: Any) -> str:
    """``"a number or null (no value)"`` for a schema ``type`` (one name or a list)."""
    names = expected if isinstance(expected, list) else [expected]
    if "number" in names and "integer" in names:
        names = [name for name in names if name != "integer"]
    words = [_TYPE_WORDS.get(name, name) for name in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _branches(branches: list) -> str:
    """What a ``oneOf``/``anyOf`` takes: ``"text or a list"``."""
    words = []
    for branch in branches:
        if isinstance(branch, dict) and "type" in branch:
            words.append(_types(branch["type"]))
        elif isinstance(branch, dict) and ("$ref" in branch or "allOf" in branch):
            words.append("a list of texts")
    return " or ".join(dict.fromkeys(words)) or "another value"


def field_rule(path: list, data: dict, schema: dict) -> dict:
    """The schema rule of the field at ``path`` (a case's field by its kind; ``{}`` when the
    schema names none): what its ``description`` and ``examples`` are read from."""
    defs = schema["$defs"]
    if len(path) >= 2 and path[0] == "cases" and isinstance(path[1], int):
        case = data["cases"][path[1]] if isinstance(data.get("cases"), list) else {}
        kind = case.get("kind") if isinstance(case, dict) else None
        own = defs.get(f"kind_{kind}", {}) if isinstance(kind, str) else {}
        rule: Any = {"properties": {**defs["common"]["properties"], **own.get("properties", {})}}
        parts = path[2:]
    else:
        rule, parts = schema, path
    for part in parts:
        rule = _resolved(rule, defs)
        if isinstance(part, int):
            rule = rule.get("items", {})
        elif part in rule.get("properties", {}):
            rule = rule["properties"][part]
        elif isinstance(rule.get("additionalProperties"), dict):
            rule = rule["additionalProperties"]
        else:
            return {}
    return _resolved(rule, defs)


def _resolved(rule: Any, defs: dict) -> dict:
    """``rule`` with a ``$ref`` into ``$defs`` merged in (its own keys win)."""
    if not isinstance(rule, dict):
        return {}
    ref = rule.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return {**_resolved(defs.get(ref[len("#/$defs/"):], {}), defs), **{k: v for k, v in rule.items() if k != "$ref"}}
    return rule


def _advice(path: list, data: dict, schema: dict) -> str:
    """`` (<meaning>; e.g. `<example line>`)`` of the field at ``path``; empty without either."""
    name = next((str(part) for part in reversed(path) if not isinstance(part, int)), None)
    if name is None:
        return ""
    advice = what_to_write(name, field_rule(path, data, schema))
    return f" ({advice})" if advice else ""


#: The message of each bound-like schema rule: ``value`` (the value as shown), ``limit`` (the
#: rule's value), ``count`` (the length of a list, text or mapping); the field's meaning and
#: example follow it.
_RULE_MESSAGES = {
    "minimum": "{value} is below the least value allowed: write {limit} or more",
    "exclusiveMinimum": "{value} is too small: write a value above {limit}",
    "maximum": "{value} is above the greatest value allowed: write {limit} or less",
    "minItems": "the list has {count} item(s), fewer than the {limit} it needs",
    "maxItems": "the list has {count} items, more than the {limit} it takes",
    "minProperties": "the mapping is empty: name at least {limit} value(s)",
    "minLength": "the text is empty: write at least {limit} character(s)",
    "maxLength": "the text is {count} characters long, more than the {limit} it takes",
}


def _problem(error: jsonschema.ValidationError, data: dict, root: Located, path: list, schema: dict) -> str:
    """What is wrong at ``path`` and what the field takes (everything after the place)."""
    validator, limit, value = error.validator, error.validator_value, error.instance
    field_name = path[-1] if path else None
    kinds = list(schema["$defs"]["common"]["properties"]["kind"]["enum"])
    advice = _advice(path, data, schema)
    if validator == "required":
        return _missing_field(error, path, kinds)
    if field_name == "xfail" and validator in ("type", "minLength"):
        return ("xfail takes the reason of the known limitation as text, not true/false: "
                "write e.g. `xfail: \"numbers with units are not split yet\"`")
    if field_name == "id" and validator == "pattern":
        return (f"{value!r} is not a valid id: use letters A-Z a-z, digits 0-9, '_', '.' and '-', "
                "starting with a letter or digit (e.g. time-ten-thirty)")
    if field_name == "id" and validator == "maxLength":
        return (f"the id is {len(value)} characters long; ids are at most {limit} "
                "(the id names its snapshot file, and file names are limited to 255 bytes): shorten it")
    if path == ["cases"] and validator == "minItems":
        return "the case list is empty: a case file needs at least one case under `cases:`"
    if validator in ("type", "oneOf", "anyOf"):
        quote = _quote_hint(error, root)
        if quote:
            return quote
        number = _number_text_hint(error, root)
        if number:
            return number
        takes = _types(limit) if validator == "type" else _branches(limit)
        return f"{_value(value)} is not {takes}{_type_hint(error) or advice}"
    if validator == "enum":
        hint = did_you_mean(str(value), [str(choice) for choice in limit])
        what = "kind" if field_name == "kind" else "value"
        return (f"unknown {what} {value!r}: {hint + ' ' if hint else ''}use one of: "
                f"{', '.join(str(choice) for choice in limit)}")
    if validator == "const":
        return f"{_value(value)} is not allowed here: write {json.dumps(limit, ensure_ascii=False)}"
    template = _RULE_MESSAGES.get(validator)
    if template is not None:
        count = len(value) if isinstance(value, (list, str, dict)) else 0
        return template.format(value=_value(value), limit=limit, count=count) + advice
    if validator == "uniqueItems":
        twice = next((item for index, item in enumerate(value) if item in value[:index]), None)
        return f"the list names {twice!r} more than once: name each item once{advice}"
    if validator == "pattern":
        return f"{_value(value)} does not have the form this field takes{advice or f' (the pattern {limit})'}"
    # A rule the schema does not use today: its keyword and value, never a silent pass.
    return f"{_value(value)} breaks the rule `{validator}: {json.dumps(limit, ensure_ascii=False)}`{advice}"


def _type_hint(error: jsonschema.ValidationError) -> str:
    """`` (...)`` of what a numeric or list field takes, when a value of another type stands there."""
    expected = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    if error.validator != "type" or "string" in expected:
        return ""
    if expected == ["array"]:
        return " (it takes a list: one item per line starting with '- ', or [first, second])"
    if "integer" in expected and "number" not in expected:
        return " (it is a count: write a whole number such as 2)"
    if "number" in expected:
        empty = ", or null for an empty reference" if "null" in expected else ""
        return f" (it takes a number such as 0.25{empty})"
    return ""


def _accepts_text(error: jsonschema.ValidationError) -> bool:
    """Whether the failed rule would have taken a string (``type: string``, or a ``oneOf``
    with a string branch, as ``reference`` has)."""
    if error.validator == "type":
        expected = error.validator_value
        return "string" in (expected if isinstance(expected, list) else [expected])
    if error.validator in ("oneOf", "anyOf"):
        return any(isinstance(branch, dict) and branch.get("type") == "string" for branch in error.validator_value)
    return False


def _yaml_reading(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null (no value)"
    return f"the number {value!r}"


def _quote_hint(error: jsonschema.ValidationError, root: Located) -> str | None:
    """"write 'no' in quotes: YAML reads no as false" when an unquoted scalar that YAML turned
    into a boolean, null or number stands where text belongs (YAML 1.1: yes/no/on/off, ~,
    2024, 1_000, 10:30 ...)."""
    value = error.instance
    if isinstance(value, str) or not isinstance(value, (bool, int, float, type(None))) or not _accepts_text(error):
        return None
    node, _, exact = locate(root, list(error.absolute_path))
    if not exact or node.plain is None:
        return None
    if node.plain == "":
        return "the value is empty, which YAML reads as null; write the text in quotes (\"\" for an empty text)"
    quoted = f"'{node.plain}'" if "'" not in node.plain else json.dumps(node.plain, ensure_ascii=False)
    return f"write {quoted} in quotes: YAML reads {node.plain} as {_yaml_reading(value)}, not as text"


def _number_text_hint(error: jsonschema.ValidationError, root: Located) -> str | None:
    """:func:`number_text_problem` for an unquoted text where a number belongs (``1e-5``)."""
    value = error.instance
    if not isinstance(value, str) or _accepts_text(error):
        return None
    node, _, exact = locate(root, list(error.absolute_path))
    return number_text_problem(node.plain) if exact and node.plain else None


def _missing_field(error: jsonschema.ValidationError, path: list, kinds: list[str]) -> str:
    """What to write for a required field that is missing, in the user's terms: which case (or
    field) needs it, what it holds and an example line (the field's ``description`` and
    ``examples`` in the schema), and where every user reads each kind's fields."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    required = error.validator_value if isinstance(error.validator_value, list) else []
    name = next((field for field in required if field not in instance and repr(field) in error.message),
                next((field for field in required if field not in instance), "?"))
    rule = error.schema.get("properties", {}).get(name, {}) if isinstance(error.schema, dict) else {}
    if len(path) == 2 and path[0] == "cases":
        kind = instance.get("kind")
        holder = f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} case" if isinstance(kind, str) and kind in \
            kinds else "a case"
        under = "under the case"
    elif not path:
        holder, under = "a case file", "at the top of the file"
    else:
        holder, under = f"`{path[-1]}`", f"under `{path[-1]}`"
    meaning = field_meaning(rule)
    about = [meaning[0].lower() + meaning[1:]] if meaning else []
    example = example_line(name, rule)
    add = f"add a line such as `{example}` {under}" if example else f"add `{name}:` {under}"
    if name == "kind":
        about.append(f"the kinds: {', '.join(kinds)}")
    known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    typo = closest(name, [key for key in instance if isinstance(key, str) and key not in known])
    if typo:
        add = f"rename `{typo}` to `{name}`"
    return f"{holder} needs the field `{name}`: {add} ({'; '.join([*about, FIELD_DOCS])})"
