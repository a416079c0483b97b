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
:meth:`SessionGate.update_refusal`), so a snapshot can only be re-recorded together with a
bump; and for a case whose output changes when its pair's bump is patch-level only
(:meth:`SessionGate.patch_bump_refusal`): a patch bump promises that no recorded output moves. Pure: no pytest, no case files (the cases layer reads and rewrites those, see
:mod:`pytest_asrbench.cases.signature_files` and :mod:`pytest_asrbench.cases.version_gate_session`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench.signatures.compute import METRICS_MODULE, Signature, compute
from pytest_asrbench.signatures.sources import PACKAGE, config_origin

#: The one command that re-records signatures and snapshots (after a version bump).
RECORD_COMMAND = "pytest --asrbench {cases} --snapshot-update"


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


#: ``locate(rel) -> display path or None``: the project file behind ``rel``, a path relative
#: to the configs folder (``en.toml``, ``en/spelling.merged.tsv``); ``None`` for a shipped file.
Locator = Callable[[str], "str | None"]
_CONFIG_LABELS = ("config ", "lexicon ", "data configs/")


def _where(change: str, locate: Locator | None) -> str:
    """``change`` followed by the project file it comes from, when that is a project file."""
    if locate is None:
        return change
    name = change.split(" (")[0]
    label = next((label for label in _CONFIG_LABELS if name.startswith(label)), None)
    origin = locate(name[len(label):]) if label else None
    return f"{change} (from {origin})" if origin else change


def unbumped_message(metric: str, language: str, metric_version: str, config_version: str,
                     changes: list[str], command: str, locate: Locator | None = None,
                     version_file: str = METRICS_MODULE) -> str:
    """The "metric changed without a version bump" finding (shared with ``check-version``).

    ``locate`` (see :data:`Locator`) names the project's own config files: with a project
    config folder (``asrbench_config_dirs``), the file to bump is the project's
    ``<lang>.toml``, not the shipped one, and each changed input names its project file.
    """
    config_file = (locate(f"{language}.toml") if locate else None) or f"configs/{language}.toml"
    if changes and all(_is_config_change(change) for change in changes):
        target = f"{config_file} (version = \"{config_version}\")"
    else:
        target = (f"metric {metric} in {version_file} (now \"{metric_version}\"), or {config_file} "
                  f"(now \"{config_version}\") if only {language} scores change,")
    listing = "\n".join(f"  changed: {_where(change, locate)}" for change in changes) \
        or "  changed: the recorded signature"
    return (f"metric changed without a version bump ({metric}, {language}): bump the version of {target} "
            f"and re-record with `{command}`\n{listing}")


def judge(recorded: Recorded, current: Signature, locate: Locator | None = None) -> Verdict:
    """The verdict of one signature case against the current signature (``locate``: see
    :func:`unbumped_message`)."""
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
                                                   current.config_version, changes, command, locate,
                                                   current.version_file),
                       tuple(changes))
    return Verdict("unchanged")


def _with_dependents(verdict: Verdict, recorded: Recorded, dependents: list[tuple[Recorded, str]]) -> Verdict:
    """``verdict`` with what the languages that read this pair's config need: a bump for each
    one whose signature changed unbumped, and their case folders in the re-record command."""
    if verdict.state not in ("changed", "bumped") or not dependents:
        return verdict
    own = record_command(recorded.cases)
    command = record_command(" ".join([recorded.cases, *sorted({dep.cases for dep, _ in dependents})]))
    lines = [f"configs/{dep.language}.toml reads {recorded.language}.toml: bump it as well "
             f"(its {dep.metric} signature changed too; {dep.where})" if state == "changed" else
             f"configs/{dep.language}.toml reads {recorded.language}.toml: its signature case {dep.where} "
             "is re-recorded by the same command" for dep, state in dependents]
    message = verdict.message.replace(f"`{own}`", f"`{command}`")
    head, _, rest = message.partition("\n")
    message = "\n".join([head, *lines, *([rest] if rest else [])])
    return Verdict(verdict.state, message, verdict.changes)


# ---- semantic-version levels --------------------------------------------------------------

def bump_level(before: str, after: str) -> str | None:
    """The level of a version move: ``"major"``, ``"minor"``, ``"patch"``, ``None`` when the
    version did not move, or ``"other"`` when either is not ``x.y.z`` (no level rule then).

    Source of the rule: Semantic Versioning 2.0.0 (semver.org), as this project applies it to
    metrics: a change that moves no recorded case output is a patch; one that moves any
    output is at least a minor."""
    if before == after:
        return None
    parts = [text.split(".") for text in (before, after)]
    if not all(len(p) == 3 and all(x.isdigit() for x in p) for p in parts):
        return "other"
    old, new = ([int(x) for x in p] for p in parts)
    for level, a, b in zip(("major", "minor", "patch"), old, new):
        if a != b:
            return level
    return None


