"""The shipped JSON Schema of ``asrbench.bench/1`` records, and reading a record back.

The schema file is package data (``record.schema.json`` beside this module, in the wheel);
validation uses ``jsonschema`` (a core dependency) with the draft the file declares.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from pathlib import Path

from pytest_asrbench.bench.errors import BenchFileNotFoundError, RecordError

SCHEMA_RESOURCE = "record.schema.json"


@functools.lru_cache(maxsize=1)
def record_schema() -> dict:
    """The JSON Schema (a dict) of an ``asrbench.bench/1`` record."""
    text = importlib.resources.files(__package__).joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    return json.loads(text)


def schema_problems(record: dict) -> list[str]:
    """Every way ``record`` breaks the schema, as ``path: message`` lines (empty: valid)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(record_schema(), format_checker=jsonschema.FormatChecker())
    return [f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in sorted(validator.iter_errors(record), key=lambda e: list(map(str, e.absolute_path)))]


def check_record(record: dict, where: str = "the record") -> dict:
    """``record`` if it validates.

    Raises:
        RecordError: it does not (the first five problems are listed).
    """
    problems = schema_problems(record)
    if problems:
        shown = "; ".join(problems[:5]) + (f" and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise RecordError(f"{where} does not match the asrbench.bench/1 schema: {shown}")
    return record


def read_record(path: Path) -> dict:
    """Read and validate a record file.

    Raises:
        BenchFileNotFoundError: no such file.
        RecordError: not JSON, another schema, or not valid.
    """
    path = Path(path)
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BenchFileNotFoundError(f"{path}: no such record") from None
    except ValueError as exc:
        raise RecordError(f"{path}: not a JSON record ({exc})") from None
    if not isinstance(value, dict) or value.get("schema") != "asrbench.bench/1":
        found = value.get("schema") if isinstance(value, dict) else type(value).__name__
        raise RecordError(f"{path}: schema {found!r}, not asrbench.bench/1; give records written by asrbench bench run")
    return check_record(value, str(path))
