"""The recording policy of ``asr`` snapshots: which host's transcripts are kept, and how this
run's transcript is judged against them.

A snapshot keeps one recording per host identity (:func:`pytest_asrbench.asr.identity.identity_name`):
the transcript, its flags and its score. In the file, equal recordings are one item listing
the hosts that gave it under ``recorded_on`` (:func:`group_recordings`), so a clip that
decodes alike everywhere is one item and a diff stays short.

The policy (docs/asr.md, "Transcripts by CPU"):

- **exact**: this host's identity equals a *native* recording's (made with no kernel variable
  set): the transcript is compared exactly, as the snapshot holds it;
- **tolerance** everywhere else (an identity no snapshot records, or a simulated host, one
  with kernel variables set, which never decides exactness): the transcript passes when it
  equals a recorded one, or when its rate is within the case's ``fingerprint_tolerance``
  (default :data:`DEFAULT_TOLERANCE`, absolute) of the nearest recording's and it brings no
  flag no recording has (a new hallucination sign is not hardware noise). A case marked
  ``unstable`` is reported there, not judged.

Every recorded transcript is scored again on every run by the case kind, so a normalizer or
scoring change moves the snapshot on any host, whatever the mode.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from pytest_asrbench._shared.failure_reason import distinct_numbers
from pytest_asrbench.asr.identity import is_simulated, short_name

#: The key of a snapshot recording's host list.
RECORDED_ON = "recorded_on"
#: How far (absolute rate) a transcript judged by tolerance may be from the nearest
#: recording's rate. Measured over 16 kernel settings of one host and an AMD EPYC (docs/asr.md,
#: "Transcripts by CPU"): 15 of the 24 sample clips never moved; the others are few-word
#: synthetic clips where one word is 0.12-0.5 of the rate, and are marked ``unstable``.
DEFAULT_TOLERANCE = 0.25
#: Exact: a native recording of this host's identity exists.
EXACT = "exact"
#: Tolerance: no native recording of this host's identity.
TOLERANCE = "tolerance"


def group_recordings(recordings: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The snapshot form of ``{host name: entry}``: one item per distinct entry (transcript,
    flags and score) with the sorted host names that gave it under :data:`RECORDED_ON`,
    ordered by first name."""
    groups: dict[str, dict[str, Any]] = {}
    for name in sorted(recordings):
        entry = recordings[name]
        key = json.dumps(entry, sort_keys=True, ensure_ascii=False)
        groups.setdefault(key, {RECORDED_ON: [], **entry})[RECORDED_ON].append(name)
    return list(groups.values())


def ungroup_recordings(items: Any, where: str) -> dict[str, dict[str, Any]]:
    """Inverse of :func:`group_recordings`: ``{host name: {"transcript", "flags", ...}}``.

    Raises:
        AsrCaseError: ``items`` is not a list of items with ``recorded_on`` (a list of host
            names), ``transcript`` and ``flags`` (names ``where``, the snapshot).
    """
    from pytest_asrbench.asr.errors import AsrCaseError

    advice = "restore the snapshot from git or re-record it with --snapshot-update"
    if not isinstance(items, list):
        raise AsrCaseError(f"{where}: 'recordings' must be a list of recordings; {advice}")
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        if not isinstance(item, dict) or not {RECORDED_ON, "transcript", "flags"} <= set(item):
            raise AsrCaseError(f"{where}: a recording lacks {RECORDED_ON}, transcript or flags; {advice}")
        hosts = item[RECORDED_ON]
        if not isinstance(hosts, list) or not hosts or not all(isinstance(h, str) for h in hosts):
            raise AsrCaseError(f"{where}: a recording's {RECORDED_ON} must be a non-empty list of host names; "
                               f"{advice}")
        entry = {key: value for key, value in item.items() if key != RECORDED_ON}
        for name in hosts:
            out[name] = entry
    return out


def transcript_for_host(recordings: list[Mapping[str, Any]], here: str) -> tuple[str, str]:
    """The transcript a report or an export shows for host ``here``, and a note saying whose.

    Args:
        recordings: an ``asr`` snapshot's grouped recordings (:func:`group_recordings`'s shape:
            each with :data:`RECORDED_ON` and ``pairs``), at least one.
        here: the host name (``identity_name``) of this machine.

    Returns:
        ``(transcript, note)``: the recording of ``here`` when it is recorded, else the first
        recording, with the hosts it names.
    """
    chosen = next((item for item in recordings if here in item.get(RECORDED_ON, ())), recordings[0])
    if here in chosen.get(RECORDED_ON, ()):
        note = f"hypothesis: the recording of this machine ({short_name(here)})"
    else:
        hosts = chosen.get(RECORDED_ON, [])
        more = f" and {len(hosts) - 1} more" if len(hosts) > 1 else ""
        note = (f"hypothesis: this machine ({short_name(here)}) is not recorded; the recording of "
                f"{short_name(hosts[0]) if hosts else 'an unnamed host'}{more}")
    return str(chosen["pairs"][0]["hypothesis"]), note


def mode_for(here: str, recordings: Mapping[str, Any]) -> tuple[str, str]:
    """``(mode, why)``: :data:`EXACT` when ``recordings`` has a native recording of ``here``,
    else :data:`TOLERANCE` with the reason in a few words."""
    if is_simulated(here):
        return TOLERANCE, "kernel variables set: a simulated host never decides exactness"
    if here in recordings:
        return EXACT, "a native recording of this host"
    if not recordings:
        return TOLERANCE, "nothing recorded"
    return TOLERANCE, "no native recording of this host"


