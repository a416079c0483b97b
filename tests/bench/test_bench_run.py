"""``asrbench bench run``: the smoke record, the zh pilot through the embedded model, the
record against the shipped schema, critical tokens and what the record says it cannot measure."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from pytest_asrbench.bench.errors import RecordError
from pytest_asrbench.bench.run.critical import critical_tokens, token_failures
from pytest_asrbench.bench.run.schema import check_record, record_schema, schema_problems
from pytest_asrbench.bench.run.views import VIEWS
from pytest_asrbench.cli import main


def test_smoke_writes_a_schema_valid_record_without_model_audio_or_network(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "smoke.json"
    assert main(["bench", "run", "--smoke", "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert schema_problems(record) == []
    assert record["schema"] == "asrbench.bench/1" and record["smoke"] is True
    assert record["valid_for_claim"] is False
    assert "a smoke record: no model, audio or network was used" in record["validity_reasons"]
    assert record["model"]["licence"]["verdict"] == "undeclared"



def test_a_record_written_before_missing_audio_was_recorded_still_validates(tmp_path, monkeypatch):
    # Records of earlier versions have no corpus.missing_audio; `bench compare` must still read them.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "smoke.json"
    assert main(["bench", "run", "--smoke", "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["corpus"]["missing_audio"] == {}
    del record["corpus"]["missing_audio"]
    assert schema_problems(record) == []


def test_a_smoke_record_states_the_decode_policy_a_real_run_of_its_options_would(tmp_path, monkeypatch):
    """One policy builder for both records: the smoke one names batching and the device too."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    records = {}
    for batch in ("1", "8"):
        out = tmp_path / f"smoke-{batch}.json"
        assert main(["bench", "run", "--smoke", "--batch-size", batch, "--out", str(out)]) == 0
        records[batch] = json.loads(out.read_text(encoding="utf-8"))["decode_policy"]
    assert records["1"]["batch_size"] == 1 and records["8"]["batch_size"] == 8
    assert {key: value for key, value in records["1"].items() if key != "batch_size"} == {
        "language": "zh", "forced_language": True, "script_target": "simplified", "production_script_conversion": False,
        "temperature": 0.0, "condition_on_previous_text": False, "vad_filter": False, "silence_gate": True,
        "detect_language": False, "transcribe_options": {}, "device": "cpu",
        "audio": "16 kHz mono float32 (faster-whisper's PyAV decoder)"}

def test_the_schema_refuses_a_broken_record(tmp_path):
    out = tmp_path / "smoke.json"
    main(["bench", "run", "--smoke", "-o", str(out)])  # -o is --out
    record = json.loads(out.read_text(encoding="utf-8"))
    broken = copy.deepcopy(record)
    del broken["performance"]["peak_rss_bytes"]
    broken["decode_policy"]["production_script_conversion"] = True
    problems = schema_problems(broken)
    assert any("peak_rss_bytes" in p for p in problems) and any("production_script_conversion" in p for p in problems)
    with pytest.raises(RecordError, match="does not match the asrbench.bench/1 schema"):
        check_record(broken)


def test_bench_run_without_a_manifest_says_what_to_give(tmp_path, capsys):
    assert main(["bench", "run", "--out", str(tmp_path / "r.json")]) == 2
    assert "--manifest and --audio-root are required (or --smoke" in capsys.readouterr().err


def test_a_bad_out_path_is_refused_before_any_work(tmp_path, capsys):
    assert main(["bench", "run", "--smoke", "--out", str(tmp_path / "missing" / "r.json")]) == 2
    assert "--out" in capsys.readouterr().err


