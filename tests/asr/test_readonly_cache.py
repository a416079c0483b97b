"""A cache folder that cannot be written: a verified model is used without writing, the
hypothesis cache stops storing with one warning, and assembly says which folder to change.

The tests run as root, for whom ``chmod`` stops nothing, so a read-only folder is made in two
ways that really fail the writes: a regular file where the folder should be (every write under
it fails with ``NotADirectoryError``), and, in a child interpreter, an audit hook that refuses
with ``EROFS`` every write-mode ``open``, ``mkdir``, ``rename``/``replace`` and ``remove``
under the folder, as a read-only mount does (whatever function the code writes with).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

from tests.asr.conftest import ROOT, SAMPLES, needs_faster_whisper

from pytest_asrbench.asr import embedded_model as em
from pytest_asrbench.asr.cache import HypothesisCache, transcribe_with_cache
from pytest_asrbench.asr.engine import DecodeInfo, Transcript
from pytest_asrbench.asr.errors import AsrCacheWarning, CacheNotWritableError

READ_ONLY_HOOK = textwrap.dedent(
    """
    import errno, os, sys
    _RO = os.path.realpath(os.environ["ASRBENCH_TEST_READ_ONLY"])
    _WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

    def _inside(path):
        if isinstance(path, int) or path is None:
            return False
        path = os.path.realpath(os.fsdecode(path))
        return path == _RO or path.startswith(_RO + os.sep)

    def _read_only(event, args):
        if event == "open" and args[2] is not None and args[2] & _WRITE and _inside(args[0]):
            raise OSError(errno.EROFS, "Read-only file system", args[0])
        if event == "os.mkdir" and _inside(args[0]) and not os.path.exists(args[0]):
            raise OSError(errno.EROFS, "Read-only file system", args[0])
        if event in ("os.rename", "os.replace", "os.remove", "os.rmdir", "os.truncate") and _inside(args[0]):
            raise OSError(errno.EROFS, "Read-only file system", args[0])

    sys.addaudithook(_read_only)
    """
)


def _read_only_python(code: str, read_only, **env) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=str(ROOT), ASRBENCH_TEST_READ_ONLY=str(read_only), **env)
    return subprocess.run(
        [sys.executable, "-c", READ_ONLY_HOOK + textwrap.dedent(code)],
        capture_output=True, text=True, cwd=ROOT, env=environment, timeout=300,
    )


def _tree(folder) -> dict:
    return {str(p): p.stat().st_mtime_ns for p in sorted(folder.rglob("*"))}


def _fake_parts(tmp_path):
    parts = [tmp_path / "model.bin.part1", tmp_path / "model.bin.part2"]
    parts[0].write_bytes(b"A" * 1000)
    parts[1].write_bytes(b"B" * 500)
    aux = {}
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        aux[name] = tmp_path / name
        aux[name].write_text("{}")
    return parts, aux, hashlib.sha256(b"A" * 1000 + b"B" * 500).hexdigest()


class FakeEngine:
    name = "fake"
    calls = 0

    def identity(self):
        return {"engine": "fake", "model": {"name": "fake", "sha256": "0" * 64}, "decode": {}}

    def transcribe(self, audio, sample_rate=None, *, language):
        self.calls += 1
        return Transcript("please open the door", (), DecodeInfo(language, 1.0, 0.0, 1.0, 1.0), ())


def test_the_hook_really_refuses_writes(tmp_path):
    """The simulation itself: a write under the folder fails, a read works."""
    (tmp_path / "seen.txt").write_text("x")
    done = _read_only_python(
        f"""
        print(open({str(tmp_path / "seen.txt")!r}).read())
        open({str(tmp_path / "new.txt")!r}, "w")
        """,
        tmp_path,
    )
    assert done.stdout.strip() == "x"
    assert "Read-only file system" in done.stderr and not (tmp_path / "new.txt").exists()


def test_assembled_model_in_a_read_only_folder_is_used_without_writing(tmp_path):
    parts, aux, digest = _fake_parts(tmp_path)
    root = tmp_path / "cache" / "models"
    em.ensure_embedded_model(root, parts=parts, aux_files=aux, expected_sha256=digest)
    before = _tree(tmp_path / "cache")
    done = _read_only_python(
        f"""
        from pathlib import Path
        from pytest_asrbench.asr import embedded_model as em
        files = em.ensure_embedded_model(
            Path({str(root)!r}), parts={[str(p) for p in parts]!r},
            aux_files={ {k: str(v) for k, v in aux.items()} !r}, expected_sha256={digest!r})
        print(files.model_sha256)
        """,
        tmp_path / "cache",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == digest
    assert _tree(tmp_path / "cache") == before  # not even a lock file


def test_assembly_in_a_read_only_folder_names_it_and_the_variable(tmp_path):
    parts, aux, digest = _fake_parts(tmp_path)
    (tmp_path / "cache").mkdir()
    done = _read_only_python(
        f"""
        from pathlib import Path
        from pytest_asrbench.asr import embedded_model as em
        from pytest_asrbench.asr.errors import CacheNotWritableError
        try:
            em.ensure_embedded_model(
                Path({str(tmp_path / "cache" / "models")!r}), parts={[str(p) for p in parts]!r},
                aux_files={ {k: str(v) for k, v in aux.items()} !r}, expected_sha256={digest!r})
        except CacheNotWritableError as exc:
            print(exc)
        """,
        tmp_path / "cache",
    )
    assert done.returncode == 0, done.stderr
    assert str(tmp_path / "cache" / "models") in done.stdout
    assert "not writable" in done.stdout and "ASRBENCH_CACHE_DIR" in done.stdout
    assert not list((tmp_path / "cache").iterdir())


@needs_faster_whisper
def test_hypothesis_cache_in_a_read_only_folder_warns_once_and_keeps_results(tmp_path):
    (tmp_path / "hyp").mkdir()
    done = _read_only_python(
        f"""
        import warnings
        from pathlib import Path
        from pytest_asrbench.asr.cache import HypothesisCache, transcribe_with_cache
        from pytest_asrbench.asr.engine import DecodeInfo, Transcript

        class FakeEngine:
            name = "fake"
            def identity(self):
                return {{"engine": "fake", "model": {{"sha256": "0" * 64}}, "decode": {{}}}}
            def transcribe(self, audio, sample_rate=None, *, language):
                return Transcript("please open the door", (), DecodeInfo(language, 1.0, 0.0, 1.0, 1.0), ())

        cache = HypothesisCache(Path({str(tmp_path / "hyp")!r}))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            runs = [transcribe_with_cache(FakeEngine(), {str(SAMPLES / "en" / "en-02.flac")!r}, "en", cache)
                    for _ in range(3)]
        print([r.transcript.text for r in runs], [r.cached for r in runs])
        print(len(caught), caught[0].category.__name__, caught[0].message)
        """,
        tmp_path / "hyp",
    )
    assert done.returncode == 0, done.stderr
    results, warning = done.stdout.splitlines()
    assert results == "['please open the door', 'please open the door', 'please open the door'] [False, False, False]"
    assert warning.startswith("1 AsrCacheWarning") and "not writable" in warning and "ASRBENCH_CACHE_DIR" in warning
    assert not list((tmp_path / "hyp").iterdir())


def test_a_file_in_place_of_the_cache_folder(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    parts, aux, digest = _fake_parts(tmp_path)
    with pytest.raises(CacheNotWritableError, match="not writable") as info:
        em.ensure_embedded_model(blocker / "models", parts=parts, aux_files=aux, expected_sha256=digest)
    assert str(blocker / "models") in str(info.value) and "ASRBENCH_CACHE_DIR" in str(info.value)

    cache, engine = HypothesisCache(blocker / "hypotheses"), FakeEngine()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runs = [transcribe_with_cache(engine, SAMPLES / "en" / "en-02.flac", "en", cache) for _ in range(2)]
    assert [r.transcript.text for r in runs] == ["please open the door"] * 2 and engine.calls == 2
    assert [w.category for w in caught] == [AsrCacheWarning]
    assert cache.write_error is not None and cache.hits == 0


@pytest.mark.asr
def test_transcribe_with_a_read_only_cache_that_holds_the_model(engine, tmp_path):
    """End to end, as reported: `ASRBENCH_CACHE_DIR=<ro> asrbench transcribe --cache ...`.

    The read-only folder holds the assembled model (a link to the session's) and no
    transcripts, whatever ASRBENCH_CACHE_DIR the test run itself has (a warm cache there
    would answer without trying to write)."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "models").symlink_to(engine.model_files.path.parent, target_is_directory=True)
    before = _tree(cache_dir)
    done = _read_only_python(
        f"""
        from pytest_asrbench.cli import main
        sys.exit(main(["transcribe", "--cache", "--threads", "2", "--json", "-l", "en",
                       {str(SAMPLES / "en" / "en-01.wav")!r}]))
        """,
        cache_dir,
        ASRBENCH_CACHE_DIR=str(cache_dir),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["clips"][0]["transcript"] == "Good morning, how are you today?"
    assert done.stderr.count("warning: hypothesis cache") == 1 and "Traceback" not in done.stderr
    assert _tree(cache_dir) == before