def comparable_rate(entry: Mapping[str, Any]) -> float:
    """The rate, or the insertion count for an empty reference (whose rate is ``None``)."""
    return float(entry["insertions"]) if entry["rate"] is None else float(entry["rate"])


def judge(current: Mapping[str, Any], recordings: Mapping[str, Mapping[str, Any]], tolerance: float) -> dict:
    """Judge a transcript by tolerance against ``recordings`` (not empty).

    Returns ``{"ok", "same_as", "nearest", "nearest_rate", "rate", "new_flags", "tolerance"}``:
    ``ok`` when the transcript equals a recorded one (``same_as`` names those hosts), or when
    its rate is within ``tolerance`` of the nearest recording's (``nearest``) and it carries no
    flag that no recording carries (``new_flags``).
    """
    same_as = sorted(name for name, entry in recordings.items() if entry["transcript"] == current["transcript"])
    rate = comparable_rate(current)
    nearest = min(sorted(recordings), key=lambda name: abs(comparable_rate(recordings[name]) - rate))
    nearest_rate = comparable_rate(recordings[nearest])
    known_flags = set().union(*(entry["flags"] for entry in recordings.values()))
    new_flags = sorted(set(current["flags"]) - known_flags)
    within = abs(nearest_rate - rate) <= tolerance + 1e-12
    return {
        "ok": bool(same_as) or (within and not new_flags),
        "same_as": same_as,
        "nearest": nearest,
        "nearest_rate": nearest_rate,
        "rate": rate,
        "new_flags": new_flags,
        "tolerance": tolerance,
    }


def kept_recordings(here: str, current: dict[str, Any], recordings: dict[str, dict[str, Any]], *, mode: str,
                    updating: bool, record_host: bool) -> dict[str, dict[str, Any]]:
    """The recordings the snapshot holds after this run: this host's transcript replaces its
    native recording (exact mode), is added where nothing is recorded, or where a re-record
    asks for it (``updating`` and ``record_host``: ``--snapshot-update --asrbench-record-fingerprint``);
    otherwise the recordings stay as they were (re-scored by the caller)."""
    if mode == EXACT or not recordings or (updating and record_host):
        return {**recordings, here: current}
    return dict(recordings)


def rate_name(unit: str | None) -> str:
    """``WER`` for a word rate, ``CER`` for a character rate, else ``rate``."""
    return {"word": "WER", "char": "CER"}.get(unit or "", "rate")


def _rate_text(entry: Mapping[str, Any]) -> str:
    name = rate_name(entry.get("unit"))
    if entry["rate"] is None:
        return f"{name} n/a, {entry['insertions']} insertion(s)"
    return f"{name} {entry['rate']:.4g}"


def _hosts_text(names: list[str]) -> str:
    shown = short_name(names[0])
    return shown if len(names) == 1 else f"{shown} and {len(names) - 1} more"


def transcript_lines(here: str, current: Mapping[str, Any], recordings: Mapping[str, Mapping[str, Any]],
                     stored: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """One line per distinct recording (``recorded on <host>: '<transcript>' (WER x)``, hosts
    that gave the same result on one line; ``, was WER y`` where ``stored``, the snapshot as
    recorded, has another rate: a re-scoring moved it), then ``now on <this host>: ...``: what
    an ``asr`` failure shows after what failed."""
    lines = []
    for item in group_recordings(recordings):
        flags = f", flags {', '.join(item['flags'])}" if item["flags"] else ""
        before = (stored or {}).get(item[RECORDED_ON][0])
        was = f", was {_rate_text(before)}" if before is not None and _rate_text(before) != _rate_text(item) else ""
        lines.append(f"recorded on {_hosts_text(item[RECORDED_ON])}: {item['transcript']!r} "
                     f"({_rate_text(item)}{was}{flags})")
    flags = f", flags {', '.join(current['flags'])}" if current["flags"] else ""
    lines.append(f"now on {short_name(here)}: {current['transcript']!r} ({_rate_text(current)}{flags})")
    return lines


def short_diff(before: str, after: str) -> str:
    """The word-level difference of two transcripts in one line (``-old +new`` runs)."""
    old, new = before.split(), after.split()
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            parts.append("-[" + " ".join(old[i1:i2]) + "]")
        if j2 > j1:
            parts.append("+[" + " ".join(new[j1:j2]) + "]")
    return "transcript diff: " + (" ".join(parts) if parts else "none (same words; spacing or flags differ)")


def tolerance_failure(why: str, verdict: Mapping[str, Any]) -> str:
    """Why a transcript judged by tolerance failed: a first line that says so with both rates
    (``transcript beyond hardware noise: rate 83.3%, nearest recording 0.0% (on ...; judged by
    tolerance: ...)``), then what exceeded the tolerance and what to do."""
    now, nearest = distinct_numbers(verdict["rate"], verdict["nearest_rate"], percent=True)
    lines = [f"transcript beyond hardware noise: rate {now}, nearest recording {nearest} "
             f"(on {short_name(verdict['nearest'])}; judged by tolerance: {why})"]
    gap = abs(verdict["rate"] - verdict["nearest_rate"])
    if gap > verdict["tolerance"]:
        lines.append(f"  the rates differ by {gap:.4g}, more than fingerprint_tolerance {verdict['tolerance']}")
    if verdict["new_flags"]:
        lines.append(f"  flag(s) no recording has: {', '.join(verdict['new_flags'])}")
    lines.append("  investigate the engine; a native recording of this host (exact from then on) is made with "
                 "`pytest --asrbench <paths> --snapshot-update --asrbench-record-fingerprint`")
    return "\n".join(lines)
