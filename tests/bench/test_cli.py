"""``asrbench refs build``: progress lines, the summary table, --sets, failures and exit codes."""

import json

import pytest

from pytest_asrbench import cli
from pytest_asrbench.bench.references import hub as hub_module
from tests.bench.standin import LocalHub


@pytest.fixture
def use_standin(monkeypatch):
    """Make the command's default source the given stand-in hub."""
    def use(hub):
        monkeypatch.setattr(hub_module, "HubSource", lambda: hub.source())
    return use


def test_refs_build_writes_the_sets_asked_for_with_progress_and_a_table(hub, use_standin, tmp_path, capsys):
    use_standin(hub)
    out = tmp_path / "refs"
    assert cli.main(["refs", "build", "--out", str(out), "--sets", "fleurs", "tv_long"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "[1/2] fleurs: reading google/fleurs@70bb2e84 ..."
    assert lines[1].startswith(f"[1/2] fleurs: 1021 clips, 1021 clusters -> {out / 'fleurs.jsonl'} (")
    assert lines[2] == "[2/2] tv_long: reading typhoon-ai/TVSpeech@b5cca17e ..."
    assert lines[3].startswith("[2/2] tv_long: 18 clips, 18 clusters -> ")
    table = lines[5:]
    assert table[0].split() == ["set", "clips", "expected", "clusters", "dataset", "revision", "result"]
    assert table[2].split()[:6] == ["fleurs", "1021", "1021", "1021", "google/fleurs", "70bb2e84"]
    assert table[3].split()[:6] == ["tv_long", "18", "18", "18", "typhoon-ai/TVSpeech", "b5cca17e"]
    assert table[-1] == f"2 of 2 sets written to {out}"
    assert sorted(p.name for p in out.iterdir()) == ["fleurs.jsonl", "fleurs.meta.json", "tv_long.jsonl", "tv_long.meta.json"]
    assert json.loads((out / "tv_long.jsonl").read_text(encoding="utf-8").splitlines()[0])["id"] == "vid_00-x0"


def test_a_failing_set_is_reported_and_the_others_are_still_built(standin_root, use_standin, tmp_path, capsys):
    use_standin(LocalHub(standin_root, token=None))
    out = tmp_path / "refs"
    assert cli.main(["refs", "build", "--out", str(out), "--sets", "gs2", "isan"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("asrbench refs build: error: gs2: speechcolab/gigaspeech2 is gated")
    assert "huggingface-cli login" in captured.err and "HF_TOKEN" in captured.err
    assert "[1/2] gs2: FAILED (GatedDatasetError)" in captured.out
    assert "FAILED: GatedDatasetError" in captured.out
    assert captured.out.splitlines()[-1] == f"1 of 2 sets written to {out}, 1 failed"
    assert sorted(p.name for p in out.iterdir()) == ["isan.jsonl", "isan.meta.json"]


def test_an_unknown_set_is_bad_usage_before_anything_is_read(hub, use_standin, tmp_path, capsys):
    use_standin(hub)
    assert cli.main(["refs", "build", "--out", str(tmp_path / "refs"), "--sets", "fleurs", "gs3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("asrbench refs build: error: unknown set gs3; the sets are: fleurs tvspeech gs2 isan")
    assert hub.downloads == [] and not (tmp_path / "refs").exists()


def test_refs_build_needs_out(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["refs", "build"])
    assert exit_info.value.code == 2
    assert "--out" in capsys.readouterr().err
