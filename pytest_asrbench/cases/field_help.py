"""What to write for a case-file field, in the user's terms: its meaning and one example line,
read from the field's rule in the case schema (its ``description`` and first ``examples``
entry, written in each kind module's ``SCHEMA``). The loader's messages about a missing or
too-short field and ``asrbench add-case --help``'s list of each kind's fields both read them
here, so a user is pointed at documentation every user has, never at a file inside the package;
an unknown name is answered with the nearest known one (:func:`did_you_mean`).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from typing import Any

#: Where every user (an installed package has no repository files) reads each kind's fields.
FIELD_DOCS = "each kind's fields: `asrbench add-case --help`, or the README's \"Writing cases\""

#: Plain YAML words that a plain scalar would turn into a boolean or null (YAML 1.1).
_YAML_WORDS = {"yes", "no", "on", "off", "y", "n", "true", "false", "null"}
_PLAIN = re.compile(r"[A-Za-z][\w./-]*")


#: How close a misspelt name must be to a known one to be named (difflib's ratio): ``expcet`` ->
#: ``expect``, ``langauge`` -> ``language``, not ``zzz`` -> anything.
CLOSE_ENOUGH = 0.75


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name nearest to ``name`` (:func:`difflib.get_close_matches`, the standard
    library's ratio, cutoff :data:`CLOSE_ENOUGH`); ``None`` when none is close."""
    found = difflib.get_close_matches(name, [str(key) for key in known], n=1, cutoff=CLOSE_ENOUGH)
    return found[0] if found else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"did you mean `expect`?"`` for the known name nearest to ``name`` (:func:`closest`);
    empty when none is close. Every message about an unknown name says it this way."""
    found = closest(name, known)
    return f"did you mean `{found}`?" if found else ""


def yaml_flow(value: Any) -> str:
    """``value`` as YAML flow text a case file can hold: ``"it is fine"`` (quoted unless a plain
    word reads back as the same text), ``[flight, fight]``, ``{rate: 0.25}``, ``0.0``, ``true``,
    ``null``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        if _PLAIN.fullmatch(value) and value.lower() not in _YAML_WORDS:
            return value
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_flow(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {yaml_flow(item)}" for key, item in value.items()) + "}"
    return repr(value)


def example_line(name: str, rule: Any) -> str | None:
    """``"expect: \\"it is fine\\""``: the field ``name`` with the first of its rule's
    ``examples``; ``None`` when the rule gives none."""
    examples = rule.get("examples") if isinstance(rule, dict) else None
    return f"{name}: {yaml_flow(examples[0])}" if examples else None


def field_meaning(rule: Any) -> str | None:
    """The first sentence of the rule's ``description``, without its period; ``None`` when it
    has none."""
    description = rule.get("description") if isinstance(rule, dict) else None
    if not isinstance(description, str) or not description:
        return None
    return re.split(r"\.\s+(?=[A-Z])", description)[0].rstrip(".")


def what_to_write(name: str, rule: Any) -> str:
    """``"the normalized form the text must have; e.g. `expect: \\"it is fine\\"`"`` (either part
    left out when the rule lacks it; empty when it lacks both)."""
    meaning, example = field_meaning(rule), example_line(name, rule)
    parts = ([meaning[0].lower() + meaning[1:]] if meaning else []) + ([f"e.g. `{example}`"] if example else [])
    return "; ".join(parts)


def kinds_help(schema: dict) -> str:
    """Each kind's required fields with an example line and what each holds (``asrbench
    add-case --help`` ends with it): the reference of what a case file's case needs."""
    kinds = schema["$defs"]["common"]["properties"]["kind"]["enum"]
    lines = ["the fields each kind of case needs in a case file (besides `id` and `kind`; `note`, `source`, "
             "`xfail`, `language`, `metric` are optional):"]
    for kind in kinds:
        about = field_meaning(schema["$defs"].get(f"kind_{kind}", {}))
        lines += ["", f"  kind: {kind}" + (f"   ({about})" if about else ""),
                  *(f"    {line}" for line in kind_fields(schema, kind))]
    return "\n".join(lines)


def kind_fields(schema: dict, kind: str) -> list[str]:
    """One line per required field of ``kind`` (``schema`` the whole case schema), each with
    what to write: ``"expect: \\"it is fine\\"   the normalized form the text must have"``."""
    fragment = schema["$defs"].get(f"kind_{kind}", {})
    rules = fragment.get("properties", {})
    lines = []
    for name in fragment.get("required", []):
        rule = rules.get(name, {})
        example = example_line(name, rule) or f"{name}: ..."
        meaning = field_meaning(rule)
        lines.append(f"{example:<44} {meaning}" if meaning else example)
    return lines
