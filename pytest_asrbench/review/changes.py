"""What a pending change changes, for a person deciding on it.

:func:`locate` finds the case a snapshot belongs to (its case file, node id, and the
(metric, language) pair whose signature gates it); :func:`describe` gives the lines
``asrbench review`` shows: every changed value of the snapshot (old -> new: normalized
forms, rates, counts, transcripts), and for each scored pair whose output changed, the
alignment of the new output, rescored with the current code (the code that wrote the change).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.version_gate_session import gated_metric
from pytest_asrbench.review.pending import PendingChange, PendingError
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.display import elide, render_alignment
from pytest_asrbench.snapshot import snapshot_file_name
from pytest_asrbench.snapshot_layout import CASE_SUFFIXES

#: At most this many changed values are listed per change; the rest are counted.
MAX_VALUES = 40
#: At most this many pairs get an alignment per change.
MAX_ALIGNMENTS = 5


@dataclass(frozen=True)
class CaseRef:
    """The case a snapshot records: ``nodeid`` (``cases/en/numbers.yaml::minus``) and the
    (``metric``, ``language``) pair whose signature gates it; all ``None`` when the case file
    or the case is gone (a pending deletion of an unused snapshot)."""

    nodeid: str | None
    metric: str | None
    language: str | None


def locate(snapshot: Path, root: Path, snapshots: str, case_dirs: list[str]) -> CaseRef:
    """The case of ``snapshot`` (``<root>/<snapshots>/<rel>/<id>.json``): the case file
    ``<root>/<case dir>/<rel>.yaml`` (or ``.yml``) whose case id gives that file name."""
    try:
        relative = snapshot.parent.resolve().relative_to((root / snapshots).resolve())
    except ValueError:
        return CaseRef(None, None, None)
    for name in case_dirs:
        for suffix in CASE_SUFFIXES:
            case_file = root / name / relative.with_suffix(suffix)
            if not case_file.is_file():
                continue
            for case in load_case_file(case_file).cases:
                if snapshot_file_name(case.id) == snapshot.name:
                    shown = case_file.relative_to(root).as_posix()
                    return CaseRef(f"{shown}::{case.id}", gated_metric(case), case.language)
    return CaseRef(None, None, None)


def _leaves(value, path: str = "") -> dict[str, object]:
    """``{json path: scalar}`` of a parsed JSON document (lists by index, objects by key)."""
    if isinstance(value, dict):
        found: dict[str, object] = {}
        for key in value:
            found.update(_leaves(value[key], f"{path}.{key}" if path else str(key)))
        return found
    if isinstance(value, list):
        found = {}
        for index, item in enumerate(value):
            found.update(_leaves(item, f"{path}[{index}]"))
        return found or {path: []}
    return {path: value}


def _shown(value) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return elide(json.dumps(value, ensure_ascii=False), 160)


def _by_host(document) -> tuple[object, dict[str, dict]]:
    """An ``asr`` snapshot split into its document without ``recordings`` and ``{host name:
    recording}`` (recordings are matched by the host that made them, never by list position);
    any other document unchanged, with no hosts."""
    from pytest_asrbench.asr.recordings import RECORDED_ON

    items = document.get("recordings") if isinstance(document, dict) else None
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get(RECORDED_ON), list)
                                              for i in items):
        return document, {}
    hosts = {}
    for item in items:
        entry = {key: value for key, value in item.items() if key != RECORDED_ON}
        for name in item[RECORDED_ON]:
            hosts[str(name)] = entry
    return {key: value for key, value in document.items() if key != "recordings"}, hosts


def _differences(old: dict[str, object], new: dict[str, object]) -> list[tuple[str, object, object]]:
    """``(path, before, after)`` of each leaf that differs, alignment entries left out."""
    found = []
    for path in sorted(set(old) | set(new), key=lambda p: (p.count("."), p)):
        if ".alignment" in path or path.startswith("alignment"):
            continue
        before, after = old.get(path, "(none)"), new.get(path, "(none)")
        if before != after:
            found.append((path, before, after))
    return found


def _line(path: str, before, after) -> str:
    return (f"{path}: {before if before == '(none)' else _shown(before)} -> "
            f"{after if after == '(none)' else _shown(after)}")


def changed_values(recorded: str | None, obtained: str | None) -> list[str]:
    """``path: old -> new`` for each value that differs between two snapshot texts
    (``(none)`` for a side without it), alignment entries left out (shown rescored instead).
    An ``asr`` snapshot's recordings are compared host by host (``recordings[<host>].transcript``),
    hosts with the same change on one line (``<host> and N more``)."""
    from pytest_asrbench.asr.identity import short_name

    old_doc, old_hosts = _by_host(json.loads(recorded)) if recorded else ({}, {})
    new_doc, new_hosts = _by_host(json.loads(obtained)) if obtained else ({}, {})
    lines = [_line(*found) for found in _differences(_leaves(old_doc), _leaves(new_doc))]
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for host in sorted(set(old_hosts) | set(new_hosts)):
        if host not in new_hosts:
            grouped.setdefault(("", "recorded", "(none)"), []).append(host)
            continue
        if host not in old_hosts:
            grouped.setdefault(("", "(none)", "recorded: " + _shown(new_hosts[host].get("transcript"))),
                               []).append(host)
            continue
        for path, before, after in _differences(_leaves(old_hosts[host]), _leaves(new_hosts[host])):
            grouped.setdefault((path, json.dumps(before, ensure_ascii=False), json.dumps(after, ensure_ascii=False)),
                               []).append(host)
    for (path, before, after), hosts in grouped.items():
        who = short_name(hosts[0]) + (f" and {len(hosts) - 1} more" if len(hosts) > 1 else "")
        where = f"recordings[{who}]" + (f".{path}" if path else "")
        if path:
            lines.append(_line(where, json.loads(before), json.loads(after)))
        else:
            lines.append(f"{where}: {before} -> {after}")
    if len(lines) > MAX_VALUES:
        lines = lines[:MAX_VALUES] + [f"... {len(lines) - MAX_VALUES} more changed value(s)"]
    return lines


def _pairs(document: dict) -> list[dict]:
    """The scored pairs of a snapshot: a score case's ``pairs``, an asr case's recordings' pairs."""
    found = list(document.get("pairs") or [])
    for recording in document.get("recordings") or []:
        found += recording.get("pairs") or []
    return [pair for pair in found if isinstance(pair, dict) and "reference" in pair and "hypothesis" in pair]


