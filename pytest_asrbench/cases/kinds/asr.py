"""The ``asr`` kind: transcribe a clip with an STT engine and score it against its reference.

Fields: ``audio`` (path relative to the YAML file), ``reference``, optional ``engine``
(``{name: faster-whisper, model: embedded, beam_size: 5, ...}``, see
:class:`~pytest_asrbench.asr.faster_whisper_engine.DecodeSettings`), optional ``expect`` and
``tolerance``.

The output snapshotted: audio path and SHA-256, the reference, the engine (name, model
SHA-256, output-changing decode settings, versions of the pinned engine libraries), and
``recordings``: what each kernel fingerprint the clip was recorded on gave
(:mod:`pytest_asrbench.asr.fingerprint`, ``x86_64-avx2-mkl-avx512``), one item per distinct
result with its ``fingerprints``: the transcript, its flags (``no_speech``, hallucination
signs) and the same score dict as the ``score`` kind (normalized forms, alignment, counts,
rate). Never timings or versions of the
metric (signature cases hold those).

Every recorded transcript is scored again on every run, so a normalizer or scoring change
moves every recording and fails the case wherever it runs. The transcript of this run is
compared exactly when its fingerprint is recorded; on a fingerprint the snapshot does not
record, it passes when it equals a recorded transcript, or when its rate is within
``fingerprint_tolerance`` (default :data:`DEFAULT_FINGERPRINT_TOLERANCE`) of the nearest
recording's and it has no flag that no recording has; the run summary names every such case
with both fingerprints. A case marked ``unstable: <reason>`` (its transcript is known to
depend on the CPU) is listed there but not judged on an unrecorded fingerprint.

``--snapshot-update`` re-scores every recording and re-records this host's fingerprint where
it is recorded; it adds this host's fingerprint only with ``--asrbench-record-fingerprint``
(so a re-record after a version bump never buries its change under new transcripts); a new
case, or a changed engine (model, decode settings, pinned library versions), records this
host's fingerprint alone. Why: docs/asr.md, "Transcripts by CPU".

``expect`` keys: anything of the score (``rate``, ``substitutions`` ..., with ``tolerance``,
default 1e-9), ``max_rate`` (rate <= value), ``transcript`` (exact text) and ``flags`` (exact
list, each one of :data:`~pytest_asrbench.asr.engine.KNOWN_FLAGS`).

Bad input raises an :class:`~pytest_asrbench.errors.AsrbenchError` subclass before any snapshot
is compared (the case fails at its ``file:line`` with the message): the ``asr`` extra not
installed, an unknown or unusable engine setting, missing or undecodable audio, a language the
engine lacks, an unknown ``expect`` key or flag.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_asrbench.cases.figures import score_figures
from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import RunContext, register
from pytest_asrbench.cases.kinds.score import DEFAULT_TOLERANCE, EXPECT_VALUE, check_expectations, explained, lookup
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.serialize import score_to_dict

_SPECIAL_EXPECT = ("max_rate", "transcript", "flags")
#: How far (absolute rate) a transcript decoded on an unrecorded kernel fingerprint may be from
#: the nearest recording's rate. Measured over 16 kernel settings of one host (docs/asr.md,
#: "Transcripts by CPU"): 15 of the 24 sample clips never moved; the others are few-word
#: synthetic clips where one word is 0.12-0.5 of the rate, and are marked ``unstable``.
DEFAULT_FINGERPRINT_TOLERANCE = 0.25
#: Fields of the score that the case header holds once, or that signature cases hold.
_HEADER_FIELDS = ("metric", "language", "version", "config_version")


SCHEMA: dict = {
    "properties": {
        "audio": {"type": "string", "minLength": 1,
                  "description": "Audio file, relative to the YAML file (wav, flac, mp3, ogg)."},
        "reference": {"type": "string"},
        "engine": {
            "type": "object",
            "description": "Engine settings: name (default faster-whisper), model (embedded | folder | cached "
                           "name), beam_size, temperature, vad_filter, condition_on_previous_text, compute_type, "
                           "cpu_threads, detect_language, silence_gate, transcribe_options.",
            "properties": {
                "name": {"type": "string"},
                "model": {"type": "string"},
                "beam_size": {"type": "integer", "minimum": 1},
                "temperature": {"type": "number", "minimum": 0},
                "vad_filter": {"type": "boolean"},
                "condition_on_previous_text": {"type": "boolean"},
                "compute_type": {"type": "string"},
                "device": {"type": "string"},
                "cpu_threads": {"type": "integer", "minimum": 0},
                "num_workers": {"type": "integer", "minimum": 1},
                "detect_language": {"type": "boolean"},
                "silence_gate": {"type": "boolean"},
                "transcribe_options": {"type": "object"},
            },
            "additionalProperties": False,
        },
        "expect": {
            "type": "object",
            "minProperties": 1,
            "description": "rate/hits/... of the score (with tolerance), max_rate, transcript (exact), "
                           "flags (exact list).",
            "properties": {
                "max_rate": {"type": "number", "minimum": 0},
                "transcript": {"type": "string"},
                "flags": {"type": "array", "items": {"type": "string"}},
            },
            "additionalProperties": EXPECT_VALUE,
            "$ref": "#/$defs/score_values",
        },
        "tolerance": {"type": "number", "minimum": 0},
        "fingerprint_tolerance": {
            "type": "number", "minimum": 0,
            "description": "On a kernel fingerprint the snapshot does not record: how far (absolute rate) the "
                           "transcript's rate may be from the nearest recording's (default 0.25; docs/asr.md).",
        },
        "unstable": {
            "type": "string", "minLength": 1,
            "description": "Why this clip's transcript depends on the CPU: on a kernel fingerprint the snapshot "
                           "does not record, its transcript is reported, not judged (recorded fingerprints are "
                           "still compared exactly).",
        },
    },
    "required": ["audio", "reference"],
}


def _check_expected_flags(expect: dict[str, Any]) -> None:
    """Raise when ``expect.flags`` names a flag no engine sets (a typo would otherwise read
    as "flags are [], expected ['no_speeech']")."""
    from pytest_asrbench.asr.engine import KNOWN_FLAGS
    from pytest_asrbench.asr.errors import AsrCaseError

    flags = expect.get("flags")
    if flags is None:
        return
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise AsrCaseError(f"expect.flags: expected a list of flag names, got {flags!r}")
    unknown = sorted(set(flags) - KNOWN_FLAGS)
    if unknown:
        raise AsrCaseError(
            f"expect.flags: unknown flag(s) {', '.join(map(repr, unknown))}; known flags: "
            f"{', '.join(sorted(KNOWN_FLAGS))}"
        )


def _check_expected_keys(expect: dict[str, Any], output: dict[str, Any], scored: dict[str, Any]) -> None:
    """Raise when an ``expect`` key is neither special nor a value of the output."""
    from pytest_asrbench.asr.errors import AsrCaseError

    unknown = [key for key in expect if key not in _SPECIAL_EXPECT and not lookup(output, key)[0]]
    if unknown:
        details = ", ".join(sorted(scored.get("details", {}))) or "none"
        raise AsrCaseError(
            f"expect: unknown key(s) {', '.join(map(repr, unknown))}; an asr case takes "
            f"{', '.join(_SPECIAL_EXPECT)}, or a value of the score: "
            f"{', '.join(sorted(k for k in scored if k != 'details'))} (details: {details})"
        )


def _recording(transcript: str, flags, reference: str, case: Case) -> dict[str, Any]:
    """One fingerprint's entry: the transcript, its flags and its score (without versions)."""
    scored = score_to_dict(score(reference, transcript, case.language, case.metric))
    for name in _HEADER_FIELDS:
        scored.pop(name, None)
    return {"transcript": transcript, "flags": sorted(flags), **scored}


