"""Read a YAML case file into validated :class:`~pytest_asrbench.cases.model.Case` objects.

Every fault is reported with ``path:line`` and what to do: YAML syntax, duplicate keys,
schema violations (unknown kind, missing field, wrong type, unknown key), duplicate case
ids, unknown languages and metrics. :func:`load_case_file` collects all faults of a file
instead of stopping at the first, so one run shows everything to fix: duplicate ids are
found with the schema's faults (every case with a string id counts), not only once those are
fixed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import fastjsonschema
import jsonschema

from pytest_asrbench.cases.model import Case
from pytest_asrbench.cases.schema_errors import describe, locate, number_text_problem, where_in
from pytest_asrbench.cases.yaml_lines import Located, YamlShapeError, parse
from pytest_asrbench.errors import CaseFileError
from pytest_asrbench.normalize.registry import resolve_language
from pytest_asrbench.scoring.metrics import METRICS
from pytest_asrbench.signatures.providers import providers as _providers

DEFAULT_METRIC = "stt_wer"


@lru_cache(maxsize=1)
def case_schema() -> dict:
    """The JSON Schema of case files (``pytest_asrbench/cases/schema.json``)."""
    return json.loads(resources.files("pytest_asrbench.cases").joinpath("schema.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def common_fields() -> frozenset[str]:
    """Names of the fields every case may have, whatever its kind: the properties of the schema's
    ``$defs/common`` (generated from :data:`pytest_asrbench.cases.schema.COMMON`). A case's other
    keys are its kind's fields (``Case.fields``)."""
    return frozenset(case_schema()["$defs"]["common"]["properties"])


def _make_validator(schema: dict) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(case_schema())
    return cls(schema)


@lru_cache(maxsize=1)
def _file_validator() -> jsonschema.protocols.Validator:
    """The file's shape only; each case is then checked by the validator of its kind."""
    schema = case_schema()
    jsonschema.validators.validator_for(schema).check_schema(schema)
    shape = {**schema, "properties": {**schema["properties"], "cases": {"type": "array", "minItems": 1,
                                                                       "items": {"type": "object"}}}}
    return _make_validator(shape)


@lru_cache(maxsize=None)
def _case_validator(kind: str | None) -> jsonschema.protocols.Validator:
    """``$defs/common`` merged with the kind's own fields into one flat object schema.

    The same rules as ``$defs/case`` (which editors use), without its ``if``/``then`` chain
    and ``unevaluatedProperties``, whose evaluation dominated collection time, and with each
    ``$ref`` to ``$defs`` written out in place (:func:`_inline_refs`: jsonschema resolves a
    reference on every use). An unknown kind is checked against the common fields only (its
    ``kind`` is the error).
    """
    defs = case_schema()["$defs"]
    common = defs["common"]
    own = defs.get(f"kind_{kind}", {}) if kind is not None else {}
    flat = {
        "type": "object",
        "properties": {**common["properties"], **own.get("properties", {})},
        "required": [*common["required"], *own.get("required", [])],
        "additionalProperties": kind is None,
    }
    return _make_validator(_inline_refs(flat, defs))


def _inline_refs(node, defs: dict):
    """``node`` (a schema fragment) with every ``{"$ref": "#/$defs/<name>", ...}`` replaced by
    ``{"allOf": [<the named fragment, itself inlined>], ...}`` at the same place: the same
    checks, and the same errors (keyword, value, instance path), since jsonschema reports the
    errors of an ``allOf`` branch as it reports those behind a ``$ref``.

    Raises:
        KeyError: a ``$ref`` names a ``$defs`` entry the schema does not have.
        ValueError: a ``$ref`` that does not point into ``#/$defs/``.
    """
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    inlined = {}
    for key, value in node.items():
        if key == "$ref":
            if not isinstance(value, str) or not value.startswith("#/$defs/"):
                raise ValueError(f"case schema: cannot inline the reference {value!r} (only #/$defs/<name>)")
            inlined.setdefault("allOf", []).insert(0, _inline_refs(defs[value[len("#/$defs/"):]], defs))
        elif key == "allOf":
            inlined.setdefault("allOf", []).extend(_inline_refs(value, defs))
        else:
            inlined[key] = _inline_refs(value, defs)
    return inlined