def test_the_pilot_record_validates_and_holds_the_measurement_record(pilot_runs):
    _, record = pilot_runs[5]
    assert schema_problems(record) == []
    corpus = record["corpus"]
    assert corpus["rows"] == {"total": 5, "included": 5, "excluded": 0}
    assert corpus["slices"] == {"long_form": {"rows": 1, "speakers": 1}, "short": {"rows": 3, "speakers": 1},
                                "silence": {"rows": 1, "speakers": 1}}
    assert corpus["preregistration"]["valid_for_claim"] is True
    # a pilot is never evidence for a claim, whatever its pre-registration
    assert record["valid_for_claim"] is False
    assert record["validity_reasons"] == ["a pilot split: it finds pipeline issues, it is not evidence for a claim "
                                          "(the protocol)"]
    model = record["model"]
    assert model["model_sha256"] == "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57"
    assert model["file_sha256"]["model.bin"] == model["model_sha256"]
    assert model["revision"]["matches_declared"] is True
    assert model["licence"]["verdict"] == "permissive"
    assert record["decode_policy"]["language"] == "zh"
    assert record["decode_policy"]["production_script_conversion"] is False
    for key in ("os", "architecture", "cpu_model", "ram_bytes", "threads", "compute_type", "kernels"):
        assert record["host"][key] is not None, key
    perf = record["performance"]
    for key in ("cold_load_seconds", "latency_p50_seconds", "latency_p95_seconds", "real_time_factor",
                "cpu_core_seconds", "peak_rss_bytes"):
        assert perf[key] is not None and perf[key] > 0, key
    assert perf["latency_p50_seconds"] <= perf["latency_p95_seconds"]
    assert set(record["unmeasured"]) >= {"power", "streaming_stability", "speaker_leakage"}
    # measured now: the run opened no socket, and the runtime closure is the imported distributions' bytes
    assert record["surface"]["egress"]["socket_events"] == 0
    assert record["surface"]["runtime_closure"]["distributions"]["faster-whisper"] > 0
    assert not {"egress_audit", "runtime_closure_bytes"} & set(record["unmeasured"])
    short = record["slice_statistics"]["short"]
    assert short["utterances"] == 3 and short["latency_p50_seconds"] <= short["latency_p95_seconds"]
    assert record["slice_statistics"]["silence"]["text_output"]["total"] == 1


def test_the_pilot_scores_four_views_per_slice_and_overall(pilot_runs):
    _, record = pilot_runs[5]
    metrics = record["metrics"]
    assert metrics["views"] == list(VIEWS)
    for views in [metrics["overall"], *metrics["slices"].values()]:
        assert list(views) == list(VIEWS)
    overall = metrics["overall"]
    # short + long-form references: 15 + 30 code points raw, 12 + 24 without punctuation
    assert overall["cer_raw"]["reference_length"] == 45
    assert overall["cer_normalized"]["reference_length"] == 36
    for name in VIEWS:
        view = overall[name]
        assert view["errors"] == view["substitutions"] + view["deletions"] + view["insertions"]
    # removing punctuation and folding script can only help: raw >= normalized >= script-normalized
    assert overall["cer_raw"]["rate"] >= overall["cer_normalized"]["rate"] >= overall["cer_script_normalized"]["rate"]
    assert record["script"]["conversion_ran"] is True
    assert record["script"]["opencc"] == {"opencc": "1.4.2"}
    # the silence slice has no reference characters: no rate, never an invented 0
    assert metrics["slices"]["silence"]["cer_raw"]["rate"] is None


def test_the_pilot_counts_silence_and_long_form(pilot_runs):
    _, record = pilot_runs[5]
    safety = record["safety"]
    assert safety["silence_utterances"] == 1
    assert safety["silence_hallucinations"] + safety["silence_no_output"] == 1
    (longform,) = record["long_form"]
    assert longform["id"] == "zh-long" and len(longform["intervals"]) == 6
    assert [i["reference"] for i in longform["intervals"]] == ["谢谢你。", "我爱你。", "我们去吃饭吧。"] * 2
    # every interval is scored; the shipped transcripts are shared (CC0 corpus, share_transcripts)
    assert all(set(i["views"]) == set(VIEWS) for i in longform["intervals"])
    assert record["exemplars"]["permitted"] is True


def test_utterances_carry_counts_not_text_unless_sharing_is_permitted(pilot_runs):
    _, record = pilot_runs[1]
    utterance = record["utterances"][0]
    assert set(utterance["views"]) == set(VIEWS)
    assert "reference" in utterance  # the pilot's sidecar permits sharing
    assert record["engine"]["identity"]["decode"]["beam_size"] == 1


