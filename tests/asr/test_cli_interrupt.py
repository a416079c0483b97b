"""Ctrl-C in ``asrbench transcribe``: exit 130, one line on stderr, nothing half-written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.asr.conftest import ROOT, SAMPLES
from tests.signals import restore_default_sigint


@pytest.mark.asr
def test_sigint_during_transcribe_exits_130_with_one_line(engine):
    cache = os.environ["ASRBENCH_CACHE_DIR"]  # holds the assembled model (the engine fixture)
    clips = sorted(str(path) for path in SAMPLES.glob("*/*-0[1-3].*"))
    assert len(clips) >= 20
    # beam size 4: a decode setting no other test uses, so every clip is a cache miss
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pytest_asrbench.cli import main; sys.exit(main(sys.argv[1:]))",
         "transcribe", "-l", "en", "--cache", "--beam-size", "4", "--threads", "1", *clips],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=restore_default_sigint,
        env=dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1"),
    )
    try:
        first = child.stdout.readline()  # the first clip is done: decoding goes on
        assert first.startswith(clips[0]), first
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines() == ["asrbench transcribe: interrupted"]
    printed = [line for line in (first + out).splitlines() if not line.startswith("  ")]
    assert 1 <= len(printed) < len(clips), "the run was not interrupted"
    leftovers = [str(path) for path in Path(cache).rglob("*.tmp")]
    assert leftovers == []
    for entry in Path(cache, "hypotheses").rglob("*.json"):
        assert json.loads(entry.read_text(encoding="utf-8"))["schema"] == "asrbench.hypothesis/1"