def patch_only_moves(recorded: Recorded, current: Signature) -> list[str]:
    """The version moves of a bumped pair when every one is a patch bump (``[]`` otherwise):
    ``["config en.toml 1.6.0→1.6.1"]``."""
    moves = [(f"metric {current.metric}", recorded.version, current.version),
             (f"config {current.language}.toml", recorded.config_version, current.config_version)]
    levels = [(what, a, b, bump_level(a, b)) for what, a, b in moves]
    moved = [item for item in levels if item[3] is not None]
    if not moved or any(level != "patch" for *_, level in moved):
        return []
    return [f"{what} {a}→{b}" for what, a, b, _ in moved]


def patch_bump_message(metric: str, language: str, moves: list[str], command: str) -> str:
    """Why a case whose recorded output changes is not re-recorded under a patch-only bump."""
    return (f"not re-recorded: output changed under a patch-only bump of ({metric}, {language}) "
            f"({'; '.join(moves)}). A patch bump (x.y.Z) is for changes that move no "
            f"recorded output; bump at least the minor version (x.Y.0) of the metric or the config, "
            f"then re-record with `{command}`")


# ---- per-session cache --------------------------------------------------------------------

#: ``reader(rootpath, case_dirs) -> (recorded by (metric, language), problems)``: where the
#: recorded signature cases come from (the cases layer supplies
#: :func:`pytest_asrbench.cases.signature_files.read_recorded`).
RecordedReader = Callable[[Path, list[str]], tuple[dict[tuple[str, str], Recorded], list[str]]]


class SessionGate:
    """Signature verdicts of one run, computed once per (metric, language).

    ``reader`` reads the recorded signature cases under ``case_dirs`` of ``rootpath`` (see
    :data:`RecordedReader`); this module never reads case files itself.
    """

    def __init__(self, rootpath: Path, case_dirs: list[str] | None, reader: RecordedReader,
                 locate: Locator | None = None):
        self.rootpath = Path(rootpath)
        #: Names the project's own config files in messages (default: the installed configs'
        #: project folders, shown relative to ``rootpath``).
        self.locate: Locator = locate or (lambda rel: config_origin(rel, self.rootpath))
        self.case_dirs = list(case_dirs or ["cases"])
        self._reader = reader
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
            found, problems = self._reader(self.rootpath, self.case_dirs)
            self.problems.extend(problems)
            self._recorded = found
        return self._recorded

    def verdict(self, metric: str, language: str) -> Verdict:
        """The verdict of (metric, language); a ``changed`` or ``bumped`` one also names the
        other languages whose signature reads this language's config (Hindi reads en.toml for
        its code-switch view) and that need a bump or a re-record too (:meth:`dependents`)."""
        key = (metric, language)
        if key not in self._verdicts:
            recorded = self.recorded().get(key)
            if recorded is None:
                self._verdicts[key] = Verdict("unrecorded")
            else:
                verdict = judge(recorded, self.current(*key), self.locate)
                self._verdicts[key] = _with_dependents(verdict, recorded, self.dependents(metric, language))
        return self._verdicts[key]

    def dependents(self, metric: str, language: str) -> list[tuple[Recorded, str]]:
        """``(recorded, state)`` of each other language's signature case for ``metric`` whose
        components include ``config <language>.toml`` and whose own verdict is not
        ``unchanged`` (judged alone, without their own dependents)."""
        found = []
        for (other_metric, other), recorded in sorted(self.recorded().items()):
            if other_metric != metric or other == language or f"config {language}.toml" not in recorded.components:
                continue
            state = judge(recorded, self.current(metric, other), self.locate).state
            if state != "unchanged":
                found.append((recorded, state))
        return found

    def patch_bump_refusal(self, metric: str, language: str) -> str | None:
        """The reason not to re-record a case of (metric, language) *whose output changed*:
        the pair's pending bump is patch-level only (see :func:`patch_only_moves`).
        ``None`` when the pair is not bumped, or is bumped at minor level or above."""
        if self.verdict(metric, language).state != "bumped":
            return None
        recorded = self.recorded()[(metric, language)]
        moves = patch_only_moves(recorded, self.current(metric, language))
        if not moves:
            return None
        return patch_bump_message(metric, language, moves, record_command(recorded.cases))

    def update_refusal(self, metric: str, language: str, *, full: bool = True) -> str | None:
        """The reason ``--snapshot-update`` must not re-record a case of (metric, language):
        the recorded signatures cannot be read, or the signature changed without a version
        bump. ``None`` when re-recording is allowed. Every refusal opens with ``not re-recorded:``
        and then why, so the reason line a summary shows names the refusal and its pair.

        With ``full=False`` (every case but the pair's signature case), a refused pair gets
        one short line pointing to its signature case, which carries the full message: a
        pair is explained once, not once per case."""
        verdict = self.verdict(metric, language)
        if self.problems:
            return ("not re-recorded: the recorded signatures cannot be read:\n  "
                    + "\n  ".join(self.problems))
        if verdict.state != "changed":
            return None
        if not full:
            where = self.recorded()[(metric, language)].where
            return (f"not re-recorded: ({metric}, {language}) changed without a version bump; nothing is written "
                    f"for this pair (what to bump: the signature case at {where})")
        return "not re-recorded: " + verdict.message


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
