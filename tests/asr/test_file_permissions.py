"""Files written by the ASR stage honour the umask (a team can share one cache folder).

``tempfile.mkstemp`` makes every file 0600; the atomic-write helper must give the mode a
plain ``open()`` would (0o666 & ~umask), for cache entries, run records and anything else
written through it.
"""

from __future__ import annotations

import os
import stat

import pytest

from pytest_asrbench._shared.atomic import atomic_file, current_umask
from pytest_asrbench.asr.cache import HypothesisCache
from pytest_asrbench.asr.engine import DecodeInfo, Transcript
from pytest_asrbench.asr.run_record import write_record

UMASKS = {0o022: 0o644, 0o002: 0o664, 0o077: 0o600}


@pytest.fixture(params=sorted(UMASKS), ids=lambda mask: f"umask{mask:03o}")
def umask(request):
    previous = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(previous)


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_current_umask_reads_without_changing(umask):
    assert current_umask() == umask
    assert current_umask() == umask


def test_atomic_file_gets_the_umask_mode(tmp_path, umask):
    target = tmp_path / "folder" / "file.bin"
    with atomic_file(target) as out:
        out.write(b"x")
    assert _mode(target) == UMASKS[umask]
    assert _mode(target.parent) == 0o777 & ~umask


def test_cache_entry_gets_the_umask_mode(tmp_path, umask):
    cache = HypothesisCache(tmp_path / "cache")
    transcript = Transcript("hello", (), DecodeInfo("en", 1.0, 0.0, 1.0, 1.0), ())
    cache.put("ab" * 32, transcript, {"audio_sha256": "0" * 64})
    (entry,) = (tmp_path / "cache").rglob("*.json")
    assert _mode(entry) == UMASKS[umask]
    assert cache.get("ab" * 32) == transcript


def test_run_record_gets_the_umask_mode(tmp_path, umask):
    path = write_record({"schema": "asrbench.run/1"}, tmp_path / "run.json")
    assert _mode(path) == UMASKS[umask]


def test_failed_write_leaves_no_temporary_file(tmp_path, umask):
    target = tmp_path / "file.bin"
    with pytest.raises(RuntimeError), atomic_file(target) as out:
        out.write(b"half")
        raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []
