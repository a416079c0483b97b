"""The reference builder against the local stand-in: every set's rules, the real expected
counts, the audio column never read, and a clear error for each way a build can fail."""

import json
import shutil

import pytest

from pytest_asrbench.bench.errors import (
    DatasetMissingError,
    DuplicateIdError,
    GatedDatasetError,
    HubUnreachableError,
    ReferenceCountError,
    RevisionMissingError,
    SourceFormatError,
    UnknownSetError,
)
from pytest_asrbench.bench.references.builder import build_set
from pytest_asrbench.bench.references.hub import hub_errors
from pytest_asrbench.bench.references.parquet import read_split
from pytest_asrbench.bench.references.pins import (
    EXPECTED_CLIPS,
    GIGASPEECH2,
    ISAN,
    LOTUSDIS,
    PARQUET_BLOCK_SIZE,
    REVISIONS,
    TVSPEECH,
)
from pytest_asrbench.bench.references.sets import SETS, BuildContext, resolve_sets
from tests.bench.standin import TV_VIDEOS, AudioColumnRead, LocalHub, write_fleurs, write_isan


def _build(hub, out, names=None, expected=EXPECTED_CLIPS):
    context = BuildContext(hub.source())
    return {spec.name: build_set(spec, context, out, expected) for spec in resolve_sets(names)}


