"""Parity of two engine setting sets: the report (per clip, per unit, determinism), the
``asrbench asr parity`` command, and the ``parity`` option of an ``asr`` case.

A stand-in engine writes, per clip and per ``batch_size``, a transcript chosen here, so the
arms differ exactly where a test says; one real run on a sample clip checks the embedded model."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.asr.conftest import ROOT, SAMPLES, needs_faster_whisper

from pytest_asrbench.asr.engine import DecodeInfo, Transcript, transcript_flags

EN = SAMPLES / "en"
REFERENCES = {"en-01.wav": "Good morning, how are you today?", "en-02.flac": "Please open the door.",
              "en-03.flac": "I would like a cup of coffee."}


class StandInEngine:
    """Writes ``texts[(file name, batch_size)]`` (else the reference); ``drift`` names files
    whose every later decode differs from the first (a nondeterministic decoder)."""

    name = "faster-whisper"

    def __init__(self, texts, drift=(), **settings):
        self.settings = settings
        self.texts, self.drift, self.calls = texts, set(drift), {}

    def identity(self):
        return {"engine": self.name, "model": {"sha256": "0" * 64}, "decode": dict(self.settings)}

    def transcribe(self, audio, sample_rate=None, *, language):
        raise AssertionError("a file clip is decoded through transcribe_clip")

    def transcribe_clip(self, clip, *, language):
        from pathlib import Path

        name = Path(clip.source).name
        text = self.texts.get((name, self.settings.get("batch_size", 1)), REFERENCES.get(name, ""))
        self.calls[name] = self.calls.get(name, 0) + 1
        if name in self.drift and self.calls[name] > 1:
            text += " again"
        info = DecodeInfo(language, 1.0, 0.0, 1.0, clip.duration)
        return Transcript(text, (), info, transcript_flags(text, (), info, audio_is_silent=False))


def _engines(texts, drift=()):
    made = {}

    def engine_for(settings):
        key = json.dumps(settings, sort_keys=True)
        if key not in made:
            settings = dict(settings)
            settings.pop("name", None)
            made[key] = StandInEngine(texts, drift, **settings)
        return made[key]
    return engine_for


def _clips(*names):
    from pytest_asrbench.asr.parity import ParityClip

    return [ParityClip(id=name, audio=EN / name, language="en", reference=REFERENCES[name]) for name in names]


def _arms():
    from pytest_asrbench.asr.parity import DEFAULT_ARM_B, Arm

    return Arm("A", {}), Arm("B", DEFAULT_ARM_B)


def test_parity_reports_each_clip_and_the_corpus_with_a_cluster_interval():
    from pytest_asrbench.asr.parity import run_parity

    texts = {("en-02.flac", 8): "Please open the the door.",  # one insertion in 4 words
             ("en-03.flac", 8): "I would like a cup cup cup cup of coffee."}  # a repetition loop
    report = run_parity(_clips("en-01.wav", "en-02.flac", "en-03.flac"), *_arms(), engine_for=_engines(texts))
    first, second, third = report.clips
    assert (first.identical, first.delta, first.new_hallucination_flags) == (True, 0.0, ())
    assert (second.identical, second.a.rate, second.b.rate, second.delta) == (False, 0.0, 0.25, 0.25)
    assert third.new_hallucination_flags == ("repetition_loop",) and third.delta == pytest.approx(3 / 7)
    [words] = report.aggregates
    assert (words.unit, words.clips, words.clusters, words.identical) == ("word", 3, 3, 1)
    assert (words.rate_a, words.rate_b) == (0.0, pytest.approx(4 / 17))  # 1 + 3 insertions over 6 + 4 + 7 words
    assert words.difference == pytest.approx(4 / 17)
    low, high = words.interval
    assert 0.0 <= low <= words.difference <= high
    assert (words.new_hallucination_flags, words.cleared_hallucination_flags) == (1, 0)
    assert report.ok  # no bound given, every second decode the same
    swapped = run_parity(_clips("en-03.flac"), *reversed(_arms()), engine_for=_engines(texts))
    assert swapped.clips[0].cleared_hallucination_flags == ("repetition_loop",)
    assert swapped.aggregates[0].cleared_hallucination_flags == 1
    assert "cleared flags: repetition_loop" in "\n".join(swapped.lines())
    text = "\n".join(report.lines())
    assert "en-02.flac: DIFFERENT  WER A 0.0000  B 0.2500  delta +0.2500" in text
    assert "    B: 'Please open the the door.'" in text
    assert "en-03.flac: DIFFERENT  WER A 0.0000  B 0.4286  delta +0.4286  new flags: repetition_loop" in text
    assert "WER over 3 clips (3 clusters): identical 1/3 (33%); corpus WER A 0.0000  B 0.2353  delta +0.2353" in text
    assert "determinism: every clip decoded twice per arm gave the same transcript (3 clips x 2 arms)" in text
    data = report.to_dict()
    assert data["schema"] == "asrbench.parity/1" and data["arms"][1]["settings"] == {"batch_size": 8}
    assert data["clips"][1]["b"]["transcript"] == "Please open the the door."


def test_a_second_decode_that_differs_fails_the_determinism_check():
    from pytest_asrbench.asr.parity import run_parity

    report = run_parity(_clips("en-01.wav", "en-02.flac"), *_arms(), engine_for=_engines({}, drift={"en-02.flac"}))
    assert not report.ok
    assert report.nondeterministic == [("en-02.flac", "A"), ("en-02.flac", "B")]
    assert report.clips[1].a.repeat == "Please open the door. again"
    assert "determinism: FAILED, a second decode in the same run differed: en-02.flac (A), en-02.flac (B)" \
        in report.lines()
    unchecked = run_parity(_clips("en-02.flac"), *_arms(), engine_for=_engines({}, drift={"en-02.flac"}),
                           determinism=False)
    assert unchecked.ok and "determinism: not checked (--no-determinism)" in unchecked.lines()


def test_a_delta_over_the_bound_fails_the_report():
    from pytest_asrbench.asr.parity import run_parity

    texts = {("en-02.flac", 8): "Please open the the door."}
    report = run_parity(_clips("en-02.flac"), *_arms(), engine_for=_engines(texts), max_delta=0.2)
    assert report.over_bound == ["en-02.flac: parity: A 'Please open the door.' (WER 0) vs B 'Please open the the "
                                 "door.' (WER 0.25): delta +0.25 exceeds max_delta 0.2"]
    assert not report.ok
    assert run_parity(_clips("en-02.flac"), *_arms(), engine_for=_engines(texts), max_delta=0.25).ok


# ----------------------------------------------------------------------------- the command


@pytest.fixture
def standin_session(monkeypatch):
    """``asrbench asr parity`` decodes with :class:`StandInEngine` (batch 8 of en-02 differs)."""
    from pytest_asrbench.asr import session as session_module

    texts = {("en-02.flac", 8): "Please open the the door."}
    monkeypatch.setattr(session_module, "create_engine",
                        lambda name, **settings: StandInEngine(texts, **settings))
    monkeypatch.setattr("pytest_asrbench.asr.errors.require_asr_extra", lambda *a: None)


def test_parity_command_compares_sequential_and_batch_8_by_default(standin_session, capsys):
    from pytest_asrbench import cli

    assert cli.main(["asr", "parity", str(ROOT / "cases" / "en" / "asr.yaml")]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("A: the clips' own settings\nB: batch_size=8\n")
    assert "asr.yaml::en-02: DIFFERENT  WER A 0.0000  B 0.2500  delta +0.2500" in out.out
    assert out.out.rstrip().endswith("parity ok")
    assert "[3/3] " in out.err


def test_parity_command_fails_over_max_delta_and_writes_json(standin_session, capsys):
    from pytest_asrbench import cli

    assert cli.main(["asr", "parity", str(ROOT / "cases" / "en" / "asr.yaml"), "--max-delta", "0", "--json",
                     "--a", "cpu_threads=1", "--b", "cpu_threads=1", "--b", "batch_size=8"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [arm["settings"] for arm in data["arms"]] == [{"cpu_threads": 1}, {"cpu_threads": 1, "batch_size": 8}]
    assert not data["ok"] and len(data["over_bound"]) == 1 and "exceeds max_delta 0" in data["over_bound"][0]


@pytest.mark.parametrize("argv, words", [
    (["--a", "batch_size"], "--a 'batch_size': give an engine setting as SETTING=VALUE"),
    ([], "give case files, or --manifest and --audio-root"),
    (["--manifest", "m.jsonl"], "--manifest needs --audio-root"),
    (["--resamples", "0"], "--resamples 0: give at least 1"),
])
def test_parity_command_refuses_bad_usage(standin_session, capsys, argv, words):
    from pytest_asrbench import cli

    case_file = [str(ROOT / "cases" / "en" / "asr.yaml")] if argv[:1] in (["--a"], ["--resamples"]) else []
    assert cli.main(["asr", "parity", *case_file, *argv]) == 2
    assert words in capsys.readouterr().err


def test_parity_command_takes_the_included_rows_of_a_bench_manifest_clustered_by_speaker(standin_session, capsys):
    from pytest_asrbench import cli

    rows = [json.loads(line) for line in (SAMPLES / "zh-pilot" / "manifest.jsonl").read_text("utf-8").splitlines()]
    assert cli.main(["asr", "parity", "--manifest", str(SAMPLES / "zh-pilot" / "manifest.jsonl"),
                     "--audio-root", str(SAMPLES / "zh"), "--json", "--no-determinism"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(clip["id"], clip["cluster"]) for clip in data["clips"]] == [(row["id"], row["speaker"]) for row in rows]
    [chars] = data["aggregates"]
    assert chars["unit"] == "char" and chars["clusters"] == len({row["speaker"] for row in rows})
    assert not data["determinism_checked"]


def test_arms_with_the_same_settings_are_refused():
    from pytest_asrbench.asr.parity import Arm, ParityClip, run_parity
    from pytest_asrbench.errors import InputError

    clip = ParityClip(id="en-02", audio=EN / "en-02.flac", language="en", reference=REFERENCES["en-02.flac"],
                      settings={"batch_size": 8})
    with pytest.raises(InputError, match="arms A and B give the same engine settings for en-02: nothing to compare"):
        run_parity([clip], Arm("A", {"batch_size": 8}), Arm("B", {}), engine_for=_engines({}))



@needs_faster_whisper
def test_arms_written_apart_that_resolve_to_one_engine_are_refused(tmp_path):
    from pytest_asrbench.asr.parity import Arm, run_parity
    from pytest_asrbench.asr.session import AsrSession
    from pytest_asrbench.errors import InputError

    session = AsrSession(cache_dir=tmp_path, use_cache=False)
    with pytest.raises(InputError, match="arms A and B give one engine for en-02.flac once their settings are resolved"):
        run_parity(_clips("en-02.flac"), Arm("A", {}), Arm("B", {"model": "base", "beam_size": 5}),
                   engine_for=session.engine_for)

def test_parity_command_refuses_a_file_without_asr_cases(standin_session, capsys):
    from pytest_asrbench import cli

    assert cli.main(["asr", "parity", str(ROOT / "cases" / "en" / "numbers.yaml")]) == 2
    assert "no asr case in this file" in capsys.readouterr().err



@pytest.mark.parametrize(("content", "words"), [
    (b"fLaC" + bytes(200), "not decodable audio: FFmpeg cannot read it"),
    (b"hello, this is a text file\n", "not decodable audio: FFmpeg's flac demuxer finds no audio parameters"),
])
def test_parity_command_refuses_an_undecodable_clip_naming_it_before_any_clip_is_decoded(standin_session, tmp_path,
                                                                                         capsys, content, words):
    from pytest_asrbench import cli

    (tmp_path / "corrupt.flac").write_bytes(content)
    (tmp_path / "asr.yaml").write_text(textwrap.dedent(f"""\
        language: en
        cases:
          - {{id: good, kind: asr, audio: {EN / "en-02.flac"}, reference: "Please open the door."}}
          - {{id: broken, kind: asr, audio: corrupt.flac, reference: "Please open the door."}}
        """), encoding="utf-8")
    assert cli.main(["asr", "parity", str(tmp_path / "asr.yaml")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'corrupt.flac'}: {words}" in err and "put a good copy of the file at that path" in err
    assert "[1/" not in err and "zero-length" not in err  # no clip was decoded

# ----------------------------------------------------------------------------- the case option


def _case(parity, audio="en-02.flac"):
    from pytest_asrbench.cases.model import Case

    return Case(id="c", kind="asr", language="en", metric="stt_wer",
                fields={"audio": audio, "reference": REFERENCES[audio], "parity": parity},
                file=EN / "asr.yaml", line=1)


def _run(case):
    from pytest_asrbench.cases.kinds.asr import AsrRunner
    from pytest_asrbench.cases.registry import RunContext

    return AsrRunner().run(case, RunContext(rootpath=ROOT))


@pytest.fixture
def case_session(monkeypatch):
    from pytest_asrbench.asr import session as session_module

    asr = session_module.AsrSession(use_cache=False)
    monkeypatch.setattr("pytest_asrbench.cases.asr_session._GLOBAL", asr)
    texts = {("en-02.flac", 8): "Please open the the door."}
    monkeypatch.setattr(session_module, "create_engine", lambda name, **settings: StandInEngine(texts, **settings))
    return asr


@needs_faster_whisper
def test_a_case_with_a_tight_parity_bound_fails_when_the_arms_differ(case_session):
    result = _run(_case({"engine": {"batch_size": 8}, "max_delta": 0.0}))
    assert not result.passed
    assert ("parity: this engine 'Please open the door.' (WER 0) vs with batch_size=8 'Please open the the door.' "
            "(WER 0.25): delta +0.25 exceeds max_delta 0") in result.failures[0]
    assert _run(_case({"engine": {"batch_size": 8}, "max_delta": 0.25})).passed
    assert _run(_case({"engine": {"batch_size": 8}, "max_delta": 0.0}, audio="en-01.wav")).passed


@needs_faster_whisper
def test_a_parity_engine_that_repeats_the_case_settings_is_refused(case_session):
    from pytest_asrbench.asr.errors import AsrCaseError

    with pytest.raises(AsrCaseError, match="repeats the case's own engine settings"):
        _run(_case({"engine": {}, "max_delta": 0.0}))


@pytest.mark.parametrize("parity, words", [
    ({"engine": {"batch_size": 8}}, "`parity` needs the field `max_delta`"),
    ({"engine": {"batch_size": 8}, "max_delta": -1}, "field `parity.max_delta`: the number -1 is below the least value allowed: write 0 or more"),
    ({"engine": {"batch_size": 8}, "max_delta": 0, "bound": 1}, "unknown field `bound`: remove it or fix its spelling (field `parity` takes: engine, max_delta)"),
])
def test_a_bad_parity_option_is_a_case_file_error(tmp_path, parity, words):
    from pytest_asrbench.cases.loader import load_case_file

    path = tmp_path / "asr.yaml"
    path.write_text(textwrap.dedent(f"""\
        language: en
        cases:
          - id: p
            kind: asr
            audio: {EN / 'en-02.flac'}
            reference: Please open the door.
            parity: {json.dumps(parity)}
        """), encoding="utf-8")
    loaded = load_case_file(path)
    assert not loaded.cases and words in " ".join(str(error) for error in loaded.errors)


@pytest.mark.asr
@pytest.mark.slow
def test_a_sample_clip_keeps_its_transcript_under_batch_8_with_the_embedded_model(tmp_path, engine, monkeypatch):
    from pytest_asrbench.asr import session as session_module

    asr = session_module.AsrSession(use_cache=False)
    monkeypatch.setattr("pytest_asrbench.cases.asr_session._GLOBAL", asr)
    real_create = session_module.create_engine

    def share_the_loaded_model(name, **settings):  # one model load per test session
        made = real_create(name, **settings)
        made._model = engine.load()
        return made

    monkeypatch.setattr(session_module, "create_engine", share_the_loaded_model)
    case = _case({"engine": {"batch_size": 8}, "max_delta": 0.0}, audio="en-01.wav")
    result = _run(case)
    assert result.passed, result.failures
    assert result.output["recordings"][0]["transcript"] == "Good morning, how are you today?"


def test_parity_on_a_manifest_decodes_in_its_sidecars_language(standin_session, capsys):
    from pytest_asrbench import cli

    manifest = SAMPLES / "en-bench" / "manifest.jsonl"
    assert cli.main(["asr", "parity", "--manifest", str(manifest), "--audio-root", str(SAMPLES / "en-bench"),
                     "--json", "--no-determinism"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [aggregate["unit"] for aggregate in data["aggregates"]] == ["word"]
    assert cli.main(["asr", "parity", "--manifest", str(manifest), "--audio-root", str(SAMPLES / "en-bench"),
                     "--language", "zh"]) == 2
    assert "--language zh but" in capsys.readouterr().err
    assert cli.main(["asr", "parity", str(ROOT / "cases" / "en" / "asr.yaml"), "--language", "en"]) == 2
    assert "--language applies to --manifest" in capsys.readouterr().err


def test_parity_on_a_manifest_refuses_missing_audio_unless_allowed_and_then_lists_it(standin_session, tmp_path,
                                                                                     capsys):
    from pytest_asrbench import cli
    from tests.bench.missing_audio import PILOT_AUDIO, pilot_with_missing_audio

    manifest = pilot_with_missing_audio(tmp_path, ("zh-01", "zh-02"), {"zh-02": "zh-02.wav"})
    argv = ["asr", "parity", "--manifest", str(manifest), "--audio-root", str(PILOT_AUDIO), "--json",
            "--no-determinism"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "1 row(s) name an audio file that is not under --audio-root" in err and "  zh-02: zh-02.wav\n" in err
    assert cli.main([*argv, "--allow-missing"]) == 0
    out = capsys.readouterr()
    assert ("asrbench asr parity: --allow-missing: 1 row(s) excluded, their audio file missing (audio-missing):\n"
            "  zh-02: zh-02.wav\n") in out.err
    report = json.loads(out.out)
    assert [clip["id"] for clip in report["clips"]] == ["zh-01"] and report["missing_audio"] == {"zh-02": "zh-02.wav"}
    assert cli.main(["asr", "parity", str(ROOT / "cases" / "en" / "asr.yaml"), "--allow-missing"]) == 2
    assert "--allow-missing applies to --manifest" in capsys.readouterr().err
