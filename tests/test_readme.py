"""The README stays true: its clip table is the one the recorded snapshots give, and every
command of its "Everyday use" block runs after its first install."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_readme_clip_table_matches_the_snapshots():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "clip_rates.py"), "--check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_clip_table_lists_every_asr_snapshot():
    table = subprocess.run([sys.executable, str(ROOT / "scripts" / "clip_rates.py")], capture_output=True,
                           text=True, check=True).stdout
    clips = sorted(path.stem for path in (ROOT / "snapshots").glob("*/asr/*.json"))
    assert clips and all(f"| {clip} |" in table for clip in clips)


# ---- every command of "Everyday use" runs after the README's first install ----------------


README = (ROOT / "README.md").read_text(encoding="utf-8")
#: What a command needs beyond the base install: an option or subcommand -> distribution.
NEEDS = {"-n": "pytest-xdist", "transcribe": "faster-whisper", "parity": "faster-whisper"}


def _block(heading: str) -> list[str]:
    section = README.split(f"## {heading}\n", 1)[1]
    code = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in code.splitlines() if line.strip()]


def _first_install_distributions() -> set[str]:
    """Distributions the README's first install (`pip install -e '.[extras]'`) brings in."""
    extras = re.search(r"pip install -e '\.\[([a-z,]+)\]'", README).group(1).split(",")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    return {re.split(r"[<>=!;\[ ]", requirement, maxsplit=1)[0].lower() for requirement in requirements}


EVERYDAY = _block("Everyday use")


def test_everyday_commands_need_only_the_first_install():
    installed = _first_install_distributions()
    for command in EVERYDAY:
        for word, distribution in NEEDS.items():
            if word in shlex.split(command):
                assert distribution in installed, (
                    f"README: `{command}` needs {distribution}, which `pip install -e '.[asr]'` does not install"
                )


#: Options whose value is a file the command writes: the test writes it under tmp_path, not the checkout.
OUTPUT_OPTIONS = ("--asrbench-report", "--asrbench-markdown", "--asrbench-run-record", "--out")


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_command_runs(command, tmp_path):
    argv = shlex.split(command)
    argv = [str(tmp_path / Path(value).name) if index and argv[index - 1] in OUTPUT_OPTIONS else value
            for index, value in enumerate(argv)]
    if argv[0] == "pytest":
        # collection proves the options, plugins and paths; the cases themselves run elsewhere
        argv = [sys.executable, "-m", "pytest", *argv[1:], "--collect-only", "-q", "-p", "no:cacheprovider"]
    elif argv[0] == "asrbench":
        if "transcribe" in argv or "parity" in argv:
            pytest.importorskip("faster_whisper")
        argv = [sys.executable, "-c", "import sys; from pytest_asrbench.cli import main; sys.exit(main())", *argv[1:]]
    else:
        pytest.fail(f"README 'Everyday use' has a command this test does not know: {command}")
    # a child run of its own, even when this suite runs under xdist
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_XDIST")}
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, f"`{command}` failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
