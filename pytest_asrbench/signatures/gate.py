"""The version gate: compare a recorded signature with the current one, and re-record it.

A recorded signature is a ``kind: signature`` case (``cases/<lang>/signature.yaml``). The
verdicts, and what each asks the developer to do:

- ``unchanged``: the signature and both versions are as recorded;
- ``changed``: an input changed while neither the metric's version nor the language
  config's version did -- "metric changed without a version bump";
- ``bumped``: a version moved and the case was not re-recorded; the documented command
  (:data:`RECORD_COMMAND`) re-records the signature case and the snapshots together;
- ``unrecorded``: no signature case exists for the pair (nothing to compare with).

``--snapshot-update`` is refused for every case of a ``changed`` pair (see
:func:`update_refusal`), so a snapshot can only be re-recorded together with a bump.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_asrbench.signatures.compute import METRICS_MODULE, Signature, compute
from pytest_asrbench.signatures.sources import PACKAGE

#: The one command that re-records signatures and snapshots (after a version bump).
RECORD_COMMAND = "pytest --asrbench {cases} --snapshot-update"
SIGNATURE_FIELDS = ("version", "config_version", "signature", "components")


def record_command(cases: str) -> str:
    return RECORD_COMMAND.format(cases=cases)


@dataclass(frozen=True)
class Recorded:
    """The values a signature case holds (``version`` is the metric's version)."""

    metric: str
    language: str
    version: str
    config_version: str
    signature: str
    components: dict[str, str] = field(default_factory=dict)
    where: str = ""
    cases: str = "cases"

    @classmethod
    def from_case(cls, case, rootpath: Path | None = None) -> "Recorded":
        folder = case.file.parent
        try:
            cases = folder.resolve().relative_to(Path(rootpath).resolve()).as_posix() if rootpath else str(folder)
        except ValueError:
            cases = str(folder)
        fields = case.fields
        return cls(case.metric, case.language, str(fields["version"]), str(fields["config_version"]),
                   str(fields["signature"]), {str(k): str(v) for k, v in (fields.get("components") or {}).items()},
                   case.where(), cases)


@dataclass(frozen=True)
class Verdict:
    state: str  # unchanged | changed | bumped | unrecorded
    message: str = ""
    changes: tuple[str, ...] = ()


def describe_changes(recorded: dict[str, str], current: dict[str, str]) -> list[str]:
    """One phrase per component that differs: ``module x.py``, ``library jiwer 4.0.0→4.1.0``."""
    changes = []
    for name in sorted(set(recorded) | set(current)):
        before, after = recorded.get(name), current.get(name)
        if before == after:
            continue
        if before is None:
            changes.append(f"{name} (new)")
        elif after is None:
            changes.append(f"{name} (removed)")
        elif name.startswith("library "):
            changes.append(f"{name} {before}→{after}")
        else:
            changes.append(name)
    return changes


def _is_config_change(change: str) -> bool:
    """Whether a changed component belongs to the language data (config, lexicon, its files)."""
    name = change.split(" (")[0]
    if name.startswith("data "):
        return not name.startswith(f"data {PACKAGE}/")
    return name.startswith(("config ", "lexicon "))


def unbumped_message(metric: str, language: str, metric_version: str, config_version: str,
                     changes: list[str], command: str) -> str:
    """The "metric changed without a version bump" finding (shared with ``check-version``)."""
    if changes and all(_is_config_change(change) for change in changes):
        target = f"configs/{language}.toml (version = \"{config_version}\")"
    else:
        target = (f"metric {metric} in {METRICS_MODULE} (now \"{metric_version}\"), or configs/{language}.toml "
                  f"(now \"{config_version}\") if only {language} scores change,")
    listing = "\n".join(f"  changed: {change}" for change in changes) or "  changed: the recorded signature"
    return (f"metric changed without a version bump ({metric}, {language}): bump the version of {target} "
            f"and re-record with `{command}`\n{listing}")


def judge(recorded: Recorded, current: Signature) -> Verdict:
    """The verdict of one signature case against the current signature."""
    command = record_command(recorded.cases)
    moved = []
    if recorded.version != current.version:
        moved.append(f"metric {current.metric} {recorded.version}→{current.version}")
    if recorded.config_version != current.config_version:
        moved.append(f"config {current.language}.toml {recorded.config_version}→{current.config_version}")
    changes = describe_changes(recorded.components, current.components)
    if recorded.signature != current.signature and not changes:
        changes = [f"signature {recorded.signature}→{current.signature}"]
    if moved:
        return Verdict("bumped", (
            f"version bumped ({'; '.join(moved)}) but the signature case at {recorded.where} is not re-recorded: "
            f"run `{command}` to record the new signature and snapshots together"), tuple(changes))
    if recorded.signature != current.signature:
        return Verdict("changed", unbumped_message(current.metric, current.language, current.version,
                                                   current.config_version, changes, command), tuple(changes))
    return Verdict("unchanged")


# ---- per-session cache --------------------------------------------------------------------

class SessionGate:
    """Signature verdicts of one pytest session, computed once per (metric, language)."""

    def __init__(self, rootpath: Path, case_dirs: list[str] | None = None):
        self.rootpath = Path(rootpath)
        self.case_dirs = list(case_dirs or ["cases"])
        self._current: dict[tuple[str, str], Signature] = {}
        self._recorded: dict[tuple[str, str], Recorded] | None = None
        self._verdicts: dict[tuple[str, str], Verdict] = {}
        #: Faults that make the recorded signatures untrustworthy (unreadable case files,
        #: two signature cases for one pair): every re-recording is refused while any stands.
        self.problems: list[str] = []

    def current(self, metric: str, language: str) -> Signature:
        key = (metric, language)
        if key not in self._current:
            self._current[key] = compute(metric, language)
        return self._current[key]

    def recorded(self) -> dict[tuple[str, str], Recorded]:
        """Every signature case under the case folders, by (metric, language)."""
        if self._recorded is None:
            from pytest_asrbench.cases.loader import load_case_file

            found: dict[tuple[str, str], Recorded] = {}
            where: dict[tuple[str, str], Path] = {}
            for name in self.case_dirs:
                folder = self.rootpath / name
                if not folder.is_dir():
                    continue
                for path in sorted(folder.rglob("*.y*ml")):
                    if b"signature" not in path.read_bytes():
                        continue  # cannot hold a signature case
                    loaded = load_case_file(path)
                    if loaded.errors:
                        # It may hold a signature case: until the file is fixed, no pair can be
                        # shown unchanged, so nothing is re-recorded.
                        self.problems.append(f"{loaded.errors[0]} (fix this case file first)")
                        continue
                    for case in loaded.cases:
                        if case.kind != "signature":
                            continue
                        pair = (case.metric, case.language)
                        if pair in found:
                            self.problems.append(
                                f"{case.where()}: a second signature case for {pair[0]} in {pair[1]} "
                                f"(the first is in {where[pair]}); keep one")
                            continue
                        found[pair] = Recorded.from_case(case, self.rootpath)
                        where[pair] = path
            self._recorded = found
        return self._recorded

    def verdict(self, metric: str, language: str) -> Verdict:
        key = (metric, language)
        if key not in self._verdicts:
            recorded = self.recorded().get(key)
            self._verdicts[key] = Verdict("unrecorded") if recorded is None else judge(recorded, self.current(*key))
        return self._verdicts[key]


GATE_KEY = pytest.StashKey[SessionGate]()
_DEFAULT_GATE: list[SessionGate] = []


def session_gate(config) -> SessionGate:
    """The gate of a pytest session (kept on its config), or of the installed package's root."""
    if config is None:
        if not _DEFAULT_GATE:
            from pytest_asrbench.signatures.sources import installed_source

            _DEFAULT_GATE.append(SessionGate(installed_source().root))
        return _DEFAULT_GATE[0]
    gate = config.stash.get(GATE_KEY, None)
    if gate is None:
        gate = SessionGate(config.rootpath, config.getini("asrbench_case_dirs"))
        config.stash[GATE_KEY] = gate
    return gate


def updating(config) -> bool:
    """Whether this run re-records snapshots (syrupy's ``--snapshot-update``)."""
    option = getattr(config, "option", None)
    return bool(getattr(option, "update_snapshots", False))


def update_refusal(case, config) -> str | None:
    """Under ``--snapshot-update``, the reason not to re-record ``case``: its (metric, language)
    signature changed without a version bump. ``None`` when re-recording is allowed."""
    if not updating(config):
        return None
    gate = session_gate(config)
    verdict = gate.verdict(case.metric, case.language)
    if gate.problems:
        return ("--snapshot-update refused: the recorded signatures cannot be read:\n  "
                + "\n  ".join(gate.problems))
    if verdict.state != "changed":
        return None
    return "--snapshot-update refused: " + verdict.message


# ---- in-place re-recording -------------------------------------------------------------------

def _scalar_line(line: str, key: str, value: str) -> str:
    pattern = re.compile(rf"^(?P<head>\s*(?:-\s+)?{re.escape(key)}\s*:\s*)(?P<value>\"[^\"]*\"|'[^']*'|[^#\s][^#]*?)?"
                         rf"(?P<tail>\s+#.*)?(?P<eol>\r?\n?)$")
    match = pattern.match(line)
    if match is None:
        raise ValueError(f"cannot find `{key}:` on line {line!r}")
    return f"{match['head']}{json.dumps(value, ensure_ascii=False)}{match['tail'] or ''}{match['eol']}"


def rewrite_case(path: Path, case_id: str, current: Signature) -> None:
    """Write ``current`` into the signature case ``case_id`` of ``path``, editing only its
    ``version``, ``config_version``, ``signature`` and ``components`` lines (comments, order
    and every other line of the file stay as they are).

    Raises:
        ValueError: the case or one of its fields is not found, or the edit would not read back
            as the intended values (the file is then left untouched).
    """
    from pytest_asrbench.cases.yaml_lines import parse

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
    path.write_text(new_text, encoding="utf-8")


def case_yaml(current: Signature, case_id: str | None = None, indent: str = "  ") -> str:
    """A ready ``kind: signature`` entry (for ``cases/<lang>/signature.yaml``)."""
    lines = [
        f"{indent}- id: {case_id or current.metric + '-signature'}",
        f"{indent}  kind: signature",
        f"{indent}  metric: {current.metric}",
        f"{indent}  version: {json.dumps(current.version)}",
        f"{indent}  config_version: {json.dumps(current.config_version)}",
        f"{indent}  signature: {json.dumps(current.signature)}",
        f"{indent}  components:",
    ]
    lines += [f"{indent}    {json.dumps(name, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
              for name, value in current.components.items()]
    return "\n".join(lines) + "\n"
