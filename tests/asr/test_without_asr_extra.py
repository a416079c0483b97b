"""Without the ``asr`` extra (no numpy, faster-whisper ...): pytest, the text CLI and the plugin
still work, and the ASR entry points say what to install.

Each test runs a fresh interpreter whose ``sys.meta_path`` refuses the heavy libraries, as in
an environment where ``pip install pytest-asrbench`` ran without ``[asr]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests.asr.conftest import ROOT, SAMPLES

#: Every library of the asr extra (and what it pulls in) that must not load at import time.
HEAVY = ("numpy", "faster_whisper", "ctranslate2", "av", "soundfile", "tqdm", "tokenizers", "onnxruntime")

BLOCKER = textwrap.dedent(
    f"""
    import sys
    HEAVY = {HEAVY!r}

    class _NotInstalled:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in HEAVY:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, _NotInstalled())
    for _name in list(sys.modules):
        if _name.split(".")[0] in HEAVY:
            del sys.modules[_name]
    """
)
MESSAGE = "the ASR engine needs the asr extra: pip install 'pytest-asrbench[asr]'"


def _python(code: str, *args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + textwrap.dedent(code), *args],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=300,
    )


def test_modules_and_text_cli_import_nothing_heavy():
    done = _python(
        """
        import pytest_asrbench.asr.pytest_hooks, pytest_asrbench.asr.transcribe_command, pytest_asrbench.asr
        import pytest_asrbench.plugin
        from pytest_asrbench.cli import main
        assert main(["normalize", "-l", "en", "Hi"]) == 0
        assert main(["score", "-l", "en", "a b", "a c"]) == 0
        try:
            main(["--version"])
        except SystemExit as exit:
            assert exit.code == 0
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)
        assert not loaded, loaded
        print("OK")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "hi" and done.stdout.rstrip().endswith("OK")
    assert "pytest-asrbench" in done.stdout


def test_plain_pytest_run_is_untouched(tmp_path):
    """The reported symptom: every pytest run of the environment failed loading the plugin."""
    (tmp_path / "test_x.py").write_text("def test_x():\n    assert 1\n")
    done = _python(
        """
        import pytest
        # the plugin loads by its pytest11 entry point; --asrbench-no-cache is its hooks' option
        sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--asrbench-no-cache", sys.argv[1]]))
        """,
        str(tmp_path / "test_x.py"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_asr_case_and_transcribe_say_to_install_the_extra():
    done = _python(
        f"""
        from pathlib import Path
        from pytest_asrbench.asr.errors import AsrDependencyError
        from pytest_asrbench.errors import AsrbenchError
        from pytest_asrbench.cases.model import Case
        from pytest_asrbench.cases.registry import RunContext
        from pytest_asrbench.cases.kinds.asr import AsrRunner
        from pytest_asrbench.cli import main

        case = Case(id="en-01", kind="asr", language="en", metric="stt_wer",
                    fields={{"audio": "en-01.wav", "reference": "x"}},
                    file=Path({str(SAMPLES / "en" / "asr.yaml")!r}), line=1)
        try:
            AsrRunner().run(case, RunContext(rootpath=Path(".")))
        except AsrDependencyError as exc:
            assert isinstance(exc, AsrbenchError)
            print("RUNNER", exc)
        sys.exit(main(["transcribe", "-l", "en", {str(SAMPLES / "en" / "en-01.wav")!r}]))
        """
    )
    assert done.returncode == 2, done.stderr
    assert f"RUNNER {MESSAGE}" in done.stdout
    assert f"asrbench transcribe: error: {MESSAGE}" in done.stderr
    assert "Traceback" not in done.stderr