@pytest.mark.parametrize(("text", "tokens"), [
    ("我的电话是１３８-0013", [("code", "138-0013")]),
    ("2026年3月5日开会", [("date", "2026年3月5日")]),
    ("打开GitHub的MSK-2041", [("latin", "github"), ("code", "msk-2041")]),
    ("版本v1.2共3.5元", [("code", "v1.2"), ("digits", "3.5")]),
    ("学C++和example.com", [("latin", "c++"), ("code", "example.com")]),
    ("谢谢你", []),
])
def test_critical_tokens_by_category(text, tokens):
    assert critical_tokens(text) == tokens


def test_a_wrong_critical_token_counts_even_when_cer_is_low():
    # one digit of eleven differs: CER is low, the phone number is still wrong
    failures = token_failures("请拨打13800138000谢谢", "请拨打13800138001谢谢")
    assert failures == {"digits": {"total": 1, "failed": 1, "tokens": ["13800138000"]}}
    # numerals are not converted: 2026 heard as 二零二六 fails (the protocol)
    assert token_failures("2026年", "二零二六年")["digits"]["failed"] == 1
    # width and Latin case are folded
    assert token_failures("打开ＧｉｔＨｕｂ", "打开github") == {"latin": {"total": 1, "failed": 0, "tokens": []}}


def test_the_schema_ships_as_package_data():
    assert record_schema()["properties"]["schema"] == {"const": "asrbench.bench/1"}


def _pilot_copy(tmp_path, change):
    """The pilot manifest copied with ``change(rows)`` applied, its sidecar beside it."""
    from tests.bench.conftest import PILOT

    rows = [json.loads(line) for line in (PILOT / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    change(rows)
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    (tmp_path / "manifest.meta.json").write_bytes((PILOT / "manifest.meta.json").read_bytes())
    return manifest


def test_a_pilot_row_without_consent_is_excluded_counted_and_the_run_falls_short(pilot_runs, tmp_path, capsys):
    from tests.bench.conftest import PILOT, PILOT_AUDIO

    def withdraw(rows):
        rows[1]["consent"] = None

    manifest = _pilot_copy(tmp_path, withdraw)
    prereg = json.loads((PILOT / "preregistration.json").read_text(encoding="utf-8"))
    del prereg["manifest_sha256"]  # another manifest now: the registered hash would refuse it (below)
    (tmp_path / "prereg.json").write_text(json.dumps(prereg), encoding="utf-8")
    out = tmp_path / "run.json"
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(PILOT_AUDIO), "--threads", "2",
                 "--model-license", "MIT", "--license-source", "https://github.com/openai/whisper#license",
                 "--preregistration", str(tmp_path / "prereg.json"), "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["corpus"]["exclusions"] == {"row-no-consent": 1}
    assert record["corpus"]["excluded_ids"] == {"zh-02": "row-no-consent"}
    assert [u["id"] for u in record["utterances"]] == ["zh-01", "zh-03", "zh-noise", "zh-long"]
    assert record["corpus"]["preregistration"]["shortfalls"] == ["slice short: 2 rows included, 3 pre-registered"]
    assert "slice short: 2 rows included, 3 pre-registered" in record["validity_reasons"]
    assert "excluded: row-no-consent 1" in capsys.readouterr().out


def test_the_registered_manifest_hash_refuses_an_edited_manifest(tmp_path, capsys):
    from tests.bench.conftest import PILOT, PILOT_AUDIO

    def edit(rows):
        rows[0]["reference"] = "谢谢您。"

    manifest = _pilot_copy(tmp_path, edit)
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(PILOT_AUDIO),
                 "--preregistration", str(PILOT / "preregistration.json"), "--out", str(tmp_path / "r.json")]) == 2
    assert "is not the expected" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_a_corpus_without_consent_is_refused_before_the_model_loads(tmp_path, capsys):
    from tests.bench.conftest import PILOT_AUDIO

    manifest = _pilot_copy(tmp_path, lambda rows: None)
    meta = json.loads((tmp_path / "manifest.meta.json").read_text(encoding="utf-8"))
    meta["consent"] = "unknown"
    (tmp_path / "manifest.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(PILOT_AUDIO), "--model",
                 str(tmp_path / "no-model"), "--out", str(tmp_path / "r.json")]) == 2
    assert "(corpus-no-consent)" in capsys.readouterr().err




