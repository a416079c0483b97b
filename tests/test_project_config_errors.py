"""Errors about a project's own config name the project's file, never the merged copy under the
temporary folder (``normalize/registry.shown_config_file``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize import normalize_text
from pytest_asrbench.normalize.registry import use_config_dirs


@pytest.fixture
def myconfigs(tmp_path: Path, monkeypatch):
    folder = tmp_path / "myconfigs"
    (folder / "en").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    yield folder
    use_config_dirs([])


def _error(folder: Path, config: str, files: dict[str, str] | None = None) -> str:
    (folder / "en.toml").write_text(config, encoding="utf-8")
    for rel, text in (files or {}).items():
        (folder / rel).write_text(text, encoding="utf-8")
    use_config_dirs([folder])
    with pytest.raises(ConfigError) as caught:
        normalize_text("hello", "en")
    return str(caught.value)


def test_a_moved_top_level_table_names_the_projects_config(myconfigs):
    message = _error(myconfigs, 'extends = "en"\nversion = "1.0.0"\n\n[spoken_symbols]\nhash = "#"\n')
    assert message.startswith("myconfigs/en.toml: spoken_symbols: no longer a top-level key; it is now the table "
                              "[options.spoken_symbols.symbols]")
    assert "pytest-asrbench-configs" not in message


def test_an_unknown_step_names_the_projects_config(myconfigs):
    message = _error(myconfigs, 'extends = "en"\nversion = "1.0.0"\nsteps = ["nfc", "no_such_step"]\n')
    assert message.startswith("myconfigs/en.toml: steps: unknown step 'no_such_step'")


def test_a_bad_line_of_a_projects_own_lexicon_names_its_file_and_line(myconfigs):
    message = _error(myconfigs, 'extends = "en"\nversion = "1.0.0"\n\n[lexicons]\nproducts = "en/products.tsv"\n',
                     {"en/products.tsv": "kubernetes\tk8s\nopenshift ocp\n"})
    assert message.startswith("myconfigs/en/products.tsv:2: expected 'key<TAB>value' (one tab), found 0 tab(s)")


def test_the_team_example_extends_the_shipped_tables(myconfigs):
    (myconfigs / "en.toml").write_text(
        'extends = "en"\nversion = "1.0.0"\n\n[options.spoken_symbols.symbols]\n"at sign" = "@"\n', encoding="utf-8")
    use_config_dirs([myconfigs])
    assert normalize_text("write to ops at sign example", "en") == "write to ops@example"
    assert normalize_text("HR slash payroll", "en") == "hr/payroll"  # the shipped code_only still applies


@pytest.mark.parametrize("value, shown", [("5", "5"), ("true", "true"), ('["en/spelling.tsv"]', '["en/spelling.tsv"]'),
                                          ('""', '""'), ('{ file = "a.tsv" }', '{"file" = "a.tsv"}')])
def test_a_lexicon_value_that_is_not_a_file_name_names_the_file_key_and_what_to_write(myconfigs, value, shown):
    message = _error(myconfigs, f'extends = "en"\nversion = "1.0.0"\n\n[lexicons]\nspelling = {value}\n')
    assert message.endswith(f"en.toml: [lexicons] spelling = {shown} is not a file name: write the path of the "
                            'lexicon file next to the config, in quotes, e.g. spelling = "en/spelling.tsv"'), message
    assert "myconfigs" in message