def _read(out, name):
    return [json.loads(line) for line in (out / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def built(tmp_path_factory, standin_root):
    """Every set built once from the stand-in; (hub, output folder)."""
    hub = LocalHub(standin_root)
    out = tmp_path_factory.mktemp("refs")
    _build(hub, out)
    return hub, out


def test_every_set_has_an_expected_count_in_build_order():
    assert list(SETS) == list(EXPECTED_CLIPS)
    assert len(SETS) == 11


def test_all_eleven_sets_are_built_with_the_seeds_counts(built):
    _, out = built
    for name, expected in EXPECTED_CLIPS.items():
        rows = _read(out, name)
        assert len(rows) == expected, name
        assert len({row["id"] for row in rows}) == expected, name
        assert all(list(row) == ["id", "text", "cluster"] for row in rows), name
    assert EXPECTED_CLIPS["gs2"] == 8823 and EXPECTED_CLIPS["lotus_jbl"] == 5516 and EXPECTED_CLIPS["gs2_long"] == 31


def test_files_are_utf8_one_object_per_line_and_have_a_sidecar(built):
    _, out = built
    raw = (out / "fleurs.jsonl").read_bytes()
    assert "ราคา 2200 บาท".encode() in raw  # not \u-escaped
    assert raw.endswith(b"\n") and b"\n\n" not in raw
    meta = json.loads((out / "fleurs.meta.json").read_text(encoding="utf-8"))
    assert meta["schema"] == "asrbench.refs/1" and meta["clips"] == 1021 and meta["cleaning"] == "th-bench-v1"
    assert meta["revision"] == REVISIONS["google/fleurs"]
    import hashlib
    assert meta["sha256"] == hashlib.sha256(raw).hexdigest()
    assert json.loads((out / "tvspeech.meta.json").read_text())["cleaning"] is None


def test_sets_holding_the_same_clusters_declare_one_cluster_namespace(built):
    _, out = built
    namespace = {name: json.loads((out / f"{name}.meta.json").read_text(encoding="utf-8"))["cluster_namespace"]
                 for name in EXPECTED_CLIPS}
    assert namespace["tvspeech"] == namespace["tv_long"] == "typhoon-ai/TVSpeech video"
    assert namespace["gs2"] == namespace["gs2_long"] == "speechcolab/gigaspeech2 recording"
    assert len({namespace[f"lotus_{mic}"] for mic in ("con123", "lav123", "jbl", "bt3m", "bt10m")}) == 1
    others = {namespace[name] for name in ("fleurs", "isan", "tvspeech", "gs2", "lotus_jbl")}
    assert len(others) == 5  # different sources never share a namespace
    for short, long in (("tvspeech", "tv_long"), ("gs2", "gs2_long")):  # the same ids: the long set's are a subset
        assert {row["cluster"] for row in _read(out, long)} <= {row["cluster"] for row in _read(out, short)}
    assert not list(out.glob(".*.tmp"))


def test_fleurs_id_and_cluster_are_the_wav_name_and_text_is_cleaned(built):
    _, out = built
    rows = _read(out, "fleurs")
    assert rows[:4] == [
        {"id": "7000000.wav", "text": "ราคา 2200 บาท", "cluster": "7000000.wav"},
        {"id": "7000001.wav", "text": "ข่าว วันนี้", "cluster": "7000001.wav"},
        {"id": "7000002.wav", "text": "น้ำใส hello world!", "cluster": "7000002.wav"},
        {"id": "7000003.wav", "text": "อะไร?", "cluster": "7000003.wav"},
    ]


def test_tvspeech_ids_are_row_indexes_across_files_and_clusters_are_video_ids(built):
    _, out = built
    rows = _read(out, "tvspeech")
    assert [row["id"] for row in rows] == [str(i) for i in range(570)]
    assert rows[0] == {"id": "0", "text": " ประโยค 0 ", "cluster": "vid_00-x0"}  # not cleaned
    assert rows[300]["cluster"] == TV_VIDEOS[300 % 18]  # second parquet file continues the index
    assert {row["cluster"] for row in rows} == set(TV_VIDEOS)


def test_gs2_is_cleaned_and_clustered_by_recording(built):
    _, out = built
    rows = {row["id"]: row for row in _read(out, "gs2")}
    assert rows["3-12"] == {"id": "3-12", "text": "สวัสดี ครับ ส่วน 312!", "cluster": "3"}
    assert len({row["cluster"] for row in rows.values()}) == 32


def test_gs2_long_joins_each_recording_in_segment_order_and_leaves_26_out(built):
    _, out = built
    rows = {row["id"]: row for row in _read(out, "gs2_long")}
    assert "26" not in rows and len(rows) == 31
    segments = [f"5-{index}" for index in range(len([i for i in range(8823) if i % 32 == 5]))]
    assert rows["5"] == {"id": "5", "cluster": "5",
                         "text": " ".join(f"สวัสดี ครับ ส่วน {s.replace('-', '')}!" for s in segments)}


def test_tv_long_joins_each_video_in_row_order_with_one_space(built):
    _, out = built
    rows = {row["id"]: row for row in _read(out, "tv_long")}
    assert len(rows) == 18
    assert rows["vid_01-x1"]["text"] == " ".join(f"ประโยค {i}" for i in range(1, 570, 18))
    assert rows["vid_01-x1"]["cluster"] == "vid_01-x1"


def test_isan_takes_the_thai_spelling_and_the_speaker(built):
    _, out = built
    rows = _read(out, "isan")
    assert rows[1] == {"id": "opentyphoon;is;f_001;fin;0001.wav", "text": "ทำอะไร ไม่รู้ 1", "cluster": "f_001"}
    assert rows[0]["cluster"] == "m_000"  # name is empty: the speaker comes from the id


def test_lotus_sets_keep_one_microphone_each(built):
    _, out = built
    for mic, spelled in (("con123", "Con123"), ("jbl", "JBL"), ("bt10m", "BT10m")):
        rows = _read(out, f"lotus_{mic}")
        assert rows[0] == {"id": f"Hijack_S001_T000_{spelled}_chunk0", "text": "ประชุม 0", "cluster": "S001"}
        assert all(f"_{spelled}_" in row["id"] for row in rows)


def test_parquet_is_opened_in_small_blocks_and_the_audio_is_never_read(built):
    hub, _ = built
    assert hub.opened and {block for _, block in hub.opened} == {PARQUET_BLOCK_SIZE}
    # the five LOTUSDIS sets share one read of the split (three files), TVSpeech and tv_long one
    assert sorted(path.split("@")[0] for path, _ in hub.opened) == sorted(
        [f"datasets/{LOTUSDIS}"] * 3 + [f"datasets/{TVSPEECH}"] * 2 + [f"datasets/{ISAN}"])
    assert all(reads for reads in hub.reads.values())  # the guard saw every read


def test_the_guard_does_catch_an_audio_read(hub):
    with pytest.raises(AudioColumnRead, match="audio column chunk"):
        read_split(hub.source(), ISAN, "test", ["id", "audio"])


def test_a_count_mismatch_names_the_set_and_writes_nothing(hub, tmp_path):
    write_fleurs(hub, lines=1020)
    out = tmp_path / "refs"
    out.mkdir()
    (out / "fleurs.jsonl").write_text("previous\n", encoding="utf-8")
    with pytest.raises(ReferenceCountError, match=r"^fleurs: built 1020 clips, expected 1021 \(google/fleurs at 70bb2e84b976\).*nothing was written"):
        _build(hub, out, ["fleurs"])
    assert (out / "fleurs.jsonl").read_text(encoding="utf-8") == "previous\n"


def test_repeated_ids_are_refused(hub, tmp_path):
    path = hub.dataset_folder("google/fleurs") / "data" / "th_th" / "test.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-1] + [lines[0]]) + "\n", encoding="utf-8")
    with pytest.raises(DuplicateIdError, match=r"^fleurs: 1 ids occur more than once \(e\.g\. '7000000\.wav'\)"):
        _build(hub, tmp_path, ["fleurs"])


def test_a_missing_revision_says_the_pin_must_change(hub, tmp_path):
    folder = hub.dataset_folder(TVSPEECH)
    folder.rename(folder.with_name("0" * 40))
    with pytest.raises(RevisionMissingError, match=r"^tv_long: the pinned commit b5cca17eb293\w+ of typhoon-ai/TVSpeech is not on the hub.*pins\.py"):
        _build(hub, tmp_path, ["tv_long"])


def test_gs2_without_a_token_says_how_to_log_in_before_any_download(standin_root, tmp_path):
    hub = LocalHub(standin_root, token=None)
    with pytest.raises(GatedDatasetError, match=r"^gs2_long: speechcolab/gigaspeech2 is gated and no Hugging Face token.*"
                                                r"https://huggingface.co/datasets/speechcolab/gigaspeech2.*huggingface-cli login.*HF_TOKEN"):
        _build(hub, tmp_path, ["gs2_long"])
    assert hub.downloads == []
    _build(hub, tmp_path, ["fleurs"])  # the other datasets need no token


def test_a_token_without_accepted_terms_is_a_gated_error():
    from tests.bench.standin import _http_error
    from huggingface_hub.errors import GatedRepoError

    with pytest.raises(GatedDatasetError, match="accept its access terms on https://huggingface.co/datasets/speechcolab/gigaspeech2"):
        with hub_errors(GIGASPEECH2, "downloading data/th/test.tsv"):
            raise _http_error(GatedRepoError, "403 gated", 403)


@pytest.mark.parametrize("state", ["offline", "unreachable"])
def test_the_network_off_is_a_clear_error(hub, tmp_path, state, monkeypatch):
    setattr(hub, state, True)
    if state == "offline":
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    message = r"^isan: typhoon-ai/thai-dialect-isan-dataset at dfc7e495b306: " + (
        "the Hugging Face Hub is not reachable offline.*unset HF_HUB_OFFLINE" if state == "offline"
        else "cannot reach the Hugging Face Hub.*check the network")
    with pytest.raises(HubUnreachableError, match=message):
        _build(hub, tmp_path, ["isan"])


def test_no_network_without_hf_hub_offline_says_no_network(hub, tmp_path, monkeypatch):
    """A DNS failure reaches us as huggingface_hub's LocalEntryNotFoundError (nothing cached):
    HF_HUB_OFFLINE is not set, so the message must not tell to unset it."""
    from huggingface_hub.errors import LocalEntryNotFoundError

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)

    def no_dns(*args, **kwargs):
        raise LocalEntryNotFoundError("An error happened while trying to locate the file on the Hub and we "
                                      "cannot find the requested files in the local cache.")

    monkeypatch.setattr(hub, "_folder", no_dns)
    with pytest.raises(HubUnreachableError, match=r"^isan: .*cannot reach the Hugging Face Hub: no network") as caught:
        _build(hub, tmp_path, ["isan"])
    assert "HF_HUB_OFFLINE" not in str(caught.value)


def test_huggingface_hubs_own_offline_mode_is_reported(monkeypatch, tmp_path):
    """The default transports (huggingface_hub's), with HF_HUB_OFFLINE=1 in a fresh interpreter."""
    import subprocess
    import sys

    code = ("from pytest_asrbench.bench.references.hub import HubSource\n"
            "from pytest_asrbench.bench.errors import HubUnreachableError\n"
            "source = HubSource()\n"
            "for call in (lambda: source.list_files('google/fleurs'), lambda: source.fetch('google/fleurs', 'data/th_th/test.tsv')):\n"
            "    try:\n        call()\n    except HubUnreachableError as exc:\n        print(exc)\n")
    env = {"HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all("not reachable offline" in line and "HF_HUB_OFFLINE" in line for line in lines)


def test_a_missing_column_names_the_file_and_the_columns(hub, tmp_path):
    import pyarrow.parquet as pq

    path = hub.dataset_folder(ISAN) / "data" / "test-00000-of-00001.parquet"
    table = pq.read_table(path).drop_columns(["raw"])
    pq.write_table(table, path)
    with pytest.raises(SourceFormatError, match=r"^isan: typhoon-ai/thai-dialect-isan-dataset/data/test-00000-of-00001\.parquet "
                                                r"has no column raw \(its columns: audio, id, name, thai_spelling\)"):
        _build(hub, tmp_path, ["isan"])


def test_a_malformed_transcript_line_names_the_line(hub, tmp_path):
    path = hub.dataset_folder(GIGASPEECH2) / "data" / "th" / "test.tsv"
    path.write_text("0-0\tก\n0-1 ข\n", encoding="utf-8")
    with pytest.raises(SourceFormatError, match=r"^gs2: speechcolab/gigaspeech2/data/th/test\.tsv line 2 has 1 tab-separated fields, expected 2"):
        _build(hub, tmp_path, ["gs2"])
    path.write_text("0-0\tก\nzero\tข\n", encoding="utf-8")
    with pytest.raises(SourceFormatError, match=r"line 2: segment id 'zero' is not <recording>-<index>"):
        _build(hub, tmp_path, ["gs2"])


def test_an_unreadable_speaker_and_a_bad_video_id_are_errors(hub, tmp_path):
    write_isan(hub, rows=3)
    path = hub.dataset_folder(ISAN) / "data" / "test-00000-of-00001.parquet"
    import pyarrow.parquet as pq
    table = pq.read_table(path)
    table = table.set_column(table.schema.get_field_index("name"), "name", [[None, "a;b", None]])
    pq.write_table(table, path)
    with pytest.raises(SourceFormatError, match=r"^isan: .*row id .*: cannot read the speaker from 'a;b'"):
        _build(hub, tmp_path, ["isan"])
    from pytest_asrbench.bench.references.tvspeech import video_id
    with pytest.raises(SourceFormatError, match="audio_id 'abc_1' is not <video id>_<a>_<b>"):
        video_id("abc_1")


def test_a_split_without_parquet_files_is_an_error(hub, tmp_path):
    shutil.rmtree(hub.dataset_folder(LOTUSDIS) / "data")
    (hub.dataset_folder(LOTUSDIS) / "README.md").write_text("x", encoding="utf-8")
    with pytest.raises(DatasetMissingError, match=r"^lotus_jbl: nectec/LOTUSDIS has no parquet files data/test-\*\.parquet"):
        _build(hub, tmp_path, ["lotus_jbl"])


def test_unknown_sets_are_listed_with_the_known_ones():
    with pytest.raises(UnknownSetError, match=r"unknown set lotus, gs3; the sets are: fleurs tvspeech gs2 isan lotus_con123"):
        resolve_sets(["fleurs", "lotus", "gs3"])
    assert [spec.name for spec in resolve_sets(["tv_long", "fleurs", "tv_long"])] == ["tv_long", "fleurs"]

