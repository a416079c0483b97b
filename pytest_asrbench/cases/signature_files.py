"""Signature cases on disk: read the recorded signatures, and re-record one in place.

The cases-layer half of the version gate (:mod:`pytest_asrbench.signatures.version_gate` holds the
pure half): :func:`read_recorded` is the :data:`~pytest_asrbench.signatures.version_gate.RecordedReader`
of every :class:`~pytest_asrbench.signatures.version_gate.SessionGate`, and :func:`rewrite_case` is
what ``--snapshot-update`` runs for a bumped signature case.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pytest_asrbench.cases.kinds import get_runner
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.registry import snapshot_rules_of
from pytest_asrbench.cases.yaml_lines import parse
from pytest_asrbench.signatures.version_gate import Recorded, SessionGate
from pytest_asrbench.snapshot_layout import is_case_suffix
from pytest_asrbench.signatures.compute import Signature


def read_recorded(rootpath: Path, case_dirs: list[str]) -> tuple[dict[tuple[str, str], Recorded], list[str]]:
    """Every signature case under ``rootpath / <each of case_dirs>``, by (metric, language).

    Returns ``(recorded, problems)``. A problem (a case file that does not load and may hold
    a signature case; a second signature case for one pair) makes the recorded signatures
    untrustworthy: the gate then refuses every re-recording until it is fixed.
    """
    found: dict[tuple[str, str], Recorded] = {}
    where: dict[tuple[str, str], Path] = {}
    problems: list[str] = []
    for name in case_dirs:
        folder = Path(rootpath) / name
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if not is_case_suffix(path) or not path.is_file() or b"signature" not in path.read_bytes():
                continue  # cannot hold a signature case
            loaded = load_case_file(path)
            if loaded.errors:
                # It may hold a signature case: until the file is fixed, no pair can be
                # shown unchanged, so nothing is re-recorded.
                problems.append(f"{loaded.errors[0]} (fix this case file first)")
                continue
            for case in loaded.cases:
                if not snapshot_rules_of(get_runner(case.kind)).records_signature:
                    continue
                pair = (case.metric, case.language)
                if pair in found:
                    problems.append(
                        f"{case.where()}: a second signature case for {pair[0]} in {pair[1]} "
                        f"(the first is in {where[pair]}); keep one")
                    continue
                found[pair] = Recorded.from_case(case, rootpath)
                where[pair] = path
    return found, problems


def project_gate(rootpath: Path, case_dirs: list[str] | None = None) -> SessionGate:
    """A :class:`SessionGate` over the signature cases of the project at ``rootpath``."""
    return SessionGate(rootpath, case_dirs, read_recorded)


def _scalar_line(line: str, key: str, value: str) -> str:
    pattern = re.compile(rf"^(?P<head>\s*(?:-\s+)?{re.escape(key)}\s*:\s*)(?P<value>\"[^\"]*\"|'[^']*'|[^#\s][^#]*?)?"
                         rf"(?P<tail>\s+#.*)?(?P<eol>\r?\n?)$")
    match = pattern.match(line)
    if match is None:
        raise ValueError(f"cannot find `{key}:` on line {line!r}")
    return f"{match['head']}{json.dumps(value, ensure_ascii=False)}{match['tail'] or ''}{match['eol']}"


def rewrite_case(path: Path, case_id: str, current: Signature) -> bool:
    """Write ``current`` into the signature case ``case_id`` of ``path``, editing only its
    ``version``, ``config_version``, ``signature`` and ``components`` lines (comments, order
    and every other line of the file stay as they are). Returns whether the file changed
    (an equal file is not rewritten).

    Raises:
        ValueError: the case or one of its fields is not found, or the edit would not read back
            as the intended values (the file is then left untouched).
    """
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    root = parse(text)
    entry = next((node for node in root.children["cases"].children
                  if isinstance(node.value, dict) and node.value.get("id") == case_id), None)
    if entry is None:
        raise ValueError(f"{path}: no case with id {case_id!r}")
    values = {"version": current.version, "config_version": current.config_version, "signature": current.signature}
    for key, value in values.items():
        if key not in entry.key_lines:
            raise ValueError(f"{path}:{entry.line}: case {case_id!r} has no `{key}:` to re-record")
        number = entry.key_lines[key] - 1
        lines[number] = _scalar_line(lines[number], key, value)
    if "components" in entry.key_lines:
        start = entry.key_lines["components"] - 1
        node = entry.children["components"]
        child_lines = list(node.key_lines.values()) if isinstance(node.children, dict) else []
        end = max(child_lines, default=start + 1) - 1
        head = re.match(r"^(\s*(?:-\s+)?components\s*:)", lines[start])
        key_indent = len(head[1]) - len(head[1].lstrip(" -")) if head else 0
        if child_lines:
            first = lines[min(child_lines) - 1]
            indent = first[: len(first) - len(first.lstrip())]
        else:
            indent = " " * (key_indent + 2)
        eol = "\r\n" if lines[start].endswith("\r\n") else "\n"
        block = [f"{head[1] if head else 'components:'}{eol}"] + [
            f"{indent}{json.dumps(name, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}{eol}"
            for name, value in current.components.items()
        ]
        lines[start:end + 1] = block
    new_text = "".join(lines)
    check = parse(new_text)
    written = next(node.value for node in check.children["cases"].children
                   if isinstance(node.value, dict) and node.value.get("id") == case_id)
    wrong = [key for key, value in values.items() if str(written.get(key)) != value]
    if "components" in entry.key_lines and written.get("components") != dict(current.components):
        wrong.append("components")
    if wrong:
        raise ValueError(f"{path}: re-recording case {case_id!r} would not read back as written; "
                         "edit its signature fields by hand (asrbench signature --case prints them)")
    if new_text == text:
        return False
    path.write_text(new_text, encoding="utf-8")
    return True


def case_files_holding(rootpath: Path, case_dirs: list[str], pair: tuple[str, str],
                       skip: set[Path]) -> list[Path]:
    """The case files under ``rootpath / <each of case_dirs>``, other than those in ``skip``
    (resolved paths), that hold a case of ``pair`` (metric, language) or cannot be loaded
    (and so may hold one). A run that did not collect them has not seen every case of the pair."""
    found = []
    for name in case_dirs:
        folder = Path(rootpath) / name
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if not is_case_suffix(path) or not path.is_file() or path.resolve() in skip:
                continue
            loaded = load_case_file(path)
            if loaded.errors or any((case.metric, case.language) == tuple(pair) for case in loaded.cases):
                found.append(path)
    return found