@pytest.mark.parametrize(("content", "words"), [
    (b"fLaC" + b"\x00" * 200, "not decodable audio: FFmpeg cannot read it"),  # a header, then nothing decodable
    (b"hello, this is a text file\n", "not decodable audio: FFmpeg's flac demuxer finds no audio parameters"),
])
def test_an_undecodable_clip_in_the_manifest_is_refused_naming_it_before_the_model_loads(tmp_path, capsys, content,
                                                                                         words):
    """Probed up front: no model load (the model named does not even exist) and no clip decoded."""
    import hashlib
    import shutil

    pytest.importorskip("av", reason="the asr extra: pip install -e '.[asr]'")
    from pytest_asrbench.bench.manifest.meta import audio_set_digest
    from tests.bench.conftest import PILOT, PILOT_AUDIO

    manifest = _pilot_copy(tmp_path, lambda rows: None)
    audio = tmp_path / "audio"
    shutil.copytree(PILOT_AUDIO, audio)
    rows = [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines()]
    broken = audio / rows[2]["audio"]
    broken.write_bytes(content)
    meta = json.loads((tmp_path / "manifest.meta.json").read_text(encoding="utf-8"))
    meta["audio_sha256"] = audio_set_digest(
        (row["audio"], hashlib.sha256((audio / row["audio"]).read_bytes()).hexdigest()) for row in rows)
    (tmp_path / "manifest.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(audio), "--model",
                 str(tmp_path / "no-model"), "--out", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert f"{broken}: {words}" in err and "put a good copy of the file at that path" in err
    assert "no-model" not in err and "zero-length" not in err and not (tmp_path / "r.json").exists()


def _usable_cpus_of_64(monkeypatch, usable: int) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(usable)), raising=False)
    monkeypatch.setattr(os, "process_cpu_count", lambda: usable, raising=False)


@pytest.mark.parametrize(("usable", "threads"), [(1, 1), (2, 2), (64, 4)])
def test_threads_default_to_the_cpus_the_process_may_use_at_most_four(monkeypatch, usable, threads):
    from pytest_asrbench.cli import build_parser

    _usable_cpus_of_64(monkeypatch, usable)
    args = build_parser().parse_args(["bench", "run", "--smoke", "--out", "run.json"])
    assert args.threads == threads


#: Two rows of the pilot whose audio files are missing, the row kept whose file is there.
MISSING = {"zh-02": "gone/zh-02.flac", "zh-03": "zh-03.wav"}
KEPT = ("zh-01", "zh-02", "zh-03")


def test_rows_whose_audio_is_missing_refuse_the_run_listing_every_file_before_the_model_loads(tmp_path, capsys):
    from tests.bench.missing_audio import PILOT_AUDIO, pilot_with_missing_audio

    manifest = pilot_with_missing_audio(tmp_path, KEPT, MISSING)
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(PILOT_AUDIO), "--model",
                 str(tmp_path / "no-model"), "--out", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert (f"{manifest}: 2 row(s) name an audio file that is not under --audio-root {PILOT_AUDIO} (audio-missing):\n"
            "  zh-02: gone/zh-02.flac\n  zh-03: zh-03.wav\n") in err
    assert "pass --allow-missing to run without these rows" in err
    assert "no-model" not in err and not (tmp_path / "r.json").exists()