def _compiled(schema: dict):
    """``schema`` (draft-07 keywords only, as the file shape and the flat per-kind schemas
    are) compiled to a Python function by fastjsonschema."""
    return fastjsonschema.compile({key: value for key, value in schema.items() if key not in ("$schema", "$id", "$defs")})


@lru_cache(maxsize=1)
def _fast_checks() -> tuple:
    """``(file shape check, {kind: case check})``: the same schemas as :func:`_file_validator`
    and :func:`_case_validator`, compiled once."""
    schema = case_schema()
    shape = {**schema, "properties": {**schema["properties"], "cases": {"type": "array", "minItems": 1,
                                                                       "items": {"type": "object"}}}}
    defs = schema["$defs"]
    common = defs["common"]
    checks = {}
    for kind in schema_kinds():
        own = defs.get(f"kind_{kind}", {})
        flat = {"type": "object", "properties": {**common["properties"], **own.get("properties", {})},
                "required": [*common["required"], *own.get("required", [])], "additionalProperties": False}
        checks[kind] = _compiled(_inline_refs(flat, defs))
    return _compiled(shape), checks


def _passes_fast(data) -> bool:
    """Whether ``data`` (a whole case file) passes the compiled schemas: the file's shape, and
    each case the schema of its kind. ``True`` means jsonschema finds no error either (the same
    rules; ``tests/case_files/test_case_schema.py`` compares the two on generated files);
    ``False`` sends the file to jsonschema, whose errors are what a reviewer reads (the
    compiled check may be stricter, never looser)."""
    file_check, case_checks = _fast_checks()
    try:
        file_check(data)
        for entry in data["cases"]:
            case_checks[entry["kind"]](entry)
    except (fastjsonschema.JsonSchemaException, KeyError, TypeError):
        return False
    return True


def _schema_errors(data: dict) -> list[jsonschema.ValidationError]:
    """Every schema violation of ``data`` (a whole case file), as jsonschema reports it: the
    file's shape, then each case against its kind's schema. A file the compiled check passes
    (:func:`_passes_fast`, the common case) has none and is not walked again."""
    if _passes_fast(data):
        return []
    errors = list(_file_validator().iter_errors(data))
    if errors or not isinstance(data.get("cases"), list):
        return errors
    kinds = set(schema_kinds())
    for index, entry in enumerate(data["cases"]):
        kind = entry.get("kind")
        validator = _case_validator(kind if kind in kinds else None)
        seen = set()
        for error in validator.iter_errors(entry):
            error.path.extendleft((index, "cases"))
            # one complaint per value and rule (an asr `max_rate` is both a named field and a rate)
            if (tuple(error.absolute_path), error.validator) not in seen:
                seen.add((tuple(error.absolute_path), error.validator))
                errors.append(error)
    return errors


def schema_kinds() -> list[str]:
    """The case kinds the schema accepts."""
    return list(case_schema()["$defs"]["common"]["properties"]["kind"]["enum"])


@dataclass
class CaseFile:
    """A loaded case file: its defaults, its valid cases, and every fault found."""

    path: Path
    language: str | None = None
    cases: list[Case] = field(default_factory=list)
    errors: list[CaseFileError] = field(default_factory=list)


def _child_items(node: Located) -> list:
    """``(key or index, child)`` of a mapping or sequence node; ``[]`` for a scalar."""
    if isinstance(node.children, dict):
        return list(node.children.items())
    if isinstance(node.children, list):
        return list(enumerate(node.children))
    return []


def _non_finite(node: Located, path: list) -> list[tuple[list, int]]:
    """``(path, line)`` of every NaN or infinity anywhere under ``node`` (YAML's ``.nan``,
    ``.inf``, ``-.inf``): one check for all numeric fields, as a NaN compares false with
    every bound (``max_rate: .nan`` would pass any result) and an infinite ``tolerance``
    passes everything."""
    if isinstance(node.value, float) and not math.isfinite(node.value):
        return [(path, node.line)]
    items = _child_items(node)
    return [found for key, child in items for found in _non_finite(child, [*path, key])]


