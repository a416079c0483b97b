"""The ``asr`` kind's recordings per kernel fingerprint: exact on recorded fingerprints,
judged within tolerance elsewhere, rescored on every run, extended by ``--snapshot-update``.

A fake engine stands in for faster-whisper (its transcript and kernel fingerprint are
settings), so these tests load no model.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_asrbench.asr.engine import DecodeInfo, Transcript
from pytest_asrbench.cases.model import Case
from pytest_asrbench.cases.registry import RunContext
from pytest_asrbench.cases.kinds.asr import AsrRunner, group_recordings, judge_unrecorded, ungroup_recordings

from .conftest import ROOT, SAMPLES

REFERENCE = "Good morning, how are you today?"
HERE = "x86_64-avx2-mkl-avx512"
OTHER = "x86_64-avx2-dnnl-avx2"


class FakeEngine:
    """An engine whose transcript (``text``), flags and kernel fingerprint are settings."""

    name = "fake"

    def __init__(self, text: str = REFERENCE, kernel: str = HERE, flags: tuple = (), model: str = "m1"):
        self.text, self.kernel, self.flags, self.model = text, kernel, tuple(flags), model

    def transcribe(self, audio, sample_rate=None, *, language):
        info = DecodeInfo(language=language, language_probability=1.0, no_speech_prob=0.0,
                          compression_ratio=1.0, duration=1.0)
        return Transcript(text=self.text, segments=(), info=info, flags=self.flags)

    def identity(self) -> dict:
        arch, isa, gemm, gemm_isa = self.kernel.split("-")
        return {
            "engine": self.name, "libraries": {"fake-lib": "1.0"}, "pinned_libraries": ["fake-lib"],
            "model": {"name": "fake", "sha256": self.model}, "decode": {"beam_size": 1},
            "kernels": {"arch": arch, "ct2_isa": isa.upper(), "gemm": gemm.upper(), "gemm_isa": gemm_isa.upper()},
        }


@dataclass(frozen=True)
class Context(RunContext):
    snapshot: dict | None = None

    def recorded(self, case):
        return copy.deepcopy(self.snapshot)


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch):
    from pytest_asrbench.asr import engine as engine_module
    from pytest_asrbench.asr import session as session_module

    real = engine_module.engine_class
    monkeypatch.setattr(engine_module, "engine_class", lambda name="faster-whisper": FakeEngine
                        if name == "fake" else real(name))
    from pytest_asrbench.cases import asr_session

    monkeypatch.setattr(asr_session, "_GLOBAL", session_module.AsrSession(use_cache=False))
    return asr_session


def _case(**fields) -> Case:
    engine = {"name": "fake", **fields.pop("engine", {})}
    return Case(id="en-01", kind="asr", language="en", metric="stt_wer", file=SAMPLES / "en" / "asr.yaml", line=1,
                fields={"audio": "en-01.wav", "reference": REFERENCE, "engine": engine, **fields})


def _run(case: Case, snapshot=None, updating=False, record_fingerprint=False):
    return AsrRunner().run(case, Context(rootpath=ROOT, pytest_config=SimpleNamespace(), snapshot=snapshot,
                                         updating=updating, adding_fingerprints=updating and record_fingerprint))


def _by_label(output: dict) -> dict:
    return ungroup_recordings(output["recordings"], "test")


def _with(snapshot: dict, label: str, **changes) -> dict:
    """``snapshot`` with the recording of ``label`` replaced by HERE's recording plus ``changes``."""
    recordings = _by_label(snapshot)
    recordings[label] = {**recordings[HERE], **changes}
    return {**snapshot, "recordings": group_recordings(recordings)}


def _recorded(**engine) -> dict:
    """A snapshot recorded on HERE with the given engine settings."""
    return _run(_case(engine=engine)).output


def test_recorded_fingerprint_same_transcript_passes():
    snapshot = _recorded()
    result = _run(_case(), snapshot)
    assert result.passed and result.output == snapshot
    assert list(_by_label(result.output)) == [HERE]
    assert result.output["recordings"][0]["fingerprints"] == [HERE]
    assert "version" not in result.output and "config_version" not in _by_label(result.output)[HERE]


def test_recorded_fingerprint_other_transcript_differs_without_asking_for_a_bump():
    snapshot = _with(_recorded(), HERE, transcript="Good morning")  # as if recorded with another transcript
    result = _run(_case(), snapshot)
    assert result.output != snapshot
    assert "bump" not in result.snapshot_hint.split("a score change")[0]
    assert HERE in result.snapshot_hint


def test_every_recording_is_rescored_so_a_normalizer_change_fails_everywhere(monkeypatch):
    snapshot = _with(_recorded(), OTHER, transcript="good morning how are you")
    again = _run(_case(), snapshot)
    # the OTHER recording's score was recomputed from its transcript (it had HERE's figures)
    assert _by_label(again.output)[OTHER]["rate"] == pytest.approx(1 / 6)  # "today" deleted
    assert _by_label(again.output)[OTHER]["transcript"] == "good morning how are you"
    # a normalizer that changes the forms moves both recordings
    from pytest_asrbench.scoring import score as real_score

    monkeypatch.setattr("pytest_asrbench.cases.kinds.asr.score",
                        lambda ref, hyp, lang, metric=None: real_score(ref + " extra", hyp, lang, metric))
    changed = _run(_case(), again.output)
    assert changed.output != again.output
    for name in (HERE, OTHER):
        assert _by_label(changed.output)[name]["deletions"] == _by_label(again.output)[name]["deletions"] + 1


