"""The ``asr`` kind's recordings per host identity: exact only on a host with a native
recording, judged within tolerance everywhere else (an unrecorded CPU, a simulated host),
every recording rescored on every run, extended by ``--snapshot-update``.

A fake engine stands in for faster-whisper (its transcript and host identity are settings),
so these tests load no model.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_asrbench.asr.engine import DecodeInfo, Transcript
from pytest_asrbench.asr.identity import identity_name
from pytest_asrbench.asr.recordings import group_recordings, judge, ungroup_recordings
from pytest_asrbench.cases.model import Case
from pytest_asrbench.cases.registry import RunContext
from pytest_asrbench.cases.kinds.asr import AsrRunner

from .conftest import ROOT, SAMPLES

REFERENCE = "Good morning, how are you today?"


def host(vendor="GenuineIntel", family="6", model="207", extensions=("avx2", "avx512f", "avx512_vnni"),
         env=None, kernels="x86_64-avx2-mkl-avx512") -> dict:
    return {"arch": "x86_64", "vendor": vendor, "family": family, "model": model, "extensions": sorted(extensions),
            "kernels": kernels, "env": env, "simulated": env is not None}


HERE_ID = host()
AMD_ID = host(vendor="AuthenticAMD", family="25", model="17", extensions=("avx2", "avx512f", "avx512_bf16"),
              kernels="x86_64-avx2-dnnl-avx512")
SIMULATED_ID = host(env="CT2_FORCE_CPU_ISA=AVX2", kernels="x86_64-avx2-mkl-avx512")
HERE, AMD, SIMULATED = identity_name(HERE_ID), identity_name(AMD_ID), identity_name(SIMULATED_ID)
HOSTS = {HERE: HERE_ID, AMD: AMD_ID, SIMULATED: SIMULATED_ID}
OTHER = AMD


class FakeEngine:
    """An engine whose transcript (``text``), flags and host identity (``host``: a name of
    :data:`HOSTS`) are settings."""

    name = "fake"

    def __init__(self, text: str = REFERENCE, host: str = HERE, flags: tuple = (), model: str = "m1"):
        self.text, self.host, self.flags, self.model = text, host, tuple(flags), model

    def transcribe(self, audio, sample_rate=None, *, language):
        info = DecodeInfo(language=language, language_probability=1.0, no_speech_prob=0.0,
                          compression_ratio=1.0, duration=1.0)
        return Transcript(text=self.text, segments=(), info=info, flags=self.flags)

    def identity(self) -> dict:
        return {
            "engine": self.name, "libraries": {"fake-lib": "1.0"}, "pinned_libraries": ["fake-lib"],
            "model": {"name": "fake", "sha256": self.model}, "decode": {"beam_size": 1},
            "host": HOSTS[self.host],
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


def _by_host(output: dict) -> dict:
    return ungroup_recordings(output["recordings"], "test")


def _with(snapshot: dict, name: str, **changes) -> dict:
    """``snapshot`` with the recording of ``name`` replaced by HERE's recording plus ``changes``."""
    recordings = _by_host(snapshot)
    recordings[name] = {**recordings[HERE], **changes}
    return {**snapshot, "recordings": group_recordings(recordings)}


def _recorded(**engine) -> dict:
    """A snapshot recorded natively on HERE with the given engine settings."""
    return _run(_case(engine=engine)).output


def _only(name: str, snapshot: dict) -> dict:
    """``snapshot`` with its one recording moved to host ``name``."""
    (entry,) = _by_host(snapshot).values()
    return {**snapshot, "recordings": group_recordings({name: entry})}


def test_a_native_recording_of_this_host_is_compared_exactly():
    snapshot = _recorded()
    result = _run(_case(), snapshot)
    assert result.passed and result.output == snapshot
    assert result.output["recordings"][0]["recorded_on"] == [HERE]
    assert "version" not in result.output and "config_version" not in _by_host(result.output)[HERE]
    # one word changed: within any tolerance, but exact here
    drift = _run(_case(engine={"text": "Good morning, how are you toady?"}), snapshot)
    assert drift.output != snapshot and drift.failures
    assert drift.failures[0].startswith("transcript changed on its recording host (exact comparison")
    assert "engine drift" in drift.failures[0]
    assert "bump" not in drift.failures[0]


