"""``asrbench check-version``: a git repository copy of the project, edited commit by commit."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cli import main
from pytest_asrbench.signatures.compute import compute
from pytest_asrbench.signatures.version_gate import Recorded, case_yaml, judge
from pytest_asrbench.signatures.sources import installed_source, project_source

REPO = installed_source().root


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "pytest_asrbench", tmp_path / "pytest_asrbench", ignore=ignore)
    shutil.copytree(REPO / "configs", tmp_path / "configs", ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    # Recorded pairs (the only ones CI gates, so the only ones check-version checks):
    # stt_wer and cer in English, stt_wer in Hindi (which reads en.toml); not cer in Hindi.
    for language, metrics in (("en", ("stt_wer", "cer")), ("hi", ("stt_wer",))):
        (tmp_path / "cases" / language).mkdir(parents=True)
        entries = "".join(case_yaml(compute(metric, language, project_source(tmp_path)), f"{metric}-signature")
                          for metric in metrics)
        (tmp_path / "cases" / language / "signature.yaml").write_text(
            f"language: {language}\ncases:\n" + entries, encoding="utf-8")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "base")
    return tmp_path


def check(repo: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["check-version", "--root", str(repo), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_clean_tree_passes(repo, capsys):
    code, out = check(repo, capsys)
    assert code == 0 and "no unbumped change since HEAD" in out


def test_unbumped_config_change_is_the_signature_case_finding(repo, capsys):
    edit(repo / "configs" / "en.toml", 'fillers = ["uh"', 'fillers = ["umm", "uh"')
    commit(repo, "filler without a bump")
    code, out = check(repo, capsys, "--base", "HEAD~1")
    assert code == 1
    # the same text the signature case gives for the same edit
    case = load_case_file(repo / "cases" / "en" / "signature.yaml").cases[0]
    verdict = judge(Recorded.from_case(case, repo), compute("stt_wer", "en", project_source(repo)))
    assert verdict.state == "changed"
    assert verdict.message in out
    assert "changed: config en.toml" in out
    assert git(repo, "status", "--porcelain") == ""  # nothing regenerated


def test_uncommitted_edit_against_head_for_pre_commit(repo, capsys):
    append(repo / "pytest_asrbench" / "normalize" / "steps" / "basic.py", "\n_asrbench_probe = 1\n")
    code, out = check(repo, capsys)
    assert code == 1
    assert "metric changed without a version bump (stt_wer, en): bump the version of metric stt_wer" in out
    assert "changed: module pytest_asrbench/normalize/steps/basic.py" in out
    assert "(cer, en)" in out  # every recorded metric the module feeds
    assert "(stt_wer, hi)" in out
    assert "(cer, hi)" not in out  # no signature case: CI does not gate it, neither does the hook


def test_bump_passes(repo, capsys):
    config = repo / "configs" / "en.toml"
    edit(config, 'fillers = ["uh"', 'fillers = ["umm", "uh"')
    config.write_text(re.sub(r'(?m)^version = "[^"]+"', 'version = "9.0.0"', config.read_text(encoding="utf-8")),
                      encoding="utf-8")
    commit(repo, "filler with a bump")
    code, out = check(repo, capsys, "--base", "HEAD~1")
    assert "(stt_wer, en)" not in out and "(cer, en)" not in out, out
    # a language that re-checks English words (hi: code_switch_languages = ["en"]) reads
    # en.toml too: its scores can change, so its own stamped version must move as well
    # (of the recorded pairs: de, nl, fr, es, it re-check English too, but have none here)
    dependents = [path.stem for path in (repo / "configs").glob("*.toml") if (repo / "cases" / path.stem).is_dir()
                  and '"en"' in path.read_text(encoding="utf-8").split("code_switch_languages", 1)[-1].split("\n")[0]]
    assert code == (1 if dependents else 0), out
    for language in dependents:
        assert f"(stt_wer, {language}): bump the version of configs/{language}.toml" in out


def test_metric_version_bump_passes_module_change(repo, capsys):
    append(repo / "pytest_asrbench" / "scoring" / "alignment.py", "\n_asrbench_probe = 1\n")
    metrics = repo / "pytest_asrbench" / "scoring" / "metrics.py"
    text = metrics.read_text(encoding="utf-8")
    metrics.write_text(re.sub(r'("stt_wer",\s*")([^"]+)"', r'\g<1>\g<2>.1"', text, count=1), encoding="utf-8")
    code, out = check(repo, capsys)
    assert code == 1  # stt_wer moved, cer did not
    assert "(stt_wer, en)" not in out and "(cer, en)" in out


def test_comment_only_edit_passes(repo, capsys):
    append(repo / "pytest_asrbench" / "normalize" / "steps" / "basic.py", "\n# only a comment\n")
    code, out = check(repo, capsys)
    assert code == 0, out


def test_library_pin_change_is_a_finding(repo, capsys):
    edit(repo / "pyproject.toml", '"jiwer==4.0.0"', '"jiwer==4.1.0"')
    code, out = check(repo, capsys)
    assert code == 1
    assert "changed: library jiwer 4.0.0→4.1.0" in out


def test_bad_revision_is_a_usage_error(repo, capsys):
    code, out = check(repo, capsys, "--base", "no-such-rev")
    assert code == 2 and "no-such-rev" in out


def test_loosened_pin_of_a_scoring_library_is_a_finding(repo, capsys):
    # regex feeds every language's punctuation step: unpinning it lets scores move unseen.
    edit(repo / "pyproject.toml", '"regex==2026.11.19"', '"regex>=2026"')
    code, out = check(repo, capsys)
    assert code == 1
    assert "changed: library regex 2026.11.19→unpinned" in out


# --- a team's project: its own config folders over the installed package ----------------------

def _team_signature_case(config_dir: Path) -> str:
    """The signature case a team prints for its folder (`asrbench signature --config-dir ... --case`)."""
    from pytest_asrbench._shared.config_layers import layered_configs_dir
    from pytest_asrbench.normalize.registry import shipped_configs_dir
    from pytest_asrbench.signatures.sources import DirSource

    source = DirSource(REPO, "configs", configs_root=layered_configs_dir([config_dir], shipped_configs_dir()))
    return "language: en\ncases:\n" + case_yaml(compute("stt_wer", "en", source))


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """A team project in a sub-folder of its git repository (not at its top), with its own
    config folder and a case folder not named `cases`."""
    project = tmp_path / "repo" / "team"
    files = {
        "pytest.ini": "[pytest]\nasrbench_config_dirs = myconfigs\nasrbench_case_dirs = checks\n",
        "myconfigs/en.toml": 'extends = "en"\nversion = "1.0.0"\n\n[lexicons]\nspelling = "en/spelling.tsv"\n',
        "myconfigs/en/spelling.tsv": "kubernetes\tk8s\n",
    }
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text, encoding="utf-8")
    (project / "checks" / "en").mkdir(parents=True)
    (project / "checks/en/signature.yaml").write_text(_team_signature_case(project / "myconfigs"), encoding="utf-8")
    git(tmp_path / "repo", "init", "-q")
    commit(tmp_path / "repo", "base")
    return project


TEAM_FINDING = ('metric changed without a version bump (stt_wer, en): bump the version of myconfigs/en.toml '
                '(version = "1.0.0") and re-record with `pytest --asrbench checks/en --snapshot-update`\n'
                '  changed: lexicon en/spelling.merged.tsv (from myconfigs/en/spelling.tsv)')


def test_team_project_clean_tree_passes(team, capsys):
    code, out = check(team, capsys)
    assert code == 0, out
    assert "no unbumped change since HEAD in myconfigs (1 metric/language pairs checked)" in out


def test_team_project_unbumped_lexicon_change_names_its_own_files(team, capsys):
    append(team / "myconfigs/en/spelling.tsv", "openshift\tocp\n")
    commit(team.parent, "a product name without a bump")
    code, out = check(team, capsys, "--base", "HEAD~1")
    assert code == 1, out
    assert TEAM_FINDING in out
    assert "no pytest-asrbench project" not in out and "/tmp" not in out.split("\n")[0]


def test_team_project_uncommitted_change_is_caught_against_head_as_the_hook_runs(team, capsys):
    append(team / "myconfigs/en/spelling.tsv", "openshift\tocp\n")
    code, out = check(team, capsys)
    assert code == 1 and TEAM_FINDING in out


def test_team_project_config_bump_passes(team, capsys):
    append(team / "myconfigs/en/spelling.tsv", "openshift\tocp\n")
    edit(team / "myconfigs/en.toml", 'version = "1.0.0"', 'version = "1.1.0"')
    code, out = check(team, capsys)
    assert code == 0, out


def test_team_project_without_a_config_folder_passes_and_says_how_to_name_one(team, capsys):
    # A project that only writes cases has nothing of its own to check: the pre-commit hook
    # must not block its commits, and the note says how to have its own configs checked.
    (team / "pytest.ini").write_text("[pytest]\nasrbench_case_dirs = checks\n", encoding="utf-8")
    append(team / "myconfigs/en/spelling.tsv", "openshift\tocp\n")  # not named: not checked
    code, out = check(team, capsys)
    assert code == 0, out
    assert "nothing to check: no project config folder (pytest.ini names none)" in out
    assert "asrbench_config_dirs = myconfigs" in out


def test_team_project_naming_a_missing_config_folder_is_an_error(team, capsys):
    (team / "pytest.ini").write_text("[pytest]\nasrbench_config_dirs = nosuchconfigs\n", encoding="utf-8")
    code, out = check(team, capsys)
    assert code == 2
    assert "nosuchconfigs" in out


def test_config_dir_option_names_the_folder_without_an_ini_option(team, capsys):
    (team / "pytest.ini").write_text("[pytest]\nasrbench_case_dirs = checks\n", encoding="utf-8")
    append(team / "myconfigs/en/spelling.tsv", "openshift\tocp\n")
    code, out = check(team, capsys, "--config-dir", str(team / "myconfigs"))
    assert code == 1 and "(from myconfigs/en/spelling.tsv)" in out


def test_team_project_without_signature_cases_says_so(team, capsys):
    (team / "checks/en/signature.yaml").unlink()
    code, out = check(team, capsys)
    assert code == 0
    assert "no signature case under checks" in out and "asrbench signature -l <lang>" in out


def test_a_pin_move_of_a_library_a_language_s_steps_declare_is_a_finding(repo, capsys):
    # English parses number words with text2num (@step("number_words", libraries=("text2num",))),
    # and Hindi reads the English config for its code-switch view: both scores can move.
    edit(repo / "pyproject.toml", '"text2num==3.1.0"', '"text2num==3.2.0"')
    code, out = check(repo, capsys)
    assert code == 1
    assert "(stt_wer, en)" in out and "(stt_wer, hi)" in out
    assert "changed: library text2num 3.1.0→3.2.0" in out


def test_team_project_version_that_is_not_a_string_is_refused_with_the_form_to_write(team, capsys):
    append(team / "myconfigs/en/spelling.tsv", "openshift\tocp\n")
    edit(team / "myconfigs/en.toml", 'version = "1.0.0"', "version = 2")
    code, out = check(team, capsys)
    assert code == 2, out
    assert 'en.toml: version = 2 is not a version string: write it in quotes as major.minor.patch, e.g. version = "2.0.0"' \
        in out, out


def test_shipped_config_version_that_is_not_a_string_is_refused(repo, capsys):
    config = repo / "configs" / "en.toml"
    config.write_text(re.sub(r'(?m)^version = "[^"]+"', "version = 1.9", config.read_text(encoding="utf-8")),
                      encoding="utf-8")
    code, out = check(repo, capsys)
    assert code == 2, out
    assert 'configs/en.toml: version = 1.9 is not a version string: write it in quotes as major.minor.patch, ' \
           'e.g. version = "1.9.0"' in out, out


def test_a_failed_command_gives_back_the_config_folders_it_searched(team, capsys):
    from pytest_asrbench.normalize.registry import config_dirs_in_use, get_config

    edit(team / "myconfigs/en.toml", 'version = "1.0.0"', "version = 2")
    before = config_dirs_in_use()
    code, _ = check(team, capsys)
    assert code == 2
    assert config_dirs_in_use() == before
    assert get_config("en").version != 2  # the shipped config again, not the broken project one