def test_unrecorded_fingerprint_with_a_recorded_transcript_passes_and_is_reported(fake_engine):
    snapshot = _recorded()
    result = _run(_case(engine={"kernel": OTHER}), snapshot)
    assert result.passed and result.output == snapshot  # nothing to write on a plain run
    (note,) = fake_engine._GLOBAL.unrecorded
    assert note["fingerprint"] == OTHER and note["recorded"] == [HERE] and note["same_as"] == [HERE]


def test_unrecorded_fingerprint_within_tolerance_passes():
    snapshot = _recorded()
    # one substitution of six words: rate 1/6, within the default 0.25
    result = _run(_case(engine={"kernel": OTHER, "text": "Good morning, how are you toady?"}), snapshot)
    assert result.passed, result.failures


def test_unrecorded_fingerprint_beyond_tolerance_fails_with_both_transcripts():
    snapshot = _recorded()
    result = _run(_case(engine={"kernel": OTHER, "text": "Good evening"}), snapshot)
    failure, account = result.failures  # the finding, then the reviewer's account of the score
    assert "REF" in account and "HYP" in account
    assert OTHER in failure and HERE in failure and "'Good evening'" in failure
    assert "fingerprint_tolerance 0.25" in failure and "no version bump needed" in failure
    loose = _run(_case(engine={"kernel": OTHER, "text": "Good evening"}, fingerprint_tolerance=1.0), snapshot)
    assert loose.passed


def test_a_new_hallucination_flag_is_not_hardware_noise():
    snapshot = _recorded()
    result = _run(_case(engine={"kernel": OTHER, "text": "Good morning, how are you toady?",
                                "flags": ["repetition_loop"]}), snapshot)
    assert result.failures and "repetition_loop" in result.failures[0]


def test_unstable_cases_are_reported_not_judged(fake_engine):
    snapshot = _recorded()
    result = _run(_case(engine={"kernel": OTHER, "text": "Good evening"}, unstable="moves with the CPU"), snapshot)
    assert result.passed
    assert fake_engine._GLOBAL.unrecorded[-1]["unstable"] == "moves with the CPU"


def test_update_adds_the_fingerprint_only_when_asked_and_keeps_the_others():
    snapshot = _recorded()
    plain_update = _run(_case(engine={"kernel": OTHER, "text": "Good morning"}), snapshot, updating=True)
    assert plain_update.output == snapshot  # a re-record after a bump does not add this host
    updated = _run(_case(engine={"kernel": OTHER, "text": "Good morning"}), snapshot, updating=True,
                   record_fingerprint=True)
    assert sorted(_by_label(updated.output)) == sorted([HERE, OTHER])
    assert _by_label(updated.output)[HERE] == _by_label(snapshot)[HERE]
    assert _by_label(updated.output)[OTHER]["transcript"] == "Good morning"
    assert [item["fingerprints"] for item in updated.output["recordings"]] == [[OTHER], [HERE]]  # by label


def test_equal_recordings_are_grouped():
    snapshot = _with(_recorded(), OTHER)
    assert [item["fingerprints"] for item in snapshot["recordings"]] == [sorted([HERE, OTHER])]
    assert _run(_case(), snapshot).output == snapshot


def test_an_engine_change_replaces_the_recordings_and_needs_no_bump():
    snapshot = _with(_recorded(), OTHER)
    plain = _run(_case(engine={"model": "m2"}), snapshot)
    assert plain.output != snapshot
    assert "engine model_sha256" in plain.snapshot_hint and "needs no version bump" in plain.snapshot_hint
    updated = _run(_case(engine={"model": "m2"}), snapshot, updating=True)
    assert list(_by_label(updated.output)) == [HERE]


def test_a_malformed_recording_is_a_clear_error():
    from pytest_asrbench.asr.errors import AsrCaseError

    snapshot = {**_recorded(), "recordings": [{"transcript": "x"}]}
    with pytest.raises(AsrCaseError, match="lacks fingerprints, transcript or flags"):
        _run(_case(), snapshot)


def test_judge_unrecorded_picks_the_nearest_recording():
    recordings = {"a": {"transcript": "x", "rate": 0.0, "insertions": 0, "flags": []},
                  "b": {"transcript": "y", "rate": 0.5, "insertions": 0, "flags": ["no_speech"]}}
    verdict = judge_unrecorded({"transcript": "z", "rate": 0.4, "insertions": 0, "flags": []}, recordings, 0.25)
    assert verdict["nearest"] == "b" and verdict["ok"] and not verdict["same_as"]
    empty_reference = judge_unrecorded({"transcript": "z", "rate": None, "insertions": 3, "flags": []},
                                       {"a": {"transcript": "x", "rate": None, "insertions": 1, "flags": []}}, 0.25)
    assert not empty_reference["ok"]  # 3 insertions against 1: compared as counts


def test_the_shipped_asr_snapshots_record_the_hosts_defaults():
    """Every shipped asr snapshot records at least the default fingerprints of Intel and AMD
    hosts with and without AVX-512, so a fresh clone on those compares exactly."""
    import json

    defaults = {"x86_64-avx2-mkl-avx512", "x86_64-avx2-dnnl-avx512", "x86_64-avx2-mkl-avx2", "x86_64-avx2-dnnl-avx2"}
    paths = sorted((ROOT / "snapshots").glob("*/asr/*.json"))
    assert paths
    for path in paths:
        recorded = set(ungroup_recordings(json.loads(path.read_text(encoding="utf-8"))["recordings"], str(path)))
        assert defaults <= recorded, f"{path}: missing {sorted(defaults - recorded)}"
