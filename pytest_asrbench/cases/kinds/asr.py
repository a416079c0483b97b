"""The ``asr`` kind: transcribe a clip with an STT engine and score it against its reference.

Fields: ``audio`` (path relative to the YAML file), ``reference``, optional ``engine``
(``{name: faster-whisper, model: embedded, beam_size: 5, batch_size: 1, device: cpu, ...}``, see
:class:`~pytest_asrbench.asr.decode_settings.DecodeSettings`), optional ``expect``,
``tolerance`` and ``parity`` (below).

The output snapshotted: audio path and SHA-256, the reference, the engine (name, model
SHA-256, output-changing decode settings with the compute type, versions of the pinned engine
libraries), and ``recordings``: what each host the clip was recorded on gave, named by its
numeric identity (:mod:`pytest_asrbench.asr.identity`), one item per distinct result with its
``recorded_on`` hosts: the transcript, its flags (``no_speech``, hallucination signs) and the
same score dict as the ``score`` kind. Never timings or versions of the metric (signature
cases hold those).

This module runs the case; the recording policy (exact on a host with a native recording,
tolerance everywhere else, every recording re-scored) is :mod:`pytest_asrbench.asr.recordings`.
A failure opens with what failed (``transcript 'Good evening' != expected ...``, ``transcript
beyond hardware noise: ...``: the reason line of the run's summaries), then one line per
recording and one for this run (host, transcript, rate), then the aligned view of this run's
score, then a word diff of the transcripts.

``--snapshot-update`` re-scores every recording and re-records this host's native recording
where there is one; it adds this host only with ``--asrbench-record-fingerprint`` (so a
re-record after a version bump never buries its change under new transcripts); a new case,
or a changed engine (model, decode settings, pinned library versions), records this host
alone. Why: docs/asr.md, "Transcripts by CPU".

``parity: {engine: {batch_size: 8}, max_delta: 0.0}`` decodes the clip a second time with
those settings laid over the case's engine block (through the same hypothesis cache, keyed by
them; a speed-only setting such as ``cpu_threads``, which the cache key leaves out, is decoded
afresh) and fails when the absolute rate delta exceeds ``max_delta``
(:func:`~pytest_asrbench.asr.parity.delta_failure`); the snapshot holds this engine's
recordings only.

``expect`` keys: anything of the score (``rate``, ``substitutions`` ..., with ``tolerance``,
default 1e-9), ``max_rate`` (rate <= value), ``transcript`` (exact text) and ``flags`` (exact
list, each one of :data:`~pytest_asrbench.asr.engine.KNOWN_FLAGS`).

Bad input raises an :class:`~pytest_asrbench.errors.AsrbenchError` subclass before any snapshot
is compared (the case fails at its ``file:line`` with the message): the ``asr`` extra not
installed, an unknown or unusable engine setting, missing or undecodable audio, a language the
engine lacks, an unknown ``expect`` key or flag.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_asrbench.cases.figures import score_figures
from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.registry import ExportedPair, RunContext, register
from pytest_asrbench.cases.field_help import did_you_mean
from pytest_asrbench.cases.kinds.score import (DEFAULT_TOLERANCE, EXPECT_VALUE, check_expectations, lookup,
                                                 mismatch_line)
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.display import describe_score
from pytest_asrbench.scoring.serialize import score_to_dict

_SPECIAL_EXPECT = ("max_rate", "transcript", "flags")
#: Fields of the score that the case header holds once, or that signature cases hold.
_HEADER_FIELDS = ("metric", "language", "version", "config_version")


SCHEMA: dict = {
    "properties": {
        "audio": {"type": "string", "minLength": 1,
                  "description": "Audio file, relative to the YAML file (wav, flac, mp3, ogg).",
                  "examples": ["clips/en-01.wav"]},
        "reference": {"type": "string", "description": "What the clip says, as the transcript should read.",
                      "examples": ["Good morning, how are you today?"]},
        "engine": {
            "type": "object",
            "description": "Engine settings: name (default faster-whisper), model (embedded | folder | cached "
                           "name), device (cpu | cuda | auto), beam_size, batch_size, temperature, vad_filter, "
                           "condition_on_previous_text, compute_type, cpu_threads, detect_language, silence_gate, "
                           "transcribe_options.",
            "properties": {
                "name": {"type": "string"},
                "model": {"type": "string"},
                "beam_size": {"type": "integer", "minimum": 1},
                "batch_size": {"type": "integer", "minimum": 1,
                               "description": "1 (default): window by window; more: faster-whisper's batched "
                                              "pipeline, that many 30 s chunks per model call (docs/asr.md)."},
                "temperature": {"type": "number", "minimum": 0},
                "vad_filter": {"type": "boolean"},
                "condition_on_previous_text": {"type": "boolean"},
                "compute_type": {"type": "string"},
                "device": {"type": "string", "enum": ["cpu", "cuda", "auto"]},
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
            "description": "On a host without a native recording (judged by tolerance): how far (absolute "
                           "rate) the transcript's rate may be from the nearest recording's (default 0.25; "
                           "docs/asr.md).",
        },
        "parity": {
            "type": "object",
            "required": ["engine", "max_delta"],
            "additionalProperties": False,
            "description": "Decode the clip also with these engine settings laid over the case's (e.g. "
                           "{engine: {batch_size: 8}, max_delta: 0.0}) and fail when the absolute rate delta "
                           "(other - this) exceeds max_delta (docs/asr.md, 'Parity').",
            "properties": {
                "engine": {"type": "object", "minProperties": 1,
                           "description": "The engine settings laid over the case's for the second decode.",
                           "examples": [{"batch_size": 8}]},
                "max_delta": {"type": "number", "minimum": 0,
                              "description": "The largest absolute rate delta (other - this) allowed.",
                              "examples": [0.0]},
            },
        },
        "unstable": {
            "type": "string", "minLength": 1,
            "description": "Why this clip's transcript depends on the CPU: on a host without a native "
                           "recording its transcript is reported, not judged (a native recording of this host "
                           "is still compared exactly, and every recording is re-scored).",
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
        hints = " ".join(filter(None, (did_you_mean(flag, sorted(KNOWN_FLAGS)) for flag in unknown)))
        raise AsrCaseError(
            f"expect.flags: unknown flag(s) {', '.join(map(repr, unknown))}; {hints + ' ' if hints else ''}known "
            f"flags: {', '.join(sorted(KNOWN_FLAGS))}"
        )


def _check_expected_keys(expect: dict[str, Any], output: dict[str, Any], scored: dict[str, Any]) -> None:
    """Raise when an ``expect`` key is neither special nor a value of the output."""
    from pytest_asrbench.asr.errors import AsrCaseError

    unknown = [key for key in expect if key not in _SPECIAL_EXPECT and not lookup(output, key)[0]]
    if unknown:
        details = ", ".join(sorted(scored.get("details", {}))) or "none"
        known = [*_SPECIAL_EXPECT, *(k for k in scored if k != "details"), *scored.get("details", {})]
        hints = " ".join(filter(None, (did_you_mean(key, known) for key in unknown)))
        raise AsrCaseError(
            f"expect: unknown key(s) {', '.join(map(repr, unknown))}; {hints + ' ' if hints else ''}an asr case takes "
            f"{', '.join(_SPECIAL_EXPECT)}, or a value of the score: "
            f"{', '.join(sorted(k for k in scored if k != 'details'))} (details: {details})"
        )


def _recording(transcript: str, flags, reference: str, case: Case, result: Any = None) -> dict[str, Any]:
    """One fingerprint's entry: the transcript, its flags and its score (without versions);
    ``result``, when given, is that score already computed (``score(reference, transcript, ...)``)."""
    if result is None:
        result = score(reference, transcript, case.language, case.metric)
    scored = score_to_dict(result)
    for name in _HEADER_FIELDS:
        scored.pop(name, None)
    return {"transcript": transcript, "flags": sorted(flags), **scored}


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


def _host_name(identity: dict[str, Any]) -> str:
    """The recording name of the host an engine decodes on: its numeric identity's name
    (:func:`~pytest_asrbench.asr.identity.identity_name`), or ``device <name>`` off the CPU."""
    from pytest_asrbench.asr.identity import identity_name

    host = identity.get("host")
    if isinstance(host, dict) and "arch" in host:
        return identity_name(host)
    device = (identity.get("kernels") or {}).get("device") or (host or {}).get("device") or "default"
    return f"device {device}"


def _parity_findings(parity: dict[str, Any], settings: dict[str, Any], session, audio: Path, transcript,
                     case: Case) -> list[str]:
    """The ``parity`` option: decode with ``parity.engine`` over the case's settings and
    compare (:mod:`pytest_asrbench.asr.parity`); one finding when the delta leaves the bound.

    Raises:
        AsrCaseError: ``parity.engine`` repeats the case's own engine settings.
        EngineSettingsError: a bad setting in ``parity.engine`` (names it).
    """
    from pytest_asrbench.asr.cache import transcribe_with_cache
    from pytest_asrbench.asr.errors import AsrCaseError
    from pytest_asrbench.asr.parity import ClipParity, arm_score, delta_failure

    other_settings = {**settings, **parity["engine"]}
    if session.engine_key(other_settings) == session.engine_key(settings):
        raise AsrCaseError(f"parity.engine {parity['engine']!r} repeats the case's own engine settings; name a "
                           "setting that differs under parity.engine (for example batch_size: 8)")
    other_engine = session.engine_for(other_settings)
    if other_engine.identity() == session.engine_for(settings).identity():
        # a speed-only setting (cpu_threads): the cache would hand back this engine's transcript
        other = transcribe_with_cache(other_engine, audio, case.language, None).transcript
    else:
        other = session.transcribe(audio, case.language, other_settings).transcript
    pair = ClipParity(case.id, case.id, arm_score(case.fields["reference"], transcript, case.language, case.metric),
                      arm_score(case.fields["reference"], other, case.language, case.metric))
    changed = ", ".join(f"{key}={value!r}" for key, value in sorted(parity["engine"].items()))
    found = delta_failure(pair, parity["max_delta"], ("this engine", f"with {changed}"))
    return [] if found is None else [found]


@register
class AsrRunner:
    kind = "asr"
    #: Its cases transcribe audio: the ASR stage counts them for its progress bar.
    transcribes = True
    hypothesis_name = "transcript"

    @staticmethod
    def exported_pairs(case: Case, recorded) -> list[ExportedPair]:
        """The case's reference and the transcript of this machine's recording (else the first
        recording's, said in the note); ``recorded()`` raises when none is recorded."""
        from pytest_asrbench.asr.errors import AsrCaseError
        from pytest_asrbench.asr.identity import host_identity, identity_name
        from pytest_asrbench.asr.recordings import transcript_for_host

        snapshot = recorded()
        if not isinstance(snapshot, dict) or not snapshot.get("recordings"):
            raise AsrCaseError(f"{case.where()}: asr case {case.id!r} has no recording in its snapshot; "
                                "record it first (pytest --asrbench <file> --snapshot-update)")
        hypothesis, note = transcript_for_host(snapshot["recordings"], identity_name(host_identity()))
        return [ExportedPair(str(case.fields["reference"]), hypothesis, note)]

    @staticmethod
    def resource_group(case: Case) -> str:
        """The engine this case loads, as a name (:func:`~pytest_asrbench.asr.session.engine_group`:
        settings that decode alike are one group). Cases of one group share one loaded model,
        so under pytest-xdist the plugin keeps a group on one worker
        (:mod:`pytest_asrbench.xdist_schedule`): each worker loads each model at most once."""
        from pytest_asrbench.asr.session import engine_group

        return engine_group(case.fields.get("engine"))

    def run(self, case: Case, context: RunContext) -> CaseResult:
        from pytest_asrbench.asr.errors import require_asr_extra

        require_asr_extra()  # AsrDependencyError: "the ASR engine needs the asr extra ..."
        import pytest_asrbench.asr.recordings as policy
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
        here = _host_name(identity)
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
        scored = score(reference, transcript.text, case.language, case.metric)  # this run's score
        current = _recording(transcript.text, transcript.flags, reference, case, scored)
        recorded = context.recorded(case)
        changes = _engine_changes(recorded, header) if isinstance(recorded, dict) else []
        stored = (policy.ungroup_recordings(recorded.get("recordings", []), f"snapshot of {case.where()}")
                  if isinstance(recorded, dict) and not changes else {})
        # every recorded transcript is scored again: a normalizer or scoring change moves them all
        rescored = {
            name: _recording(entry["transcript"], entry["flags"], reference, case) for name, entry in stored.items()
        }
        updating = context.updating
        mode, why = policy.mode_for(here, rescored)
        findings: list[str] = []  # what failed, after the transcripts
        before = None  # the recorded transcript the short diff compares with
        moved = sorted(name for name in rescored if rescored[name] != stored[name])
        if changes:
            hint = ("the snapshot was recorded with another engine, audio or reference ("
                    + "; ".join(changes) + "). This is not a metric change and needs no version bump: if "
                    "intended, re-record with `pytest --asrbench <paths> --snapshot-update`")
        else:
            hint = ("the first lines say what moved: a recorded transcript's score (a version bump, README "
                    "'Re-recording') or this host's transcript (no bump: investigate the engine)")
        if moved and not updating and not changes:
            findings.append(f"score of {len(moved)} recorded transcript(s) moved, their text did not: a "
                            "normalizer or scoring change, which needs a version bump (README, 'Re-recording')")
        if mode == policy.EXACT:
            if not updating and (rescored[here]["transcript"] != current["transcript"]
                                 or rescored[here]["flags"] != current["flags"]):
                findings.append("transcript changed on its recording host (exact comparison, a native recording "
                                "of this host: same engine, model, decode settings and CPU): engine drift to investigate")
                before = rescored[here]["transcript"]
        elif rescored:
            verdict = policy.judge(current, rescored, fields.get("fingerprint_tolerance", policy.DEFAULT_TOLERANCE))
            if fields.get("unstable"):
                verdict = {**verdict, "ok": True, "unstable": fields["unstable"]}
            session.note_tolerance(case=f"{_relative(case.file, context.rootpath)}::{case.id}", host=here, why=why,
                                   recorded=sorted(rescored), verdict=verdict)
            if not verdict["ok"]:
                findings.append(policy.tolerance_failure(why, verdict))
                before = rescored[verdict["nearest"]]["transcript"]
        kept = policy.kept_recordings(here, current, rescored, mode=mode, updating=updating,
                                      record_host=context.adding_fingerprints)
        output: dict[str, Any] = {**header, "recordings": policy.group_recordings(kept)}
        host = identity.get("host") if isinstance(identity.get("host"), dict) else {}
        session.add_clip(
            clip_entry(
                clip,
                case=f"{case.file}::{case.id}",
                reference=reference,
                rate=current["rate"],
                unit=current["unit"],
                metric=case.metric,
                engine_key=session.engine_key(settings),
                kernel_fingerprint=host.get("kernels") or here,
            )
        )
        _check_expected_keys(expect, current, current)
        findings += self._check(expect, current, fields.get("tolerance", DEFAULT_TOLERANCE), case.metric)
        if fields.get("parity"):
            findings += _parity_findings(fields["parity"], settings, session, audio, transcript, case)
        failures = []
        if findings:
            # what failed first (the reason line a summary shows), then every transcript and rate, then the
            # aligned view of this run's score, then the short diff
            failures = ["\n".join(findings + policy.transcript_lines(here, current, rescored, stored)),
                        describe_score(scored, color=context.color)]
            if before is not None:
                failures.append(policy.short_diff(before, current["transcript"]))
        return CaseResult(output, failures, snapshot_hint=hint,
                          figures=score_figures(current, scored if context.headlines else None),
                          recorded_figures=_measured_against(stored, here, score_figures(current)))

    @staticmethod
    def _check(expect: dict[str, Any], output: dict[str, Any], tolerance: float, metric: str) -> list[str]:
        plain = {k: v for k, v in expect.items() if k not in _SPECIAL_EXPECT}
        failures = check_expectations(output, plain, tolerance, metric) if plain else []
        if "max_rate" in expect:
            rate = output["rate"]
            if rate is None or rate > expect["max_rate"] + tolerance:
                failures.append(mismatch_line("rate", rate, expect["max_rate"], tolerance, metric, bound=True))
        if "transcript" in expect and output["transcript"] != expect["transcript"]:
            failures.append(mismatch_line("transcript", output["transcript"], expect["transcript"], tolerance))
        if "flags" in expect and sorted(output["flags"]) != sorted(expect["flags"]):
            failures.append(mismatch_line("flags", output["flags"], sorted(expect["flags"]), tolerance))
        return failures
