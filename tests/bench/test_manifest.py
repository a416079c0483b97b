"""The manifest stage: rows, sidecar, the licence/consent gate, audio paths, pre-registration."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from pytest_asrbench.bench.errors import (
    BenchFileNotFoundError,
    ManifestFormatError,
    ManifestGateError,
    ManifestHashError,
    PreregistrationError,
)
from pytest_asrbench.bench.manifest.audio_paths import resolve_audio
from pytest_asrbench.bench.manifest.gate import open_manifest
from pytest_asrbench.bench.manifest.meta import audio_set_digest
from pytest_asrbench.bench.manifest.prereg import check_preregistration, read_preregistration
from pytest_asrbench.bench.manifest.rows import read_rows

PILOT = Path(__file__).resolve().parents[2] / "samples" / "zh-pilot"
AUDIO = Path(__file__).resolve().parents[2] / "samples" / "zh"


def _corpus(tmp_path: Path, rows: list[dict], **meta) -> tuple[Path, Path]:
    """A manifest over small fake audio files, with a sidecar whose digest matches."""
    root = tmp_path / "audio"
    root.mkdir(exist_ok=True)
    digests = []
    for row in rows:
        path = root / row["audio"]
        if not path.exists() and ".." not in row["audio"] and not os.path.isabs(row["audio"]):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(row["id"].encode())
        if path.is_file() and not path.is_symlink() and ".." not in row["audio"] and not os.path.isabs(row["audio"]):
            digests.append((row["audio"], hashlib.sha256(path.read_bytes()).hexdigest()))
    manifest = tmp_path / "m.jsonl"
    manifest.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    sidecar = {"corpus": "t", "source": "tests", "revision": "r1", "split": "test", "licence": "CC0-1.0",
               "consent": "written consent", "selection": {"rule": "all", "seed": None},
               "audio_sha256": audio_set_digest(digests)}
    sidecar.update(meta)
    (tmp_path / "m.meta.json").write_text(json.dumps(sidecar), encoding="utf-8")
    return manifest, root


def _row(ident: str, **extra) -> dict:
    return {"id": ident, "audio": f"{ident}.wav", "reference": "你好", "slice": "short", "speaker": "s1", **extra}


def test_the_pilot_manifest_passes_the_gate_whole():
    gated = open_manifest(PILOT / "manifest.jsonl", AUDIO)
    assert [item.row.id for item in gated.included] == ["zh-01", "zh-02", "zh-03", "zh-noise", "zh-long"]
    assert gated.excluded == {}
    assert gated.sidecar.licence == "CC0-1.0"


def test_a_row_without_consent_is_excluded_with_its_reason(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a"), _row("b", consent=None), _row("c", consent="withdrawn")])
    gated = open_manifest(manifest, root)
    assert [item.row.id for item in gated.included] == ["a"]
    assert gated.excluded == {"b": "row-no-consent", "c": "row-no-consent"}
    assert gated.exclusion_counts() == {"row-no-consent": 2}


def test_per_row_consent_needs_a_consent_on_every_row(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a", consent="form v2"), _row("b")], consent="per-row")
    gated = open_manifest(manifest, root)
    assert [item.consent for item in gated.included] == ["form v2"]
    assert gated.excluded == {"b": "row-no-consent"}


def test_a_row_without_a_licence_is_excluded(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a"), _row("b", licence=None), _row("c", licence="unknown")])
    assert open_manifest(manifest, root).excluded == {"b": "row-no-licence", "c": "row-no-licence"}


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("licence", "", "corpus-no-licence"), ("licence", "unknown", "corpus-no-licence"),
    ("consent", "none", "corpus-no-consent"), ("consent", "", "corpus-no-consent"),
])
def test_a_corpus_without_provenance_is_refused_with_its_reason(tmp_path, field, value, reason):
    manifest, root = _corpus(tmp_path, [_row("a")], **{field: value})
    with pytest.raises(ManifestGateError, match=f"\\({reason}\\)") as caught:
        open_manifest(manifest, root)
    assert caught.value.reason == reason


def test_a_manifest_without_a_sidecar_is_refused(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")])
    (tmp_path / "m.meta.json").unlink()
    with pytest.raises(ManifestGateError, match="corpus-no-sidecar"):
        open_manifest(manifest, root)


def test_audio_other_than_the_sidecar_describes_is_refused(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")])
    (root / "a.wav").write_bytes(b"changed")
    with pytest.raises(ManifestGateError, match="audio-digest-mismatch"):
        open_manifest(manifest, root)


def test_allowed_missing_audio_is_not_refused_for_the_digest_the_sidecar_took_over_every_file(tmp_path):
    # The sidecar was written while every file was there; one went missing since.
    manifest, root = _corpus(tmp_path, [_row("a"), _row("b")])
    (root / "b.wav").unlink()
    gated = open_manifest(manifest, root, allow_missing=True)
    assert [item.row.id for item in gated.included] == ["a"] and gated.missing_audio == {"b": "b.wav"}
    assert gated.audio_digest_checked is False
    with pytest.raises(ManifestGateError, match="audio-missing"):
        open_manifest(manifest, root, allow_missing=False)


def test_allowed_missing_audio_keeps_the_digest_checked_when_the_present_files_have_it(tmp_path):
    # The sidecar was written from the folder as it is now, the missing file left out.
    manifest, root = _corpus(tmp_path, [_row("a"), _row("b")])
    (root / "b.wav").unlink()
    meta = tmp_path / "m.meta.json"
    sidecar = json.loads(meta.read_text(encoding="utf-8"))
    sidecar["audio_sha256"] = audio_set_digest([("a.wav", hashlib.sha256((root / "a.wav").read_bytes()).hexdigest())])
    meta.write_text(json.dumps(sidecar), encoding="utf-8")
    gated = open_manifest(manifest, root, allow_missing=True)
    assert gated.missing_audio == {"b": "b.wav"} and gated.audio_digest_checked is True


def test_other_audio_is_still_refused_when_no_row_is_missing(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")])
    (root / "a.wav").write_bytes(b"changed")
    with pytest.raises(ManifestGateError, match="audio-digest-mismatch"):
        open_manifest(manifest, root, allow_missing=True)


def test_a_record_whose_audio_was_not_checked_is_not_valid_for_a_claim():
    from pytest_asrbench.bench.run.runner import validity
    from pytest_asrbench.bench.run.settings import RunSettings
    from pytest_asrbench.bench.run.smoke import smoke_record

    record = smoke_record(RunSettings(manifest=Path("m.jsonl"), audio_root=Path(".")))
    record["corpus"]["missing_audio"] = {"b": "b.wav"}
    record["corpus"]["audio_sha256_checked"] = False
    assert ("1 row(s) had no audio file (--allow-missing) and the files present do not have the sidecar's "
            "audio_sha256, so the audio was not checked against it") in validity(record)


def test_every_row_excluded_is_refused(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a", consent=None)])
    with pytest.raises(ManifestGateError, match=r"row-no-consent: 1\) \(no-rows-left\)"):
        open_manifest(manifest, root)


def test_audio_paths_cannot_escape_the_root(tmp_path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "ok.wav").write_bytes(b"x")
    outside = tmp_path / "secret.wav"
    outside.write_bytes(b"s")
    (root / "link.wav").symlink_to(outside)
    (root / "linkdir").symlink_to(tmp_path)
    assert resolve_audio(root, "sub/ok.wav") == ((root / "sub" / "ok.wav").resolve(), None)
    assert resolve_audio(root, str(outside)) == (None, "audio-absolute-path")
    assert resolve_audio(root, "C:\\audio\\a.wav") == (None, "audio-absolute-path")
    assert resolve_audio(root, "../secret.wav") == (None, "audio-parent-reference")
    assert resolve_audio(root, "sub/../../secret.wav") == (None, "audio-parent-reference")
    assert resolve_audio(root, "link.wav") == (None, "audio-symlink")
    assert resolve_audio(root, "linkdir/secret.wav") == (None, "audio-symlink")
    assert resolve_audio(root, "sub/missing.wav") == (None, "audio-missing")


def test_rows_with_escaping_audio_are_excluded_and_counted(tmp_path):
    rows = [_row("a"), {**_row("b"), "audio": "../b.wav"}, {**_row("c"), "audio": "/etc/passwd"}]
    manifest, root = _corpus(tmp_path, rows)
    assert open_manifest(manifest, root).exclusion_counts() == {"audio-absolute-path": 1, "audio-parent-reference": 1}


def test_a_manifest_hash_other_than_expected_is_refused(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")])
    with pytest.raises(ManifestHashError, match="is not the expected 0{64}"):
        open_manifest(manifest, root, expect_sha256="0" * 64)
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    assert open_manifest(manifest, root, expect_sha256=digest).sha256 == digest


@pytest.mark.parametrize(("line", "message"), [
    ('{"id": "a", "audio": "a.wav", "reference": "x", "slice": "s"}', "no 'speaker' field"),
    ('{"id": "a", "audio": "a.wav", "reference": "x", "slice": "s", "speaker": "p", "licnece": "MIT"}',
     "unknown field\\(s\\) 'licnece'"),
    ('{"id": "", "audio": "a.wav", "reference": "x", "slice": "s", "speaker": "p"}', "empty id"),
    ('{"id": "a", "audio": "a.wav", "reference": "x", "slice": "s", "speaker": "p", "duration": -1}',
     "duration must be a number of seconds > 0"),
    ('{"id": "a", "audio": "a.wav", "reference": "x", "slice": "s", "speaker": "p", "intervals": [{"start": 2, '
     '"end": 1, "reference": "x"}]}', "0 <= start < end"),
    ('[1, 2]', "a list, not a JSON object"),
])
def test_bad_rows_name_the_line_and_the_fault(tmp_path, line, message):
    path = tmp_path / "m.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ManifestFormatError, match=f"m.jsonl:1: .*{message}"):
        read_rows(path)


@pytest.mark.parametrize(("data", "message"), [
    (b'{"id": "a", "id": "b", "audio": "a.wav", "reference": "x", "slice": "s", "speaker": "p"}\n',
     r"m\.jsonl:1: the key 'id' appears twice in this line; keep one$"),
    (b'\xef\xbb\xbf{"id": "a", "audio": "a.wav", "reference": "x", "slice": "s", "speaker": "p"}\n',
     r"m\.jsonl:1: the file starts with a UTF-8 byte order mark: save it without one$"),
    (b'{"id": "a", "audio": "a.wav", "reference": "\xff", "slice": "s", "speaker": "p"}\n',
     r"m\.jsonl: not UTF-8 \(.*\); save it as UTF-8$"),
    (b'{"id": "a"\n', r"m\.jsonl:1: not JSON \(.*\); each line must be one JSON object$"),
])
def test_a_manifest_that_is_not_clean_jsonl_is_refused_at_its_line(tmp_path, data, message):
    path = tmp_path / "m.jsonl"
    path.write_bytes(data)
    with pytest.raises(ManifestFormatError, match=message):
        read_rows(path)


def test_a_sidecar_with_a_repeated_key_is_refused(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")])
    sidecar = tmp_path / "m.meta.json"
    sidecar.write_text(sidecar.read_text(encoding="utf-8")[:-1] + ', "licence": "MIT"}', encoding="utf-8")
    with pytest.raises(ManifestFormatError, match=r"m\.meta\.json: the key 'licence' appears twice; keep one$"):
        open_manifest(manifest, root)


def test_a_repeated_id_names_both_lines(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(_row("a")) + "\n" for _ in range(2)), encoding="utf-8")
    with pytest.raises(ManifestFormatError, match="m.jsonl:2: id 'a' repeats line 1"):
        read_rows(path)


def test_a_missing_manifest_or_audio_root_is_named(tmp_path):
    with pytest.raises(BenchFileNotFoundError, match="--manifest .*none.jsonl: no such file"):
        open_manifest(tmp_path / "none.jsonl", tmp_path)
    manifest, _ = _corpus(tmp_path, [_row("a")])
    with pytest.raises(BenchFileNotFoundError, match="--audio-root .*: no such folder"):
        open_manifest(manifest, tmp_path / "no-audio")


def test_a_manifest_that_is_a_folder_or_an_audio_root_that_is_a_file_is_named_with_the_kind_expected(tmp_path):
    with pytest.raises(BenchFileNotFoundError, match="--manifest .* is a folder, where a file is expected"):
        open_manifest(tmp_path, tmp_path)
    manifest, _ = _corpus(tmp_path, [_row("a")])
    with pytest.raises(BenchFileNotFoundError, match="--audio-root .*m.jsonl is a file, where a folder is expected"):
        open_manifest(manifest, manifest)


def test_a_sidecar_field_of_the_wrong_shape_is_named(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")], selection={"rule": "all"})
    with pytest.raises(ManifestFormatError, match="selection must be"):
        open_manifest(manifest, root)


def test_an_audio_digest_that_is_not_hex_is_quoted_in_the_message(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a")], audio_sha256="ABC123")
    with pytest.raises(ManifestFormatError, match=r"m\.meta\.json: audio_sha256 must be 64 lower-case hex digits "
                                                  r"\(the digest `asrbench bench run` prints for the audio set\), "
                                                  r"got 'ABC123'$"):
        open_manifest(manifest, root)


def test_the_preregistration_reports_a_shortfall_and_marks_the_run_invalid(tmp_path):
    manifest, root = _corpus(tmp_path, [_row("a"), _row("b", speaker="s2", slice="long")])
    prereg = tmp_path / "p.json"
    prereg.write_text(json.dumps({"slices": {"short": 2, "silence": 1}, "min_speakers": 3}), encoding="utf-8")
    section = check_preregistration(read_preregistration(prereg), open_manifest(manifest, root))
    assert section["shortfalls"] == ["slice short: 1 rows included, 2 pre-registered",
                                     "slice silence: 0 rows included, 1 pre-registered",
                                     "speakers: 2 included, at least 3 pre-registered"]
    assert section["unregistered_slices"] == ["long"]
    assert section["valid_for_claim"] is False


def test_the_pilot_preregistration_is_met():
    section = check_preregistration(read_preregistration(PILOT / "preregistration.json"),
                                    open_manifest(PILOT / "manifest.jsonl", AUDIO))
    assert section["shortfalls"] == [] and section["valid_for_claim"] is True


@pytest.mark.parametrize(("value", "message"), [
    ({"slices": {"a": 0}, "min_speakers": 1}, "slices must map"),
    ({"slices": {"a": 1}, "min_speakers": 0}, "min_speakers must be an integer >= 1"),
    ({"slices": {"a": 1}}, "must be an object with slices, min_speakers"),
    ({"slices": {"a": 1}, "min_speakers": 1, "manifest_sha256": "abc"}, "64 lower-case hex"),
])
def test_a_bad_preregistration_says_what_is_wrong(tmp_path, value, message):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    with pytest.raises(PreregistrationError, match=message):
        read_preregistration(path)