def alignments(recorded: str | None, obtained: str | None, metric: str | None, language: str | None) -> list[str]:
    """The new alignment of each pair whose normalized forms or rate changed (at most
    :data:`MAX_ALIGNMENTS`), rescored with the current code."""
    if not obtained or metric is None or language is None:
        return []
    old = {(p["reference"], p["hypothesis"]): p for p in _pairs(json.loads(recorded))} if recorded else {}
    lines: list[str] = []
    shown = 0
    for pair in _pairs(json.loads(obtained)):
        before = old.get((pair["reference"], pair["hypothesis"]))
        keys = ("normalized_reference", "normalized_hypothesis", "rate")
        if before is not None and all(before.get(k) == pair.get(k) for k in keys):
            continue
        if shown == MAX_ALIGNMENTS:
            lines.append("... more changed pairs (see the values above)")
            break
        result = score(pair["reference"], pair["hypothesis"], language, metric)
        for scored in result.pairs:
            lines.append(f"alignment now ({metric} {_shown(scored.rate) if scored.rate is not None else 'n/a'}):")
            lines += render_alignment(scored.alignment, indent="  ").splitlines()
        shown += 1
    return lines


def describe(change: PendingChange, case: CaseRef, root: Path) -> list[str]:
    """The lines shown for ``change``: what it is, which case, and what it changes."""
    where = change.snapshot.relative_to(root) if change.snapshot.is_relative_to(root) else change.snapshot
    lines = [f"{change.action} {where}" + (f"  ({case.nodeid})" if case.nodeid else "  (no case names it)")]
    if change.stale():
        lines.append("  the recording changed after the pending run: this change can only be rejected or "
                     "re-made (run the update with --asrbench-pending again)")
    recorded = change.recorded()
    if recorded is not None:
        try:
            if not isinstance(json.loads(recorded), dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise PendingError(f"{change.snapshot}: the recording is not a snapshot ({exc}); restore it "
                               "(git checkout -- <file>) and run the update with --asrbench-pending again") from exc
    if change.action == "delete":
        lines.append("  the snapshot is unused (no case id names it) and would be deleted")
        return lines
    lines += [f"  {line}" for line in changed_values(recorded, change.obtained)]
    lines += [f"  {line}" for line in alignments(recorded, change.obtained, case.metric, case.language)]
    return lines