def test_a_simulated_recording_never_decides_exactness():
    """A recording made with kernel variables set matches no real host, and a simulated run is
    judged by tolerance even where its own simulated recording exists."""
    snapshot = _only(SIMULATED, _recorded())
    nearby = "Good morning, how are you toady?"  # 1/6: within the default 0.25
    on_here = _run(_case(engine={"text": nearby}), snapshot)
    assert on_here.passed and on_here.output == snapshot
    simulated_again = _run(_case(engine={"host": SIMULATED, "text": nearby}), snapshot)
    assert simulated_again.passed and simulated_again.output == snapshot


def test_an_unrecorded_host_passes_within_tolerance_and_fails_beyond_it(fake_engine):
    """The design promise on a CPU nobody recorded (an AMD identity no snapshot has)."""
    snapshot = _recorded()
    same = _run(_case(engine={"host": AMD}), snapshot)
    assert same.passed and same.output == snapshot  # nothing to write on a plain run
    within = _run(_case(engine={"host": AMD, "text": "Good morning, how are you toady?"}), snapshot)
    assert within.passed, within.failures
    assert within.output == snapshot  # this host is not added on a plain run
    beyond = _run(_case(engine={"host": AMD, "text": "Good evening"}), snapshot)
    assert not beyond.passed and beyond.output == snapshot
    assert beyond.failures[0].startswith("transcript beyond hardware noise: rate 83.3%, nearest recording 0.0% (on ")
    assert "judged by tolerance: no native recording of this host)" in beyond.failures[0]
    assert "fingerprint_tolerance 0.25" in beyond.failures[0]
    notes = fake_engine._GLOBAL.unrecorded
    assert [note["host"] for note in notes] == [AMD, AMD, AMD]
    assert [note["ok"] for note in notes] == [True, True, False]
    assert notes[0]["same_as"] == [HERE] and notes[0]["why"] == "no native recording of this host"


def test_an_asr_failure_opens_with_what_failed_then_every_transcript_and_rate():
    # a re-scored snapshot (as --snapshot-update writes it) with a simulated host's other transcript
    snapshot = _run(_case(), _with(_recorded(), SIMULATED, transcript="Good morning how are you")).output
    failure = _run(_case(engine={"host": AMD, "text": "Good evening"}), snapshot).failures
    lines = "\n".join(failure).splitlines()
    # the reason line a summary shows: what failed, both rates, then where and why by tolerance
    assert lines[0].startswith("transcript beyond hardware noise: rate 83.3%, nearest recording 16.7% (on simulated ")
    first = lines.index("recorded on simulated x86_64-avx2-mkl-avx512 (CT2_FORCE_CPU_ISA=AVX2): "
                        "'Good morning how are you' (WER 0.1667)")
    assert all(line.startswith("  ") for line in lines[1:first])  # the finding's own details
    assert lines[first + 1] == f"recorded on x86_64 GenuineIntel 6/207: {REFERENCE!r} (WER 0)"
    assert lines[first + 2] == "now on x86_64 AuthenticAMD 25/17: 'Good evening' (WER 0.8333)"
    assert "REF" in failure[1] and "HYP" in failure[1]  # then the aligned view
    assert failure[-1].startswith("transcript diff: ")  # then the short diff
    assert "-[good morning how are you]" not in failure[-1] and "+[evening]" in failure[-1]


def test_every_recording_is_rescored_so_a_normalizer_change_fails_on_every_host(monkeypatch):
    snapshot = _with(_recorded(), SIMULATED, transcript="good morning how are you")
    again = _run(_case(), snapshot)
    # the SIMULATED recording's score was recomputed from its transcript (it had HERE's figures)
    assert _by_host(again.output)[SIMULATED]["rate"] == pytest.approx(1 / 6)  # "today" deleted
    assert _by_host(again.output)[SIMULATED]["transcript"] == "good morning how are you"
    # a normalizer that changes the forms moves every recording, on every host
    from pytest_asrbench.scoring import score as real_score

    monkeypatch.setattr("pytest_asrbench.cases.kinds.asr.score",
                        lambda ref, hyp, lang, metric=None: real_score(ref + " extra", hyp, lang, metric))
    for where in (HERE, AMD, SIMULATED):
        changed = _run(_case(engine={"host": where}), again.output)
        assert changed.output != again.output and changed.failures, where
        assert "score of 2 recorded transcript(s) moved" in changed.failures[0]
        assert f"recorded on x86_64 GenuineIntel 6/207: {REFERENCE!r} (WER 0.1429, was WER 0)" in changed.failures[0]
        for name in (HERE, SIMULATED):
            assert _by_host(changed.output)[name]["deletions"] == _by_host(again.output)[name]["deletions"] + 1