def test_allow_missing_lists_the_excluded_rows_on_stderr_and_records_them(tmp_path, capsys):
    pytest.importorskip("faster_whisper", reason="the asr extra: pip install -e '.[asr]'")
    from tests.bench.missing_audio import PILOT_AUDIO, pilot_with_missing_audio

    manifest = pilot_with_missing_audio(tmp_path, KEPT, MISSING)
    out = tmp_path / "run.json"
    assert main(["bench", "run", "--manifest", str(manifest), "--audio-root", str(PILOT_AUDIO), "--allow-missing",
                 "--threads", "1", "--beam-size", "1", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert ("asrbench bench run: --allow-missing: 2 row(s) excluded, their audio file missing (audio-missing):\n"
            "  zh-02: gone/zh-02.flac\n  zh-03: zh-03.wav\n") in captured.err
    record = json.loads(out.read_text(encoding="utf-8"))
    corpus = record["corpus"]
    assert corpus["excluded_ids"] == {"zh-02": "audio-missing", "zh-03": "audio-missing"}
    assert corpus["missing_audio"] == MISSING and corpus["exclusions"] == {"audio-missing": 2}
    assert [u["id"] for u in record["utterances"]] == ["zh-01"] and "--allow-missing" in record["command"]
    assert "excluded: audio-missing 2" in captured.out


def test_the_run_summary_gives_peak_memory_in_mebibytes():
    from pytest_asrbench.bench.run.cli import summary

    record = _smoke_record()
    record["smoke"] = False
    record["performance"].update({"cold_load_seconds": 1.0, "latency_p50_seconds": 0.5, "latency_p95_seconds": 0.9,
                                      "real_time_factor": 0.3, "cpu_core_seconds": 4.0, "peak_rss_bytes": 399_585_280})
    assert any(line.endswith("peak RSS 381 MiB") for line in summary(record))
    record["performance"]["peak_rss_bytes"] = None
    assert any(line.endswith("peak RSS unmeasured") for line in summary(record))


def test_the_run_summary_names_the_clip_that_drives_the_overall_rate():
    from pytest_asrbench.bench.run.cli import summary

    record = _smoke_record()
    primary = record["metrics"]["primary_view"]
    record["metrics"]["unit"] = "char"

    def clip(ident, substitutions, insertions, length):
        return {"id": ident, "views": {primary: {"substitutions": substitutions, "deletions": 0,
                                                 "insertions": insertions, "reference_length": length}}}
    # nine clips with one substitution in 10 characters, and one that loops: 60 insertions over 8
    record["utterances"] = [clip(f"zh-{n:02d}", 1, 0, 10) for n in range(9)] + [clip("zh-loop", 0, 60, 8)]
    lines = summary(record)
    start = lines.index(f"overall {primary} is driven by 1 of 10 clip(s), holding 60 of 69 errors (87%); 10.00% "
                        "without it:")
    assert lines[start + 1] == ("  zh-loop: 60 error(s) over 8 reference chars, 60 insertion(s) > 2x its reference "
                                "length: the hypothesis is much longer (a hallucination or repetition loop?)")
    record["utterances"] = [clip(f"zh-{n:02d}", 1, 0, 10) for n in range(9)]
    assert not any("driven by" in line for line in summary(record))


def _smoke_record() -> dict:
    from pytest_asrbench.bench.run.settings import RunSettings
    from pytest_asrbench.bench.run.smoke import smoke_record

    return smoke_record(RunSettings(manifest=Path("m.jsonl"), audio_root=Path(".")))


def test_run_settings_default_to_the_engine_options_of_the_command_line(monkeypatch):
    # one default each, defined once: a RunSettings made in code runs as the command would
    from pytest_asrbench.bench.run.settings import RunSettings
    from pytest_asrbench.cli import build_parser

    _usable_cpus_of_64(monkeypatch, 3)
    args = build_parser().parse_args(["bench", "run", "--smoke", "--out", "run.json"])
    settings = RunSettings(manifest=Path("m.jsonl"), audio_root=Path("audio"))
    assert settings.threads == args.threads == 3
    for name in ("model", "beam_size", "compute_type", "batch_size", "device", "engine"):
        assert getattr(settings, name) == getattr(args, name), name
    assert settings.allow_missing is args.allow_missing is False
