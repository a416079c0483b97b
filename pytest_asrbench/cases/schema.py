"""The JSON Schema of case files, generated from the case-kind modules.

The document has the file's own keys (``language``, ``metric``, ``description``, ``cases``),
the fields every case has (``$defs/common``), the shared fragments the kinds reference
(``$defs/text_list``, ``$defs/score_values``), each kind's fragment as ``$defs/kind_<kind>``
(its module's ``SCHEMA``) and ``$defs/case``, which picks a kind's fields by its ``kind``
(for editors; the loader validates each case against ``common`` merged with its kind's
fragment). The shipped ``cases/schema.json`` is this document; after adding or editing a kind::

    python -m pytest_asrbench.cases.schema --write     # rewrite cases/schema.json
    python -m pytest_asrbench.cases.schema --check     # exit 1 when the file is stale

``tests/case_files/test_case_schema.py`` fails when the shipped file is stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pytest_asrbench._shared.paths import shown_path
from pytest_asrbench.cases.kinds import KINDS, kind_module

SCHEMA_FILE = Path(__file__).with_name("schema.json")

#: The longest case id: the id names its snapshot file (``<id>.json``, ``<id>.json.pending``
#: for review, and ``.<id>.json.pending.<8 random>.tmp`` while it is written atomically), and
#: file systems refuse a file name longer than 255 bytes (ids are ASCII, one byte a character).
MAX_ID_LENGTH = 200

#: Fields every case may have, whatever its kind: the one definition (the loader reads their
#: names from the generated schema, `loader.common_fields`).
COMMON: dict = {
    "type": "object",
    "required": ["id", "kind"],
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$", "maxLength": MAX_ID_LENGTH,
               "description": f"Unique in its file; letters, digits, _ . -; at most {MAX_ID_LENGTH} characters "
                              "(the id names its snapshot file)", "examples": ["money-words-and-digits"]},
        "kind": None,  # {"enum": KINDS}, filled in by build_schema
        "language": {"type": "string", "minLength": 1},
        "metric": {"type": "string", "minLength": 1},
        "note": {"type": "string"},
        "source": {"type": "string"},
        "xfail": {"type": "string", "minLength": 1,
                  "description": "Reason of a known limitation; an unexpected pass fails."},
    },
}

#: Fragments shared by several kinds, referenced as ``#/$defs/<name>``.
SHARED_DEFS: dict = {
    "text_list": {"type": "array", "items": {"type": "string"}},
    "score_values": {
        "description": "Numeric values of a Score that `expect` may name, checked at load time: rates (rate, "
                       "strict_rate, wer_hi, ... and dotted paths ending in one) are numbers >= 0 or null (empty "
                       "reference); counts (hits, substitutions, deletions, insertions, reference_length, errors, "
                       "*_errors, *_words) are whole numbers >= 0.",
        "patternProperties": {
            "(^|[._])([a-z0-9_]*rate|[wc]er_[A-Za-z0-9_-]+)$": {"type": ["number", "null"], "minimum": 0},
            "(^|[._])(hits|substitutions|deletions|insertions|reference_length|[a-z0-9_]*errors|[a-z0-9_]*words)$":
                {"type": "integer", "minimum": 0},
        },
    },
}


def build_schema() -> dict:
    """The case-file schema as a JSON-able dict (draft 2020-12).

    Raises:
        TypeError: a kind module has no ``SCHEMA`` dict (names the module).
    """
    fragments = {}
    for kind in KINDS:
        module = kind_module(kind)
        fragment = getattr(module, "SCHEMA", None)
        if not isinstance(fragment, dict):
            raise TypeError(f"{module.__name__} defines no SCHEMA dict; a case-kind module needs one "
                            "(see pytest_asrbench/cases/kinds/__init__.py)")
        fragments[f"kind_{kind}"] = fragment
    kind = {"enum": list(KINDS), "description": "What the case checks; it selects the case's other fields.",
            "examples": ["score"]}
    common = {**COMMON, "properties": {name: rule if rule is not None else kind
                                       for name, rule in COMMON["properties"].items()}}
    case = {
        "allOf": [{"$ref": "#/$defs/common"}]
        + [{"if": {"properties": {"kind": {"const": kind}}}, "then": {"$ref": f"#/$defs/kind_{kind}"}} for kind in KINDS],
        "unevaluatedProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://pytest-asrbench.invalid/case-file.schema.json",
        "title": "pytest-asrbench case file",
        "description": "A YAML file of speech-recognition evaluation cases. Each case's `kind` selects its fields "
                       "(see $defs).",
        "type": "object",
        "additionalProperties": False,
        "required": ["cases"],
        "properties": {
            "language": {"type": "string", "minLength": 1,
                         "description": "Default language tag of every case (e.g. en, hi)."},
            "metric": {"type": "string", "minLength": 1, "description": "Default metric of every case (stt_wer, cer)."},
            "description": {"type": "string"},
            "cases": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/case"}},
        },
        "$defs": {"common": common, **SHARED_DEFS, **fragments, "case": case},
    }


def schema_text() -> str:
    """The text of ``schema.json``: :func:`build_schema` as indented JSON with a final newline."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_asrbench.cases.schema",
                                     description="Generate cases/schema.json from the case-kind modules.")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help=f"rewrite {SCHEMA_FILE}")
    action.add_argument("--check", action="store_true", help="exit 1 when the shipped file is stale")
    args = parser.parse_args(argv)
    text = schema_text()
    if args.write:
        from pytest_asrbench._shared.atomic import write_atomic

        write_atomic(SCHEMA_FILE, text.encode("utf-8"))
        print(f"wrote {shown_path(SCHEMA_FILE)}")
        return 0
    if args.check:
        current = SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.exists() else ""
        if current != text:
            print(f"{shown_path(SCHEMA_FILE)} is stale; regenerate it: python -m pytest_asrbench.cases.schema --write",
                  file=sys.stderr)
            return 1
        print(f"{shown_path(SCHEMA_FILE)} is up to date")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
