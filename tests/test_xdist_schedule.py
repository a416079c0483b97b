"""The model groups the xdist scheduler keeps on one worker: one per engine setting of the
``asr`` cases as the engine resolves it (defaults applied, model aliases resolved), none for any
other item."""

from __future__ import annotations

from pytest_asrbench.xdist_schedule import ModelGroups

CASES = """\
language: en
cases:
  - {id: plain-a, kind: asr, audio: a.wav, reference: "a"}
  - {id: base, kind: asr, audio: b.wav, reference: "b", engine: {model: base}}
  - {id: embedded, kind: asr, audio: b.wav, reference: "b", engine: {model: embedded}}
  - {id: spelled-out, kind: asr, audio: a.wav, reference: "a",
     engine: {name: faster-whisper, model: whisper-base, beam_size: 5, batch_size: 1, device: cpu}}
  - {id: beam1, kind: asr, audio: a.wav, reference: "a", engine: {beam_size: 1}}
  - {id: tiny, kind: asr, audio: a.wav, reference: "a", engine: {model: tiny.en}}
  - {id: batched, kind: asr, audio: a.wav, reference: "a", engine: {batch_size: 8}}
  - {id: bad-compute-type, kind: asr, audio: a.wav, reference: "a", engine: {compute_type: int9}}
  - {id: norm, kind: normalize, text: Hello, expect: hello}
"""


def _groups(tmp_path) -> ModelGroups:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "asr.yaml").write_text(CASES, encoding="utf-8")
    return ModelGroups(tmp_path)


def test_settings_that_decode_alike_share_one_group(tmp_path):
    groups = _groups(tmp_path)
    plain = groups.group("cases/asr.yaml::plain-a")
    assert plain.startswith("asr-faster-whisper-embedded-")
    # no engine block, the base model by any alias, the defaults written out: one engine, one model load
    for case in ("base", "embedded", "spelled-out"):
        assert groups.group(f"cases/asr.yaml::{case}") == plain, case


def test_settings_that_decode_differently_are_groups_of_their_own(tmp_path):
    groups = _groups(tmp_path)
    names = [groups.group(f"cases/asr.yaml::{case}") for case in ("plain-a", "beam1", "tiny", "batched")]
    assert len(set(names)) == len(names), names
    assert groups.group("cases/asr.yaml::tiny").startswith("asr-faster-whisper-tiny.en-")


def test_a_setting_the_engine_refuses_is_grouped_as_written_and_left_to_its_case(tmp_path):
    # the case fails with the engine's error when it runs; scheduling must not fail on it
    groups = _groups(tmp_path)
    bad = groups.group("cases/asr.yaml::bad-compute-type")
    assert bad.startswith("asr-faster-whisper-default-") and bad != groups.group("cases/asr.yaml::plain-a")


def test_items_that_load_no_model_have_no_group(tmp_path):
    groups = _groups(tmp_path)
    assert groups.group("cases/asr.yaml::norm") is None
    assert groups.group("tests/test_x.py::test_y") is None
    assert groups.group("cases/asr.yaml") is None
