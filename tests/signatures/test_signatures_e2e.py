"""The version gate end to end, in a copy of the project run by a child pytest.

The child imports the copy (``PYTHONPATH``), so editing the copy's config or modules is what
a developer's edit would be. Walks what the gate promises: an unbumped filler fails
the run and is refused by ``--snapshot-update``; a bump plus the documented command
re-records the signature case (in place) and the snapshots; a comment-only edit changes
nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_asrbench.signatures.sources import installed_source

REPO = installed_source().root
CASES = """\
language: en
cases:
  - id: filler-in-hypothesis
    kind: score
    reference: hello world
    hypothesis: asrbenchfiller hello world
    expect: {reference_length: 2}
  - id: no-filler
    kind: score
    reference: hello world
    hypothesis: hello word
    expect: {substitutions: 1}
"""
HEADER = "# The signature of stt_wer in English (a comment the re-recording keeps).\nlanguage: en\ncases:\n"


def child(copy: Path, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "COV_"))}
    env["PYTHONPATH"] = str(copy)
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=300)


def run_cases(copy: Path, *extra: str) -> subprocess.CompletedProcess:
    # -rN: no short summary, whose lines are cut to the terminal width, except under CI=true
    # (then each message would be counted twice).
    return child(copy, "-m", "pytest", "--asrbench", "cases/en", "-p", "no:cacheprovider", "-q", "-rN", *extra)


#: A section header of pytest's terminal output (``=== FAILURES ===``, ``--- asrbench ... ---``).
_SECTION = re.compile(r"^(?:={10,}|-{10,}) .* (?:={10,}|-{10,})$", re.M)


def failures(stdout: str) -> str:
    """The FAILURES section of a run's output: each failing case's message once. The run's
    summary after it names each failing case again with its reason line (uncut under CI)."""
    start = stdout.index("= FAILURES =")
    following = _SECTION.search(stdout, stdout.index("\n", start) + 1)
    return stdout[start:following.start() if following else len(stdout)]


def add_filler(config: Path) -> None:
    """A behaviour-relevant config edit: one more filler word."""
    text = config.read_text(encoding="utf-8")
    assert re.search(r"(?m)^fillers = \[", text)
    config.write_text(re.sub(r"(?m)^fillers = \[", 'fillers = ["asrbenchfiller", ', text, count=1), encoding="utf-8")


def state(copy: Path) -> dict[str, bytes]:
    files = [copy / "cases" / "en" / "signature.yaml", *sorted((copy / "snapshots").rglob("*.json"))]
    return {str(path.relative_to(copy)): path.read_bytes() for path in files}


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "pytest_asrbench", tmp_path / "pytest_asrbench", ignore=ignore)
    shutil.copytree(REPO / "configs", tmp_path / "configs", ignore=ignore)
    (tmp_path / "pytest.ini").write_text("[pytest]\nasrbench_snapshot_dir = snapshots\n", encoding="utf-8")
    (tmp_path / "cases" / "en").mkdir(parents=True)
    (tmp_path / "cases" / "en" / "score.yaml").write_text(CASES, encoding="utf-8")
    printed = child(tmp_path, "-m", "pytest_asrbench.cli", "signature", "-l", "en", "--metric", "stt_wer", "--case")
    assert printed.returncode == 0, printed.stderr
    entry = "".join(line + "\n" for line in printed.stdout.splitlines() if not line.startswith("#"))
    (tmp_path / "cases" / "en" / "signature.yaml").write_text(HEADER + entry, encoding="utf-8")
    recorded = run_cases(tmp_path, "--snapshot-update")  # first recording: nothing changed, allowed
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    return tmp_path


def test_child_computes_the_copy_signature(copy):
    """The CLI run with PYTHONPATH at the copy hashes the copy, not the installed tree."""
    add_filler(copy / "configs" / "en.toml")
    here = child(REPO, "-m", "pytest_asrbench.cli", "signature", "-l", "en", "--metric", "stt_wer", "--json")
    there = child(copy, "-m", "pytest_asrbench.cli", "signature", "-l", "en", "--metric", "stt_wer", "--json")
    assert here.returncode == there.returncode == 0
    assert '"config en.toml"' in there.stdout and here.stdout != there.stdout


def test_unbumped_change_fails_is_refused_then_bump_rerecords(copy):
    assert run_cases(copy).returncode == 0

    config = copy / "configs" / "en.toml"
    add_filler(config)

    failed = run_cases(copy)
    assert failed.returncode == 1
    assert "metric changed without a version bump (stt_wer, en): bump the version of configs/en.toml" in failed.stdout
    assert "re-record with `pytest --asrbench cases/en --snapshot-update`" in failed.stdout
    assert "changed: config en.toml" in failed.stdout

    before = state(copy)
    refused = run_cases(copy, "--snapshot-update")
    assert refused.returncode == 1
    # Explained once, at the signature case; the other cases of the pair point to it in one line.
    assert failures(refused.stdout).count("not re-recorded: metric changed without a version bump") == 1
    assert failures(refused.stdout).count("not re-recorded: (stt_wer, en) changed without a version bump; nothing is "
                                          "written for this pair (what to bump: the signature case at ") == 2
    assert state(copy) == before  # neither the signature case nor the score snapshot was written

    text = config.read_text(encoding="utf-8")
    old = re.search(r'(?m)^version = "([^"]+)"', text)[1]
    config.write_text(text.replace(f'version = "{old}"', f'version = "{old}.1"', 1), encoding="utf-8")
    not_yet = run_cases(copy)
    assert not_yet.returncode == 1
    assert f"version bumped (config en.toml {old}→{old}.1) but the signature case" in not_yet.stdout
    # the snapshot mismatch of the signature case does not add the contradicting "bump" advice
    assert failures(not_yet.stdout).count("if intended, bump the metric or language config version") == 1  # the score case
    assert "it holds this pair's versions, which moved: the re-record command above records it too" in not_yet.stdout

    bumped = state(copy)
    rerecorded = run_cases(copy, "--snapshot-update")
    assert rerecorded.returncode == 0, rerecorded.stdout
    # Only what really moved is rewritten: the signature files and the case the filler affects.
    after = state(copy)
    assert sorted(name for name in after if after[name] != bumped.get(name)) == [
        "cases/en/signature.yaml", "snapshots/en/score/filler-in-hypothesis.json",
        "snapshots/en/signature/stt_wer-signature.json"]
    assert "updated snapshots/en/score/filler-in-hypothesis.json" in rerecorded.stdout
    assert "rewrote cases/en/signature.yaml" in rerecorded.stdout  # the re-recorded case file is listed
    assert "and 1 case file(s) (re-recorded signatures) written:" in rerecorded.stdout
    signature_yaml = (copy / "cases" / "en" / "signature.yaml").read_text(encoding="utf-8")
    assert signature_yaml.startswith(HEADER)  # edited in place, comment kept
    assert f'config_version: "{old}.1"' in signature_yaml
    snapshot = (copy / "snapshots" / "en" / "score" / "filler-in-hypothesis.json").read_text(encoding="utf-8")
    assert '"insertions": 0' in snapshot and "version" not in snapshot

    passed = run_cases(copy)
    assert passed.returncode == 0, passed.stdout


def test_comment_only_edit_of_a_normalizer_module_changes_nothing(copy):
    module = copy / "pytest_asrbench" / "normalize" / "steps" / "basic.py"
    module.write_text("# a comment-only edit\n" + module.read_text(encoding="utf-8") + "\n# the end\n",
                      encoding="utf-8")
    before = state(copy)
    result = run_cases(copy)
    assert result.returncode == 0, result.stdout
    updated = run_cases(copy, "--snapshot-update")
    assert updated.returncode == 0, updated.stdout
    assert state(copy) == before


def _set_version(config: Path, version) -> str:
    text = config.read_text(encoding="utf-8")
    old = re.search(r'(?m)^version = "([^"]+)"', text)[1]
    config.write_text(text.replace(f'version = "{old}"', f'version = "{version(old)}"', 1), encoding="utf-8")
    return old


def test_a_patch_bump_cannot_rerecord_a_changed_output(copy):
    """x.y.Z promises that no recorded output moves: the filler moves one, so --snapshot-update
    refuses that case (and writes it not), while a minor bump then re-records it."""
    config = copy / "configs" / "en.toml"
    add_filler(config)
    old = _set_version(config, lambda v: ".".join([*v.split(".")[:2], str(int(v.split(".")[2]) + 1)]))
    major, minor, patch = (int(part) for part in old.split("."))
    (copy / "cases" / "en" / "new.yaml").write_text(
        "language: en\ncases:\n  - id: brand-new\n    kind: normalize\n    text: Hello\n    expect: hello\n",
        encoding="utf-8")

    before = state(copy)
    refused = run_cases(copy, "--snapshot-update")
    assert refused.returncode == 1
    assert (f"not re-recorded: output changed under a patch-only bump of (stt_wer, en) "
            f"(config en.toml {old}→{major}.{minor}.{patch + 1}). A patch bump (x.y.Z)") in refused.stdout
    assert "bump at least the minor version (x.Y.0)" in refused.stdout
    assert failures(refused.stdout).count("not re-recorded") == 1  # the unchanged case is not refused
    after = state(copy)
    assert after["snapshots/en/score/filler-in-hypothesis.json"] == before["snapshots/en/score/filler-in-hypothesis.json"]
    assert "snapshots/en/new/brand-new.json" in after  # a new case has no recorded output: it is recorded

    _set_version(config, lambda v: f"{major}.{minor + 1}.0")
    rerecorded = run_cases(copy, "--snapshot-update")
    assert rerecorded.returncode == 0, rerecorded.stdout
    assert "updated snapshots/en/score/filler-in-hypothesis.json" in rerecorded.stdout
    assert "rewrote cases/en/signature.yaml" in rerecorded.stdout  # the re-recorded case file is listed
    assert "and 1 case file(s) (re-recorded signatures) written:" in rerecorded.stdout
    assert run_cases(copy).returncode == 0


def test_a_language_reading_the_changed_config_is_named_in_the_message(copy):
    """Hindi reads en.toml (its code-switch view language): after a bump of en only, the en
    message names hi and the command re-records both folders."""
    (copy / "cases" / "hi").mkdir()
    printed = child(copy, "-m", "pytest_asrbench.cli", "signature", "-l", "hi", "--metric", "stt_wer", "--case")
    assert printed.returncode == 0, printed.stderr
    entry = "".join(line + "\n" for line in printed.stdout.splitlines() if not line.startswith("#"))
    (copy / "cases" / "hi" / "signature.yaml").write_text("language: hi\ncases:\n" + entry, encoding="utf-8")
    assert '"config en.toml"' in entry
    config = copy / "configs" / "en.toml"
    add_filler(config)
    text = config.read_text(encoding="utf-8")
    old = re.search(r'(?m)^version = "([^"]+)"', text)[1]
    config.write_text(text.replace(f'version = "{old}"', f'version = "{old}.1"', 1), encoding="utf-8")
    result = run_cases(copy)
    assert result.returncode == 1
    assert "configs/hi.toml reads en.toml: bump it as well (its stt_wer signature changed too; " in result.stdout
    assert "cases/hi/signature.yaml:3)" in result.stdout
    assert "run `pytest --asrbench cases/en cases/hi --snapshot-update`" in result.stdout


def _patch(version: str) -> str:
    major, minor, patch = version.split(".")
    return f"{major}.{minor}.{int(patch) + 1}"


def _minor(version: str) -> str:
    major, minor, _ = version.split(".")
    return f"{major}.{int(minor) + 1}.0"


SIGNATURE_FILES = ("cases/en/signature.yaml", "snapshots/en/signature/stt_wer-signature.json")
KEPT = "signature of (stt_wer, en) kept as recorded ("
XDIST = pytest.param(("-n", "2"), id="xdist")


@pytest.mark.parametrize("extra", [pytest.param((), id="one-process"), XDIST])
def test_a_refused_patch_bump_keeps_the_signature_until_a_minor_bump(copy, extra):
    """No loophole: the run that refuses a case under a patch bump does not re-record the
    pair's signature either, so a second --snapshot-update refuses the case again; a minor
    bump then re-records the signature and the case together."""
    config = copy / "configs" / "en.toml"
    add_filler(config)  # moves filler-in-hypothesis
    old = _set_version(config, _patch)
    before = state(copy)
    for attempt in (1, 2):
        refused = run_cases(copy, "--snapshot-update", *extra)
        assert refused.returncode == 1, (attempt, refused.stdout)
        assert failures(refused.stdout).count("not re-recorded: output changed under a patch-only bump of (stt_wer, en)") == 1
        # Said once per pair, with the count of cases that would change and what to do.
        assert refused.stdout.count(KEPT) == 1, refused.stdout
        assert (f"cases/en/signature.yaml:4): 1 case(s) would change under a patch bump (config en.toml "
                f"{old}→{_patch(old)}); make it at least a minor bump (x.Y.0) of the metric or the config, "
                "then re-run `pytest --asrbench cases/en --snapshot-update`") in refused.stdout
        assert "rewrote" not in refused.stdout
        assert state(copy) == before, attempt  # neither the signature (YAML, snapshot) nor the case moved

    plain = run_cases(copy)
    assert plain.returncode == 1
    assert f"version bumped (config en.toml {old}→{_patch(old)}) but the signature case" in plain.stdout

    _set_version(config, _minor)
    rerecorded = run_cases(copy, "--snapshot-update", *extra)
    assert rerecorded.returncode == 0, rerecorded.stdout
    assert KEPT not in rerecorded.stdout
    after = state(copy)
    assert sorted(name for name in after if after[name] != before[name]) == [
        "cases/en/signature.yaml", "snapshots/en/score/filler-in-hypothesis.json",
        "snapshots/en/signature/stt_wer-signature.json"]
    assert f'config_version: "{_minor(old)}"' in (copy / SIGNATURE_FILES[0]).read_text(encoding="utf-8")
    assert run_cases(copy).returncode == 0


@pytest.mark.parametrize("extra", [pytest.param((), id="one-process"), XDIST])
def test_a_patch_bump_that_moves_nothing_rerecords_the_signature_at_the_end(copy, extra):
    config = copy / "configs" / "en.toml"
    text = config.read_text(encoding="utf-8")
    # A filler no case contains: the signature moves, no recorded output does.
    config.write_text(re.sub(r"(?m)^fillers = \[", 'fillers = ["asrbenchunused", ', text, count=1), encoding="utf-8")
    old = _set_version(config, _patch)
    before = state(copy)

    result = run_cases(copy, "--snapshot-update", *extra)
    assert result.returncode == 0, result.stdout
    assert "rewrote cases/en/signature.yaml" in result.stdout
    assert "updated snapshots/en/signature/stt_wer-signature.json" in result.stdout
    assert "1 snapshot file(s) and 1 case file(s) (re-recorded signatures) written:" in result.stdout
    after = state(copy)
    assert sorted(name for name in after if after[name] != before[name]) == sorted(SIGNATURE_FILES)
    signature_yaml = (copy / SIGNATURE_FILES[0]).read_text(encoding="utf-8")
    assert signature_yaml.startswith(HEADER) and f'config_version: "{_patch(old)}"' in signature_yaml
    assert run_cases(copy).returncode == 0  # the snapshot written at the end is what the case obtains


@pytest.mark.parametrize("selection, reason", [
    (("-k", "not filler"), "2 of 3 case(s) of (stt_wer, en) did not run (a -k, -m, node-id, --deselect"),
    (("cases/en/signature.yaml",), "1 case file(s) that may hold its cases were not collected "
                                   "(first: cases/en/score.yaml)"),
])
def test_a_patch_bump_is_rerecorded_only_by_a_run_that_saw_every_case_of_the_pair(copy, selection, reason):
    """A selected run cannot show that no case of the pair changes: it keeps the signature,
    says why, and fails (its signature case passed on that promise)."""
    config = copy / "configs" / "en.toml"
    add_filler(config)  # would move filler-in-hypothesis, which this run does not see
    _set_version(config, _patch)
    before = state(copy)
    if selection[0] == "-k":
        result = run_cases(copy, "--snapshot-update", *selection)
    else:
        result = child(copy, "-m", "pytest", "--asrbench", *selection, "-p", "no:cacheprovider", "-q", "-rN",
                       "--snapshot-update")
    assert result.returncode == 1, result.stdout
    assert result.stdout.count(KEPT) == 1, result.stdout
    assert "is re-recorded only by a run that saw every case of the pair, and " + reason in result.stdout
    assert state(copy) == before


def test_unreadable_signatures_rerecord_nothing_even_after_a_minor_bump(copy):
    """While a case file that may hold a signature case does not load, the gate refuses every
    re-recording: the bumped signature case is not rewritten either."""
    config = copy / "configs" / "en.toml"
    add_filler(config)
    _set_version(config, _minor)
    (copy / "cases" / "en" / "broken.yaml").write_text("language: en\ncases:\n  - id: signature\n    kind: [\n",
                                                       encoding="utf-8")
    before = state(copy)
    result = run_cases(copy, "--snapshot-update")
    assert result.returncode == 1
    assert "not re-recorded: the recorded signatures cannot be read" in result.stdout
    assert "rewrote" not in result.stdout
    assert state(copy) == before
