"""The model groups the xdist scheduler keeps on one worker: one per engine setting of the
``asr`` cases, none for any other item."""

from __future__ import annotations

from pytest_asrbench.xdist_schedule import ModelGroups

CASES = """\
language: en
cases:
  - {id: plain-a, kind: asr, audio: a.wav, reference: "a"}
  - {id: plain-b, kind: asr, audio: b.wav, reference: "b", engine: {model: embedded}}
  - {id: beam1, kind: asr, audio: a.wav, reference: "a", engine: {beam_size: 1}}
  - {id: norm, kind: normalize, text: Hello, expect: hello}
"""


def test_asr_cases_of_one_engine_setting_share_a_group_and_other_items_have_none(tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "asr.yaml").write_text(CASES, encoding="utf-8")
    groups = ModelGroups(tmp_path)
    plain, beam1 = groups.group("cases/asr.yaml::plain-a"), groups.group("cases/asr.yaml::beam1")
    assert plain.startswith("asr-faster-whisper-embedded-") and beam1.startswith("asr-faster-whisper-embedded-")
    assert plain != beam1
    assert groups.group("cases/asr.yaml::plain-b") != plain  # model named: another engine key, loaded again
    assert groups.group("cases/asr.yaml::norm") is None
    assert groups.group("tests/test_x.py::test_y") is None
    assert groups.group("cases/asr.yaml") is None