def group_recordings(recordings: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The snapshot form of ``{fingerprint: entry}``: one item per distinct entry (transcript,
    flags and score), with the sorted ``fingerprints`` that gave it, ordered by first
    fingerprint. A clip that decodes alike everywhere is one item, so a diff stays short."""
    groups: dict[str, dict[str, Any]] = {}
    for label in sorted(recordings):
        entry = recordings[label]
        key = json.dumps(entry, sort_keys=True, ensure_ascii=False)
        groups.setdefault(key, {"fingerprints": [], **entry})["fingerprints"].append(label)
    return list(groups.values())


def ungroup_recordings(items: Any, where: str) -> dict[str, dict[str, Any]]:
    """Inverse of :func:`group_recordings`: ``{fingerprint: {"transcript", "flags", ...}}``.

    Raises:
        AsrCaseError: the recorded snapshot's ``recordings`` is not a list of items with
            ``fingerprints``, ``transcript`` and ``flags`` (names the snapshot).
    """
    from pytest_asrbench.asr.errors import AsrCaseError

    out: dict[str, dict[str, Any]] = {}
    if not isinstance(items, list):
        raise AsrCaseError(f"{where}: 'recordings' must be a list of recordings; restore the snapshot from git "
                           "or re-record it with --snapshot-update")
    for item in items:
        if not isinstance(item, dict) or not {"fingerprints", "transcript", "flags"} <= set(item):
            raise AsrCaseError(f"{where}: a recording lacks fingerprints, transcript or flags; restore the snapshot "
                               "from git or re-record it with --snapshot-update")
        entry = {key: value for key, value in item.items() if key != "fingerprints"}
        for label in item["fingerprints"]:
            out[label] = entry
    return out


def _measured_against(previous: dict[str, dict[str, Any]], label: str, now: dict[str, Any] | None
                      ) -> dict[str, Any] | None:
    """The recorded figures this run's are compared with in the summary and reports: those of
    this run's fingerprint, else of the recording nearest in rate (as the snapshot compares an
    unrecorded fingerprint); ``None`` when nothing usable is recorded."""
    if label in previous:
        return score_figures(previous[label])
    recorded = [found for found in (score_figures(entry) for _, entry in sorted(previous.items())) if found]
    if not recorded or now is None:
        return recorded[0] if recorded else None
    return min(recorded, key=lambda found: abs((found["rate"] or 0.0) - (now["rate"] or 0.0)))


def _comparable_rate(entry: dict[str, Any]) -> float:
    """The rate, or the insertion count for an empty reference (whose rate is ``None``)."""
    return float(entry["insertions"]) if entry["rate"] is None else float(entry["rate"])


def judge_unrecorded(current: dict[str, Any], recordings: dict[str, dict[str, Any]], tolerance: float) -> dict:
    """Compare a transcript decoded on an unrecorded fingerprint with the recordings.

    Returns ``{"ok", "same_as", "nearest", "nearest_rate", "rate", "new_flags", "tolerance"}``:
    ``ok`` when the transcript equals a recorded one (``same_as`` names those fingerprints), or
    when its rate is within ``tolerance`` of the nearest recording's and it carries no flag that
    no recording carries (a new hallucination sign is not hardware noise).
    """
    same_as = sorted(label for label, entry in recordings.items() if entry["transcript"] == current["transcript"])
    rate = _comparable_rate(current)
    nearest = min(sorted(recordings), key=lambda label: abs(_comparable_rate(recordings[label]) - rate))
    nearest_rate = _comparable_rate(recordings[nearest])
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


def _engine_changes(recorded: dict[str, Any], header: dict[str, Any]) -> list[str]:
    """What differs between a recorded snapshot's header and this run's, as phrases."""
    changes = []
    for key, value in header.items():
        before = recorded.get(key)
        if before == value:
            continue
        if key == "engine" and isinstance(before, dict):
            for name in sorted(set(before) | set(value)):
                if before.get(name) != value.get(name):
                    changes.append(f"engine {name}: {_short(before.get(name))} -> {_short(value.get(name))}")
        else:
            changes.append(f"{key}: {_short(before)} -> {_short(value)}")
    return changes


def _short(value: Any, width: int = 80) -> str:
    text = "not recorded" if value is None else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _relative(path: Path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


@register
class AsrRunner:
    kind = "asr"
    #: Its cases transcribe audio: the ASR stage counts them for its progress bar.
    transcribes = True

    def run(self, case: Case, context: RunContext) -> CaseResult:
        from pytest_asrbench.asr.errors import require_asr_extra

        require_asr_extra()  # AsrDependencyError: "the ASR engine needs the asr extra ..."
        from pytest_asrbench.asr.fingerprint import fingerprint_label
        from pytest_asrbench.asr.run_record import clip_entry
        from pytest_asrbench.cases.asr_session import get_session

        fields = case.fields
        expect = fields.get("expect") or {}
        _check_expected_flags(expect)
        audio = (Path(case.file).parent / fields["audio"]).resolve()
        settings = dict(fields.get("engine") or {})
        session = get_session(context.pytest_config)
        # AsrError (an AsrbenchError) propagates: bad settings, audio or language fail the
        # case at its file:line, before any snapshot comparison
        engine = session.engine_for(settings)
        clip = session.transcribe(audio, case.language, settings)
        transcript = clip.transcript
        reference = fields["reference"]
        identity = engine.identity()
        kernels = identity.get("kernels")
        label = fingerprint_label(kernels) if kernels and "arch" in kernels else (
            kernels.get("device", "default") if kernels else "default")
        pinned = identity.get("pinned_libraries") or []
        header: dict[str, Any] = {
            "kind": case.kind,
            "audio": fields["audio"],
            "audio_sha256": clip.audio_sha256,
            "language": case.language,
            "metric": case.metric,
            "reference": reference,
            "engine": {
                "name": identity["engine"],
                "model_sha256": identity["model"]["sha256"],
                "decode": identity["decode"],
                "libraries": {name: identity["libraries"].get(name) for name in pinned},
            },
        }
        current = _recording(transcript.text, transcript.flags, reference, case)
        recorded = context.recorded(case)
        changes = _engine_changes(recorded, header) if isinstance(recorded, dict) else []
        previous = (ungroup_recordings(recorded.get("recordings", []), f"snapshot of {case.where()}")
                    if isinstance(recorded, dict) and not changes else {})
        recordings = {
            name: _recording(entry["transcript"], entry["flags"], reference, case) for name, entry in previous.items()
        }
        failures: list[str] = []
        hint = None
        tolerance = fields.get("fingerprint_tolerance", DEFAULT_FINGERPRINT_TOLERANCE)
        adding = context.adding_fingerprints  # the snapshot session's mode
        if label in recordings or adding or not recordings:
            recordings[label] = current
            if changes:
                hint = ("the snapshot was recorded with another engine, audio or reference ("
                        + "; ".join(changes) + "). This is not a metric change and needs no version bump: if "
                        "intended, re-record with `pytest --asrbench <paths> --snapshot-update`")
            else:
                hint = (f"the transcript on kernel fingerprint {label} (recorded for it) changed, or its score "
                        "did: a score change needs a version bump (README, 'Re-recording'); a transcript change "
                        "with the same engine, model and kernels is engine drift to investigate")
        else:
            verdict = judge_unrecorded(current, recordings, tolerance)
            if fields.get("unstable"):
                verdict = {**verdict, "ok": True, "unstable": fields["unstable"]}
            session.note_unrecorded(
                case=f"{_relative(case.file, context.rootpath)}::{case.id}", fingerprint=label, recorded=sorted(recordings), verdict=verdict,
            )
            if not verdict["ok"]:
                failures.append(self._unrecorded_failure(label, current, recordings, verdict))
        output: dict[str, Any] = {**header, "recordings": group_recordings(recordings)}
        session.add_clip(
            clip_entry(
                clip,
                case=f"{case.file}::{case.id}",
                reference=reference,
                rate=current["rate"],
                unit=current["unit"],
                metric=case.metric,
                engine_key=session.engine_key(settings),
                kernel_fingerprint=label,
            )
        )
        _check_expected_keys(expect, current, current)
        failures += self._check(expect, current, fields.get("tolerance", DEFAULT_TOLERANCE))
        if failures:
            # the reviewer's account of this run's transcript: both forms, the aligned view, rescues
            failures = explained(failures, score(reference, transcript.text, case.language, case.metric), context.color)
        return CaseResult(output, failures, snapshot_hint=hint, figures=score_figures(current),
                          recorded_figures=_measured_against(previous, label, score_figures(current)))

    @staticmethod
    def _unrecorded_failure(label: str, current: dict, recordings: dict, verdict: dict) -> str:
        lines = [
            f"kernel fingerprint {label} is not recorded for this clip (recorded: {', '.join(sorted(recordings))}), "
            "and its transcript is beyond hardware noise:",
            f"  transcript here:     {current['transcript']!r} (rate {verdict['rate']:.4g}, flags {current['flags']})",
            f"  nearest recording:   {recordings[verdict['nearest']]['transcript']!r} on {verdict['nearest']} "
            f"(rate {verdict['nearest_rate']:.4g}, flags {recordings[verdict['nearest']]['flags']})",
        ]
        if abs(verdict["rate"] - verdict["nearest_rate"]) > verdict["tolerance"]:
            lines.append(f"  the rates differ by {abs(verdict['rate'] - verdict['nearest_rate']):.4g}, more than "
                         f"fingerprint_tolerance {verdict['tolerance']}")
        if verdict["new_flags"]:
            lines.append(f"  flag(s) no recording has: {', '.join(verdict['new_flags'])}")
        lines.append("If this host's kernels are simply another code path, record them (no version bump needed): "
                     "`pytest --asrbench <paths> --snapshot-update --asrbench-record-fingerprint`; otherwise "
                     "investigate the engine.")
        return "\n".join(lines)

    @staticmethod
    def _check(expect: dict[str, Any], output: dict[str, Any], tolerance: float) -> list[str]:
        plain = {k: v for k, v in expect.items() if k not in _SPECIAL_EXPECT}
        failures = check_expectations(output, plain, tolerance) if plain else []
        if "max_rate" in expect:
            rate = output["rate"]
            if rate is None or rate > expect["max_rate"] + tolerance:
                failures.append(f"rate is {rate!r}, expected at most {expect['max_rate']!r}")
        if "transcript" in expect and output["transcript"] != expect["transcript"]:
            failures.append(f"transcript is {output['transcript']!r}, expected {expect['transcript']!r}")
        if "flags" in expect and sorted(output["flags"]) != sorted(expect["flags"]):
            failures.append(f"flags are {output['flags']!r}, expected {sorted(expect['flags'])!r}")
        return failures
