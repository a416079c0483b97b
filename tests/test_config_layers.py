"""Project config folders layered over the shipped ones (``_shared/config_layers.py``).

Merge rules (configs/README.md, "Your own configs"): the first folder that has a file wins;
``extends`` merges tables key by key, replaces every other value, and merges lexicons named
by both (the child's rows added or overriding); a tag no shipped folder has is a new language.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_asrbench._shared.config_layers import (
    ENV_VAR,
    env_config_dirs,
    layered_configs_dir,
    origin_of,
    project_config_dirs,
)
from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench.errors import ConfigError

SHIPPED_EN = '''language = "en"
version = "1.6.0"
unit = "word"
steps = ["nfc", "lowercase", "spelling"]
fillers = ["uh", "um"]

[spoken_symbols]
dash = "-"
dot = "."

[lexicons]
spelling = "en/spelling.tsv"
titles = "en/titles.tsv"
'''


def write(folder: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def shipped(tmp_path) -> Path:
    return write(tmp_path / "shipped", {
        "en.toml": SHIPPED_EN,
        "en/spelling.tsv": "colour\tcolor\nfavour\tfavor\n",
        "en/titles.tsv": "dr\tdoctor\n",
        "de.toml": 'language = "de"\nversion = "0.2.0"\nunit = "word"\nsteps = ["nfc"]\n',
    })


def config(folder: Path, tag: str) -> dict:
    path = folder / f"{tag}.toml"
    return load_toml(path.read_bytes(), path)


def rows(path: Path) -> dict[str, str]:
    return dict(line.split("\t") for line in path.read_text(encoding="utf-8").splitlines())


def test_no_project_folder_is_the_shipped_folder_itself(shipped):
    assert layered_configs_dir([], shipped) == shipped


def test_tables_merge_key_by_key_and_other_values_are_replaced(tmp_path, shipped):
    project = write(tmp_path / "project", {"en.toml": (
        'extends = "en"\nversion = "1.0.0"\nsteps = ["nfc", "lowercase"]\nfillers = ["erm"]\n'
        '[spoken_symbols]\ndot = "point"\nslash = "/"\n')})
    merged = config(layered_configs_dir([project], shipped), "en")
    assert "extends" not in merged
    assert merged["version"] == "1.0.0"
    assert merged["steps"] == ["nfc", "lowercase"]  # a list is replaced, not appended to
    assert merged["fillers"] == ["erm"]
    assert merged["unit"] == "word" and merged["language"] == "en"  # untouched keys are the parent's
    assert merged["spoken_symbols"] == {"dash": "-", "dot": "point", "slash": "/"}
    assert merged["lexicons"] == {"spelling": "en/spelling.tsv", "titles": "en/titles.tsv"}


def test_sub_tables_merge_key_by_key_at_every_depth(tmp_path, shipped):
    write(shipped, {"en.toml": SHIPPED_EN + '\n[options.spoken_symbols]\ncode_only = ["slash"]\n\n'
                               '[options.spoken_symbols.symbols]\ndash = "-"\nslash = "/"\n'})
    project = write(tmp_path / "project", {"en.toml": (
        'extends = "en"\nversion = "1.0.0"\n\n[options.spoken_symbols.symbols]\n"at sign" = "@"\nslash = "|"\n')})
    options = config(layered_configs_dir([project], shipped), "en")["options"]
    assert options["spoken_symbols"] == {"code_only": ["slash"], "symbols": {"dash": "-", "slash": "|", "at sign": "@"}}


def test_lexicon_entries_are_added_and_overridden_and_a_new_lexicon_is_added(tmp_path, shipped):
    project = write(tmp_path / "project", {
        "en.toml": 'extends = "en"\n[lexicons]\nspelling = "en/spelling.tsv"\nproducts = "en/products.tsv"\n',
        "en/spelling.tsv": "favour\tfavour\nkubernetes\tk8s\n",
        "en/products.tsv": "jira\tJira\n",
    })
    effective = layered_configs_dir([project], shipped)
    lexicons = config(effective, "en")["lexicons"]
    assert lexicons == {"spelling": "en/spelling.merged.tsv", "titles": "en/titles.tsv",
                        "products": "en/products.tsv"}
    assert rows(effective / "en/spelling.merged.tsv") == {"colour": "color", "favour": "favour", "kubernetes": "k8s"}
    assert rows(effective / "en/products.tsv") == {"jira": "Jira"}
    assert rows(effective / "en/titles.tsv") == {"dr": "doctor"}  # the shipped file, untouched
    assert origin_of(effective, "en.toml") == project / "en.toml"
    assert origin_of(effective, "en/spelling.merged.tsv") == project / "en/spelling.tsv"
    assert origin_of(effective, "en/titles.tsv") is None  # shipped
    assert origin_of(effective, "de.toml") is None


def test_the_first_folder_wins_and_a_same_tag_chain_runs_through_every_folder(tmp_path, shipped):
    team = write(tmp_path / "team", {"en.toml": 'extends = "en"\n[spoken_symbols]\ndash = "hyphen"\n'})
    company = write(tmp_path / "company", {
        "en.toml": 'extends = "en"\nversion = "2.0.0"\n[spoken_symbols]\ndash = "minus"\nat = "@"\n',
        "de.toml": 'language = "de"\nversion = "9.0.0"\nunit = "word"\nsteps = ["nfc"]\n',
    })
    effective = layered_configs_dir([team, company], shipped)
    merged = config(effective, "en")
    assert merged["version"] == "2.0.0"
    assert merged["spoken_symbols"] == {"dash": "hyphen", "dot": ".", "at": "@"}
    assert config(effective, "de")["version"] == "9.0.0"  # a whole file replaces the shipped one


def test_extends_another_tag(tmp_path, shipped):
    project = write(tmp_path / "project", {"en-x-acme.toml": 'extends = "en"\nlanguage = "en-x-acme"\n'})
    merged = config(layered_configs_dir([project], shipped), "en-x-acme")
    assert merged["language"] == "en-x-acme" and merged["steps"] == ["nfc", "lowercase", "spelling"]


def test_an_extends_cycle_is_an_error_naming_the_file(tmp_path, shipped):
    project = write(tmp_path / "project", {"aa.toml": 'extends = "bb"\n', "bb.toml": 'extends = "aa"\n'})
    with pytest.raises(ConfigError, match=r"aa\.toml: 'extends' makes a cycle \(aa -> bb -> aa\)"):
        layered_configs_dir([project], shipped)


def test_an_unknown_base_is_an_error_naming_the_file_and_the_known_configs(tmp_path, shipped):
    project = write(tmp_path / "project", {"en.toml": 'extends = "eng"\n'})
    with pytest.raises(ConfigError) as raised:
        layered_configs_dir([project], shipped)
    message = str(raised.value)
    assert message.startswith(f"{project / 'en.toml'}: extends = \"eng\", but no config folder has eng.toml")
    assert message.endswith("known configs: de, en")  # the shipped en, a folder after the project's


def test_extending_the_same_tag_with_no_later_folder_having_it_is_an_error(tmp_path, shipped):
    project = write(tmp_path / "project", {"xx.toml": 'extends = "xx"\n'})
    with pytest.raises(ConfigError, match=r"xx\.toml: extends = \"xx\", but no later config folder has xx\.toml"):
        layered_configs_dir([project], shipped)


@pytest.mark.parametrize("value", ['""', "3", '["en"]'])
def test_extends_must_name_a_config(tmp_path, shipped, value):
    project = write(tmp_path / "project", {"en.toml": f"extends = {value}\n"})
    with pytest.raises(ConfigError, match=r"en\.toml: extends must name a language or base config, e\.g\. extends = \"en\""):
        layered_configs_dir([project], shipped)


def test_a_lexicon_named_but_missing_is_an_error_naming_the_config(tmp_path, shipped):
    project = write(tmp_path / "project", {"en.toml": 'extends = "en"\n[lexicons]\nspelling = "en/nope.tsv"\n'})
    with pytest.raises(ConfigError, match=r"en\.toml: lexicon 'spelling' names en/nope\.tsv, which is not a file"):
        layered_configs_dir([project], shipped)


def test_a_lexicon_row_without_one_tab_is_an_error_with_its_line(tmp_path, shipped):
    project = write(tmp_path / "project", {"en.toml": 'extends = "en"\n[lexicons]\nspelling = "en/spelling.tsv"\n',
                                           "en/spelling.tsv": "ok\tfine\nbroken line\n"})
    with pytest.raises(ConfigError, match=r"spelling\.tsv:2: expected 'key<TAB>value' \(one tab\), found 0 tab"):
        layered_configs_dir([project], shipped)


def test_a_missing_folder_is_an_error_naming_it(tmp_path, shipped):
    with pytest.raises(ConfigError, match=r"config folder .*nowhere does not exist or is not a folder"):
        layered_configs_dir([tmp_path / "nowhere"], shipped)


def test_an_edit_makes_a_new_effective_folder(tmp_path, shipped):
    project = write(tmp_path / "project", {"en.toml": 'extends = "en"\nversion = "1.0.0"\n'})
    first = layered_configs_dir([project], shipped)
    write(project, {"en.toml": 'extends = "en"\nversion = "1.0.1"\n'})
    second = layered_configs_dir([project], shipped)  # in the same process too: an edit is never hidden
    assert first != second
    assert config(first, "en")["version"] == "1.0.0" and config(second, "en")["version"] == "1.0.1"


# --- the search path: ini option / --config-dir, then ASRBENCH_CONFIG_DIRS ----------------

def test_env_config_dirs_split_on_pathsep_relative_to_the_current_folder(tmp_path):
    value = os.pathsep.join(["team", "", str(tmp_path / "abs")])
    assert env_config_dirs({ENV_VAR: value}, cwd=tmp_path) == [tmp_path / "team", tmp_path / "abs"]
    assert env_config_dirs({}, cwd=tmp_path) == []
    assert env_config_dirs({ENV_VAR: ""}, cwd=tmp_path) == []


def test_project_config_dirs_keep_order_drop_duplicates_and_name_the_setting(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    assert project_config_dirs(("the ini option", [a]), ("the variable", [b, a])) == [a.resolve(), b.resolve()]
    with pytest.raises(ConfigError, match=rf"config folder .*missing \(named by the {ENV_VAR} variable\) does not exist"):
        project_config_dirs(("the ini option", [a]), (f"the {ENV_VAR} variable", [tmp_path / "missing"]))


# --- a new language defined locally, through the registry ---------------------------------

def test_a_new_language_defined_locally_normalizes(tmp_path):
    from pytest_asrbench.normalize import normalize_text
    from pytest_asrbench.normalize.registry import known_languages, use_config_dirs

    project = write(tmp_path / "project", {"eo.toml": (
        'language = "eo"\nversion = "1.0.0"\nunit = "word"\n'
        'steps = ["nfc", "punctuation", "lowercase", "collapse_whitespace"]\n')})
    use_config_dirs([project])
    try:
        assert "eo" in known_languages() and "en" in known_languages()
        assert normalize_text("Saluton,  Mondo!", "eo") == "saluton mondo"
    finally:
        use_config_dirs([])
    assert "eo" not in known_languages()


def test_a_project_config_extends_a_shipped_language_that_extends_a_base(tmp_path):
    shipped = write(tmp_path / "shipped", {
        "_european.toml": 'unit = "word"\nsteps = ["nfc", "lowercase"]\n',
        "de.toml": 'extends = "_european"\nlanguage = "de"\nversion = "0.5.1"\nfillers = ["äh"]\n',
    })
    project = write(tmp_path / "project", {"de.toml": 'extends = "de"\nversion = "1.0.0"\nfillers = ["ähm"]\n'})
    effective = layered_configs_dir([project], shipped)
    assert config(effective, "de") == {"unit": "word", "steps": ["nfc", "lowercase"], "language": "de",
                                       "version": "1.0.0", "fillers": ["ähm"]}
    # the base itself can be overridden by a project folder, like any shipped file
    other = write(tmp_path / "other", {"_european.toml": 'unit = "word"\nsteps = ["nfc"]\n'})
    assert config(layered_configs_dir([other], shipped), "de")["steps"] == ["nfc"]


def test_an_unknown_base_lists_the_shipped_language_of_the_same_name(tmp_path):
    shipped = write(tmp_path / "shipped", {"en.toml": 'language = "en"\n', "_base.toml": 'unit = "word"\n'})
    project = write(tmp_path / "project", {"en.toml": 'extends = "qq"\n'})
    with pytest.raises(ConfigError) as raised:
        layered_configs_dir([project], shipped)
    assert str(raised.value).endswith("known configs: _base, en")
