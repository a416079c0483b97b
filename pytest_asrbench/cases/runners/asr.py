"""The ``asr`` kind: transcribe a clip with an STT engine and score it against its reference.

Fields: ``audio`` (path relative to the YAML file), ``reference``, optional ``engine``
(``{name: faster-whisper, model: embedded, beam_size: 5, ...}``, see
:class:`~pytest_asrbench.asr.faster_whisper_engine.DecodeSettings`), optional ``expect`` and
``tolerance``.

The output snapshotted: audio path and SHA-256, model SHA-256, output-changing decode
settings, transcript, flags (``no_speech``, hallucination signs), and the same score dict as
the ``score`` kind (normalized forms, alignment, counts, rate). Never timings.

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

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.runners import RunContext, register
from pytest_asrbench.cases.runners.score_kind import DEFAULT_TOLERANCE, check_expectations, lookup
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.serialize import score_to_dict

_SPECIAL_EXPECT = ("max_rate", "transcript", "flags")


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


@register
class AsrRunner:
    kind = "asr"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        from pytest_asrbench.asr.errors import require_asr_extra

        require_asr_extra()  # AsrDependencyError: "the ASR engine needs the asr extra ..."
        from pytest_asrbench.asr.run_record import clip_entry
        from pytest_asrbench.asr.session import get_session

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
        scored = score_to_dict(score(fields["reference"], transcript.text, case.language, case.metric))
        identity = engine.identity()
        output: dict[str, Any] = {
            "kind": case.kind,
            "audio": fields["audio"],
            "audio_sha256": clip.audio_sha256,
            "engine": identity["engine"],
            "model_sha256": identity["model"]["sha256"],
            "decode": identity["decode"],
            "transcript": transcript.text,
            "flags": list(transcript.flags),
            **scored,
        }
        session.add_clip(
            clip_entry(
                clip,
                case=f"{case.file}::{case.id}",
                reference=fields["reference"],
                rate=scored["rate"],
                unit=scored["unit"],
                metric=scored["metric"],
                engine_key=session.engine_key(settings),
            )
        )
        _check_expected_keys(expect, output, scored)
        failures = self._check(expect, output, fields.get("tolerance", DEFAULT_TOLERANCE))
        return CaseResult(output, failures)

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