def test_a_new_hallucination_flag_is_not_hardware_noise():
    snapshot = _recorded()
    result = _run(_case(engine={"host": AMD, "text": "Good morning, how are you toady?",
                                "flags": ["repetition_loop"]}), snapshot)
    assert result.failures and "flag(s) no recording has: repetition_loop" in result.failures[0]


def test_unstable_cases_are_reported_not_judged_by_tolerance(fake_engine):
    snapshot = _recorded()
    result = _run(_case(engine={"host": AMD, "text": "Good evening"}, unstable="moves with the CPU"), snapshot)
    assert result.passed
    assert fake_engine._GLOBAL.unrecorded[-1]["unstable"] == "moves with the CPU"
    exact = _run(_case(engine={"text": "Good evening"}, unstable="moves with the CPU"), snapshot)
    assert not exact.passed  # a native recording is still compared exactly


def test_a_loose_fingerprint_tolerance_is_honoured():
    snapshot = _recorded()
    assert _run(_case(engine={"host": AMD, "text": "Good evening"}, fingerprint_tolerance=1.0), snapshot).passed


def test_update_adds_this_host_only_when_asked_and_keeps_the_others():
    snapshot = _recorded()
    plain_update = _run(_case(engine={"host": AMD, "text": "Good morning"}), snapshot, updating=True)
    assert plain_update.output == snapshot  # a re-record after a bump does not add this host
    updated = _run(_case(engine={"host": AMD, "text": "Good morning"}), snapshot, updating=True,
                   record_fingerprint=True)
    assert sorted(_by_host(updated.output)) == sorted([HERE, AMD])
    assert _by_host(updated.output)[HERE] == _by_host(snapshot)[HERE]
    assert _by_host(updated.output)[AMD]["transcript"] == "Good morning"
    # from then on the AMD host is compared exactly
    assert not _run(_case(engine={"host": AMD, "text": "Good morning, how are you toady?"}), updated.output).passed


def test_equal_recordings_are_grouped():
    snapshot = _with(_recorded(), SIMULATED)
    assert [item["recorded_on"] for item in snapshot["recordings"]] == [sorted([HERE, SIMULATED])]
    assert _run(_case(), snapshot).output == snapshot


def test_an_engine_change_replaces_the_recordings_and_needs_no_bump():
    snapshot = _with(_recorded(), SIMULATED)
    plain = _run(_case(engine={"model": "m2"}), snapshot)
    assert plain.output != snapshot
    assert "engine model_sha256" in plain.snapshot_hint and "needs no version bump" in plain.snapshot_hint
    updated = _run(_case(engine={"model": "m2"}), snapshot, updating=True)
    assert list(_by_host(updated.output)) == [HERE]


@pytest.mark.parametrize("recordings", [[{"transcript": "x"}], [{"recorded_on": [], "transcript": "x", "flags": []}],
                                        {"a": 1}])
def test_a_malformed_recording_is_a_clear_error(recordings):
    from pytest_asrbench.asr.errors import AsrCaseError

    snapshot = {**_recorded(), "recordings": recordings}
    with pytest.raises(AsrCaseError, match="recorded_on|list of recordings"):
        _run(_case(), snapshot)


def test_judge_picks_the_nearest_recording():
    recordings = {"a": {"transcript": "x", "rate": 0.0, "insertions": 0, "flags": []},
                  "b": {"transcript": "y", "rate": 0.5, "insertions": 0, "flags": ["no_speech"]}}
    verdict = judge({"transcript": "z", "rate": 0.4, "insertions": 0, "flags": []}, recordings, 0.25)
    assert verdict["nearest"] == "b" and verdict["ok"] and not verdict["same_as"]
    empty_reference = judge({"transcript": "z", "rate": None, "insertions": 3, "flags": []},
                            {"a": {"transcript": "x", "rate": None, "insertions": 1, "flags": []}}, 0.25)
    assert not empty_reference["ok"]  # 3 insertions against 1: compared as counts


def test_the_shipped_asr_snapshots_hold_no_exactness_a_fresh_host_could_trip_on():
    """Every shipped recording is simulated or a native recording with a full identity (CPU
    vendor, family, model and extensions); none is named by a kernel label alone."""
    import json

    from pytest_asrbench.asr.identity import is_simulated

    paths = sorted((ROOT / "snapshots").glob("*/asr/*.json"))
    assert paths
    for path in paths:
        names = ungroup_recordings(json.loads(path.read_text(encoding="utf-8"))["recordings"], str(path))
        for name in names:
            if not is_simulated(name):
                cpu, _, extensions = name.partition(": ")
                arch, vendor, family_model = cpu.split(" ")
                assert vendor != "unknown-vendor" and "?" not in family_model and extensions, (path, name)