def _number_texts(node: Located, path: list, in_expect: bool = False) -> list[tuple[list, int, str]]:
    """``(path, line, problem)`` of every unquoted value under an ``expect`` mapping that YAML
    1.1 read as text but that stands for a number (``1e-5``, ``nan``; :func:`number_text_problem`).
    ``expect`` values may be text, so the schema takes them: found here, the file is refused when
    it loads rather than the case failing on a text compared with a number."""
    if in_expect and isinstance(node.value, str) and node.plain:
        problem = number_text_problem(node.plain, text_allowed=True)
        return [(path, node.line, problem)] if problem else []
    items = _child_items(node)
    return [found for key, child in items
            for found in _number_texts(child, [*path, key], in_expect or (key == "expect" and len(path) == 2))]


#: Case fields that say how ``expect`` is compared; written inside ``expect`` they are a
#: misplaced setting, not a value to check.
CHECK_SETTINGS = ("tolerance", "fingerprint_tolerance")


def _misplaced_settings(case: Case) -> list[tuple[str, str]]:
    """``(field, message)`` for each of :data:`CHECK_SETTINGS` that the case's kind takes as a
    case field (``$defs/kind_<kind>`` of the schema) but that is written inside ``expect``."""
    expect = case.fields.get("expect")
    if not isinstance(expect, dict):
        return []
    own = case_schema()["$defs"].get(f"kind_{case.kind}", {}).get("properties", {})
    return [(key, f"expect.{key}: {key} is a field of the case, not of expect: move it out "
                  f"(next to expect, e.g. `{key}: 0.005`)") for key in CHECK_SETTINGS if key in expect and key in own]


def _kind_problems(case: Case, node: Located) -> list[tuple[int, str]]:
    """``(line, message)`` of each fault found at load time: a misplaced check setting
    (:func:`_misplaced_settings`), then the case's kind's own (its runner's optional
    ``load_problems(case)``, e.g. a ``score`` case's unknown ``expect`` key)."""
    from pytest_asrbench.cases.kinds import get_runner  # the kinds import this module's users

    found = _misplaced_settings(case)
    check = getattr(get_runner(case.kind), "load_problems", None)
    if check is not None:
        found += [(key, message) for key, message in check(case) if key not in dict(found)]
    lines = []
    for field_name, message in found:
        top = field_name.split(".")[0]
        holder = node.children.get("expect") if isinstance(node.children, dict) else None
        line = (holder.key_lines.get(field_name) if holder is not None else None) or node.key_lines.get(top, node.line)
        lines.append((line, message))
    return lines


def _duplicate_ids(data: dict, root: Located) -> list[tuple[int, str]]:
    """``(line, message)`` of each case whose id an earlier case of the file has: every case
    with a string id counts, whatever other faults the file has, so a file's duplicate ids are
    reported with its schema faults, in one pass."""
    entries, node = data.get("cases"), root.children.get("cases")
    if not isinstance(entries, list) or node is None:
        return []
    seen: dict[str, int] = {}
    duplicates = []
    for entry, child in zip(entries, node.children):
        case_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(case_id, str):
            continue
        if case_id in seen:
            duplicates.append((child.line, f"duplicate case id {case_id!r} (first on line {seen[case_id]}); ids must "
                                           "be unique in a file"))
        else:
            seen[case_id] = child.line
    return duplicates


