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
list). When faster-whisper is not installed the case is skipped and says what to install.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_asrbench.cases.model import Case, CaseResult
from pytest_asrbench.cases.runners import RunContext, register
from pytest_asrbench.cases.runners.score_kind import DEFAULT_TOLERANCE, check_expectations
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.serialize import score_to_dict

_SPECIAL_EXPECT = ("max_rate", "transcript", "flags")


def asr_available() -> tuple[bool, str]:
    """(True, "") when faster-whisper imports, else (False, what to install)."""
    try:
        import faster_whisper  # noqa: F401
    except ImportError as exc:
        return False, f"faster-whisper is not installed ({exc}): pip install 'pytest-asrbench[asr]'"
    return True, ""


@register
class AsrRunner:
    kind = "asr"

    def run(self, case: Case, context: RunContext) -> CaseResult:
        from pytest_asrbench.asr.errors import AsrError

        ok, why = asr_available()
        if not ok:
            pytest.skip(why)
        from pytest_asrbench.asr.run_record import clip_entry
        from pytest_asrbench.asr.session import get_session

        fields = case.fields
        audio = (Path(case.file).parent / fields["audio"]).resolve()
        settings = dict(fields.get("engine") or {})
        session = get_session(context.pytest_config)
        try:
            engine = session.engine_for(settings)
            clip = session.transcribe(audio, case.language, settings)
        except AsrError as exc:
            return CaseResult(
                {"kind": case.kind, "audio": fields["audio"], "error": type(exc).__name__},
                [f"{case.where('audio')}: {exc}"],
            )
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
                engine_key=next(k for k, e in session.engines.items() if e is engine),
            )
        )
        failures = self._check(fields.get("expect") or {}, output, fields.get("tolerance", DEFAULT_TOLERANCE))
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