def load_case_file(path: Path) -> CaseFile:
    """Load and validate one case file; never raises for content faults (they go to ``errors``).

    A file with any fault yields no cases: it is run as one failing item, so none of its
    snapshots is used and ``--snapshot-update`` cannot delete them as unused.

    Raises:
        OSError: the file cannot be read.
    """
    result = CaseFile(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        result.errors.append(CaseFileError(path, line, f"not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8"))
        return result
    try:
        root = parse(text)
    except YamlShapeError as exc:
        result.errors.append(CaseFileError(path, exc.line, exc.message))
        return result
    if root is None or not isinstance(root.value, dict):
        result.errors.append(CaseFileError(path, root.line if root else 1,
                                           "a case file must be a mapping with a 'cases' list (and optional 'language', 'metric')"))
        return result
    data = root.value

    non_finite = _non_finite(root, [])
    faults = [(line, f"{where_in(where, data)}{locate(root, where)[0].plain or ''} must be a finite number, "
                     "not NaN or infinity") for where, line in non_finite]
    number_texts = _number_texts(root, [])
    faults += [(line, f"{where_in(where, data)}{problem}") for where, line, problem in number_texts]
    # such a value is the only fault worth naming at its place (not also "below the minimum")
    named = [list(where) for where, *_ in non_finite + number_texts]
    faults += [fault for error in _schema_errors(data) if list(error.absolute_path) not in named
               for fault in describe(error, data, root, case_schema())]
    duplicates = _duplicate_ids(data, root)  # with the schema's faults, not after they are fixed
    faults += duplicates
    for line, message in sorted(faults, key=lambda fault: fault[0]):
        result.errors.append(CaseFileError(path, line, message))
    if faults:
        return result

    default_language = data.get("language")
    default_metric = data.get("metric", DEFAULT_METRIC)
    if default_language is not None:
        try:
            result.language = resolve_language(default_language)
        except ValueError as exc:
            result.errors.append(CaseFileError(path, root.key_lines["language"], str(exc)))
            return result
    if default_metric not in METRICS:
        result.errors.append(CaseFileError(path, root.key_lines.get("metric", root.line),
                                           f"unknown metric {default_metric!r}; known metrics: {', '.join(sorted(METRICS))}"))
        return result

    cases_node = root.children["cases"]
    for entry, node in zip(data["cases"], cases_node.children):
        line = node.line
        case_id = entry["id"]
        language = entry.get("language", default_language)
        if language is None:
            result.errors.append(CaseFileError(path, line, f"case {case_id!r} has no language: set 'language' at the top of the file or on the case"))
            continue
        try:
            language = resolve_language(language)
        except ValueError as exc:
            result.errors.append(CaseFileError(path, node.key_lines.get("language", line), f"case {case_id!r}: {exc}"))
            continue
        metric = entry.get("metric", default_metric)
        records_signature = _records_signature(entry["kind"])
        if metric not in METRICS and not (records_signature and metric in provider_metrics()):
            signature_only = sorted(provider_metrics()) if records_signature else []
            result.errors.append(CaseFileError(path, node.key_lines.get("metric", line),
                                               f"case {case_id!r}: unknown metric {metric!r}; known metrics: "
                                               f"{', '.join(sorted({*METRICS, *signature_only}))}"
                                               + ("" if records_signature or metric not in provider_metrics()
                                                  else f" ({metric} is gated by a `kind: signature` case only; "
                                                       "its own kind (benchmark) names it itself)")))
            continue
        case = Case(
            id=case_id,
            kind=entry["kind"],
            language=language,
            metric=metric,
            fields={key: value for key, value in entry.items() if key not in common_fields()},
            file=path,
            line=line,
            lines=dict(node.key_lines),
            note=entry.get("note"),
            source=entry.get("source"),
            xfail=entry.get("xfail"),
        )
        problems = _kind_problems(case, node)
        result.errors += [CaseFileError(path, line_of, f"case {case_id!r}: {message}") for line_of, message in problems]
        if not problems:
            result.cases.append(case)
    if result.errors:
        result.cases = []
    return result


def _records_signature(kind: str) -> bool:
    """Whether cases of ``kind`` record a metric's signature (and so may name a provider's metric)."""
    from pytest_asrbench.cases.kinds import get_runner  # the kinds import this module's users
    from pytest_asrbench.cases.registry import snapshot_rules_of

    return snapshot_rules_of(get_runner(kind)).records_signature


def provider_metrics() -> frozenset[str]:
    """Metrics outside the score path whose signature a ``kind: signature`` case may record
    (:mod:`pytest_asrbench.signatures.providers`: the benchmark's ``th_bench_cer``)."""
    return frozenset(_providers())
