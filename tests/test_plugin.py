"""The plugin end to end, in pytester sandboxes: collection, snapshots, broken files, xfail."""

from __future__ import annotations

import textwrap

import pytest

GOOD = """
language: en
cases:
  - id: spaces
    kind: equal
    texts: ["hello world", "hello\\tworld", "Hello,  World!"]
  - id: pair
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {rate: 0.3333333333333333, substitutions: 1, deletions: 1, insertions: 0}
  - id: names
    kind: untouched
    texts: ["Dellwood met Ramirez"]
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch):
    # The inner runs are not xdist workers, even when this suite runs under -n.
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeini("[pytest]\n")
    (pytester.path / "cases" / "en").mkdir(parents=True)
    return pytester


def write(pytester: pytest.Pytester, relative: str, text: str):
    path = pytester.path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_yaml_ignored_without_flag(project):
    write(project, "cases/en/a.yaml", GOOD)
    project.makepyfile(test_plain="def test_ok():\n    assert True\n")
    result = project.runpytest()
    result.assert_outcomes(passed=1)


def test_each_case_is_an_item_and_snapshots_are_written(project):
    write(project, "cases/en/a.yaml", GOOD)
    first = project.runpytest("--asrbench", "cases", "--snapshot-update")
    first.assert_outcomes(passed=3)
    stored = sorted(p.relative_to(project.path).as_posix() for p in (project.path / "snapshots").rglob("*.json"))
    assert stored == ["snapshots/en/a/names.json", "snapshots/en/a/pair.json", "snapshots/en/a/spaces.json"]
    second = project.runpytest("--asrbench", "cases", "-v")
    second.assert_outcomes(passed=3)
    second.stdout.fnmatch_lines(["*asrbench 0.*languages*en*metrics*stt_wer*", "*cases/en/a.yaml::spaces PASSED*"])


def test_snapshot_text_is_readable_utf8(project):
    write(project, "cases/en/a.yaml", """
        language: en
        cases:
          - id: accents
            kind: normalize
            text: "Café ÉTÉ"
            expect: "café été"
    """)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=1)
    text = (project.path / "snapshots/en/a/accents.json").read_text(encoding="utf-8")
    assert '"normalized": "café été"' in text
    assert "\\u" not in text


def test_drift_fails_with_a_diff_and_update_rerecords(project):
    path = write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    path.write_text(path.read_text().replace("the bat sat on mat", "the bat sat on a mat"), encoding="utf-8")
    path.write_text(path.read_text().replace("{rate: 0.3333333333333333, substitutions: 1, deletions: 1, insertions: 0}",
                                             "{substitutions: 2}"), encoding="utf-8")
    drift = project.runpytest("--asrbench", "cases")
    drift.assert_outcomes(passed=2, failed=1)
    drift.stdout.fnmatch_lines(["*output differs from the recorded snapshot*", '*-*"hypothesis": "the bat sat on mat"*'])
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    project.runpytest("--asrbench", "cases").assert_outcomes(passed=3)


def test_update_new_only_records_a_new_case_and_leaves_a_drifted_one(project):
    path = write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    recorded = (project.path / "snapshots/en/a/pair.json").read_bytes()
    path.write_text(path.read_text().replace("the bat sat on mat", "the bat sat on a mat").replace(
        "{rate: 0.3333333333333333, substitutions: 1, deletions: 1, insertions: 0}", "{substitutions: 2}")
        + "  - id: added\n    kind: untouched\n    texts: [\"Anna met Ramirez\"]\n", encoding="utf-8")
    result = project.runpytest("--asrbench", "cases", "--snapshot-update-new-only")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*output differs from the recorded snapshot*"])
    assert (project.path / "snapshots/en/a/pair.json").read_bytes() == recorded
    assert (project.path / "snapshots/en/a/added.json").is_file()


def test_deleted_case_is_reported_unused(project):
    path = write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    text = path.read_text()
    path.write_text(text[: text.index("  - id: names")], encoding="utf-8")
    result = project.runpytest("--asrbench", "cases")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # unused snapshots fail a plain run, as in syrupy
    result.stdout.fnmatch_lines(["*unused: 1 snapshot file(s) no case id names; re-run with --snapshot-update*",
                                 "*snapshots/en/a/names.json"])
    update = project.runpytest("--asrbench", "cases", "--snapshot-update")
    update.stdout.fnmatch_lines(["*deleted 1 snapshot file(s) no case id names:*", "*snapshots/en/a/names.json"])
    assert not (project.path / "snapshots/en/a/names.json").exists()


def test_failed_expectation_names_file_line_and_values(project):
    write(project, "cases/en/a.yaml", """
        language: en
        cases:
          - id: wrong
            kind: score
            reference: a b c d
            hypothesis: a b c
            expect: {rate: 0.5}
    """)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*cases/en/a.yaml:4: case 'wrong' (score):*", "*stt_wer 25.0% != expected 50.0% (rate 0.25, expected 0.5, tolerance 1e-09)*",
                                 "normalized reference:  'a b c d'", "  REF: a b c D", "  HYP: a b c ***",
                                 "             D"])


@pytest.mark.parametrize(
    "body, message",
    [
        ("language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b\n", "*a.yaml:6: YAML syntax error*"),
        ("language: en\ncases:\n  - id: a\n    kind: equl\n    texts: [a, b]\n",
         "*a.yaml:4: case 'a', field `kind`: unknown kind 'equl': did you mean `equal`? use one of: equal, *"),
        ("language: en\ncases:\n  - id: a\n    kind: equal\n", "*a.yaml:3: case 'a': an equal case needs the field `texts`: add a line such as `texts: *` "
         "under the case (two or more texts that must all normalize to the same string; each kind's "
         "fields: `asrbench add-case --help`, or the README's \"Writing cases\")"),
        ("language: en\ncases:\n  - id: a\n    kind: normalize\n    text: x\n    expect: 3\n",
         "*a.yaml:6: case 'a', field `expect`: write '3' in quotes: YAML reads 3 as the number 3, not as text"),
        ("language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b]\n  - id: a\n    kind: equal\n    texts: [a, b]\n",
         "*a.yaml:6: duplicate case id 'a' (first on line 3)*"),
        ("language: xx\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b]\n",
         "*a.yaml:1: no normalizer config for language 'xx'; known languages:*"),
        ("language: en\ncases:\n  - id: a\n    kind: equal\n    texts: [a, b]\n    txts: [c]\n",
         "*a.yaml:6: case 'a': unknown field `txts`: did you mean `texts`? remove it or fix its spelling (an equal "
         "case takes: id, kind, language, metric, note, source, texts, xfail)*"),
        ("language: en\ncases:\n  - id: a\n    kind: equal\n    kind: distinct\n", "*a.yaml:5: duplicate key 'kind'*"),
        ("- just a list\n", "*a.yaml:1: a case file must be a mapping with a 'cases' list*"),
        ("language: en\ncases:\n  - id: a\n\tkind: equal\n", "*a.yaml:4: YAML syntax error:*this line has a tab*"),
        ("language: en\ncases:\n  - id: a\n    kind: normalize\n    text: x\n",
         "*a.yaml:3: case 'a': a normalize case needs the field `expect`: add a line such as "
         "`expect: \"it is fine\"` under the case*"),
    ],
    ids=["syntax", "unknown-kind", "missing-field", "wrong-type", "duplicate-id", "unknown-language",
         "unknown-key", "duplicate-key", "not-a-mapping", "tab", "only-the-real-problem"],
)
def test_broken_file_is_one_failing_item_with_file_and_line(project, body, message):
    write(project, "cases/en/a.yaml", body)
    write(project, "cases/en/b.yaml", GOOD)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines([message])
    # Only the real problems: no complaint about valid fields.
    assert "unknown field" not in result.stdout.str() or "txts" in body


def test_non_utf8_file_names_the_line(project):
    (project.path / "cases/en/a.yaml").write_bytes(b"language: en\ncases:\n  - id: \xff\n")
    result = project.runpytest("--asrbench", "cases")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*a.yaml:3: not UTF-8 text*save it as UTF-8*"])


def test_case_error_is_reported_at_the_case_and_keeps_its_snapshot(project):
    path = write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    text = path.read_text()
    path.write_text(text.replace("reference: the cat sat on the mat", "reference: [a, b]")
                        .replace("hypothesis: the bat sat on mat", "hypothesis: [a]"), encoding="utf-8")
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*a.yaml:7: case 'pair' (score): score() got 2 references and 1 hypotheses*"])
    assert "Traceback" not in result.stdout.str()
    assert (project.path / "snapshots/en/a/pair.json").exists()


def test_every_case_gets_the_fixtures_of_its_own_folder(project):
    write(project, "cases/en/a.yaml", GOOD)
    write(project, "cases/other/b.yaml", GOOD)
    write(project, "cases/en/conftest.py", """
        import pytest

        @pytest.fixture(autouse=True)
        def seen(request):
            with open(request.config.rootpath / "seen.txt", "a", encoding="utf-8") as out:
                out.write(request.node.nodeid + "\\n")
    """)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=6)
    seen = (project.path / "seen.txt").read_text(encoding="utf-8").split()
    assert seen == [f"cases/en/a.yaml::{case}" for case in ("spaces", "pair", "names")]


def test_broken_file_keeps_its_snapshots(project):
    path = write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    path.write_text(path.read_text() + "  - id: bad\n    kind: nope\n", encoding="utf-8")
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(failed=1)
    assert len(list((project.path / "snapshots/en/a").glob("*.json"))) == 3


def test_xfail_is_strict(project):
    write(project, "cases/en/a.yaml", """
        language: en
        cases:
          - id: still-broken
            kind: equal
            texts: ["flight", "fight"]
            xfail: the normalizer cannot know these are the same
          - id: fixed-now
            kind: equal
            texts: ["a day", "A DAY"]
            xfail: was broken once
    """)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update", "-rxX")
    result.assert_outcomes(xfailed=1, failed=1)
    result.stdout.fnmatch_lines(["*XPASS(strict)*remove `xfail: was broken once` from*a.yaml:11*"])


def test_regional_tag_falls_back_to_base_language(project):
    write(project, "cases/en/a.yaml", """
        language: en-GB
        cases:
          - id: gb
            kind: normalize
            text: Hello
            expect: hello
    """)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=1)
    assert (project.path / "snapshots/en/a/gb.json").exists()


def test_xdist_runs_cases(project):
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    project.runpytest("--asrbench", "cases", "-n", "2").assert_outcomes(passed=3)


def test_same_file_name_in_two_folders_keeps_separate_snapshots(project):
    # Regression: snapshots/<lang>/<file stem> made cases/mine/a.yaml share (and, under
    # --snapshot-update, delete) the snapshots of cases/en/a.yaml.
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    write(project, "cases/mine/a.yaml", """
        language: en
        cases:
          - id: hello
            kind: normalize
            text: Hello
            expect: hello
    """)
    result = project.runpytest("--asrbench", "cases/mine", "--snapshot-update")
    result.assert_outcomes(passed=1)
    assert "deleted" not in result.stdout.str()
    assert len(list((project.path / "snapshots/en/a").glob("*.json"))) == 3
    assert (project.path / "snapshots/mine/a/hello.json").exists()
    project.runpytest("--asrbench", "cases").assert_outcomes(passed=4)


def test_two_files_claiming_one_snapshot_folder_fail_clearly(project):
    write(project, "cases/en/a.yaml", GOOD)
    write(project, "cases/en/a.yml", GOOD)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*its snapshot folder*snapshots/en/a is already used by*a.yaml; rename one*"])


def test_snapshots_of_a_deleted_case_file_are_reported_then_deleted(project):
    write(project, "cases/en/a.yaml", GOOD)
    gone = write(project, "cases/en/gone.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=6)
    gone.unlink()
    report = project.runpytest("--asrbench", "cases")
    report.assert_outcomes(passed=3)
    report.stdout.fnmatch_lines(["*unused: 1 snapshot folder(s) whose case file is gone*", "*snapshots/en/gone*"])
    update = project.runpytest("--asrbench", "cases", "--snapshot-update")
    update.stdout.fnmatch_lines(["*deleted 1 snapshot folder(s) whose case file is gone*"])
    assert not (project.path / "snapshots/en/gone").exists()
    assert len(list((project.path / "snapshots/en/a").glob("*.json"))) == 3


def test_yaml_in_a_folder_given_on_the_command_line_is_collected(project):
    write(project, "mycases/a.yaml", GOOD)
    write(project, ".pre-commit-hooks.yaml", "- id: not-a-case-file\n")
    project.runpytest("--asrbench", "mycases", "--snapshot-update").assert_outcomes(passed=3)
    assert len(list((project.path / "snapshots/mycases/a").glob("*.json"))) == 3
    # From the rootdir too: its case files are collected; a YAML file without `cases:` is named, not taken
    result = project.runpytest("--asrbench", ".")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["asrbench: 1 YAML file(s) without a top-level `cases:` key not collected as case "
                                 "files: .pre-commit-hooks.yaml"])


def test_dot_inside_a_case_folder_not_named_cases_runs_its_cases(project, monkeypatch):
    write(project, "mycases/en/a.yaml", GOOD)
    monkeypatch.chdir(project.path / "mycases")
    project.runpytest("--asrbench", ".", "--snapshot-update").assert_outcomes(passed=3)
    project.runpytest("--asrbench", ".").assert_outcomes(passed=3)


def test_a_run_that_finds_no_case_file_says_where_it_searched_and_which_option_names_folders(project):
    write(project, "notes/a.yaml", "title: not a case file\n")
    result = project.runpytest("--asrbench", "notes")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines([
        "*without a top-level `cases:` key not collected as case files: notes/a.yaml",
        "asrbench: no case file found (searched: notes); a case file is a .yaml/.yml file with a top-level "
        "`cases:` list*asrbench_case_dirs ini option (now: cases)*"])


def test_plain_pytest_on_case_files_hints_at_the_flag(project):
    write(project, "cases/en/a.yaml", GOOD)
    result = project.runpytest("cases")
    result.stdout.fnmatch_lines(["*collected only with --asrbench*"])


def test_update_of_one_case_by_node_id_keeps_the_other_snapshots(project):
    # Regression: syrupy took the file's other cases for unused and deleted their snapshots.
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=3)
    result = project.runpytest("--asrbench", "cases/en/a.yaml::pair", "--snapshot-update")
    result.assert_outcomes(passed=1)
    assert "Deleted" not in result.stdout.str() and "deleted" not in result.stdout.str().replace("nothing deleted", "")
    result.stdout.fnmatch_lines(["*unused-snapshot check skipped, nothing deleted: 2 of 3 case(s)*did not run*"])
    assert "not recommended" not in result.stdout.str()
    assert len(list((project.path / "snapshots/en/a").glob("*.json"))) == 3
    plain = project.runpytest("--asrbench", "cases/en/a.yaml::pair")
    plain.assert_outcomes(passed=1)
    assert "unused:" not in plain.stdout.str() and "not recommended" not in plain.stdout.str()


def _signature_file(language: str = "en") -> str:
    from pytest_asrbench.signatures.compute import compute
    from pytest_asrbench.signatures.version_gate import case_yaml

    return f"language: {language}\ncases:\n" + case_yaml(compute("stt_wer", language))


def test_update_is_refused_while_a_case_file_is_broken(project):
    # Review finding: a broken signature file made its pairs "unrecorded", and then
    # --snapshot-update re-recorded them without a version bump.
    write(project, "cases/en/signature.yaml", _signature_file())
    write(project, "cases/en/a.yaml", GOOD)
    project.runpytest("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=4)
    path = project.path / "cases/en/signature.yaml"
    path.write_text(path.read_text() + "  - id: broken\n    kind: nope\n", encoding="utf-8")
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(["*not re-recorded: the recorded signatures cannot be read:*",
                                 "*signature.yaml:*fix this case file first*"])


def test_two_signature_cases_for_one_pair_refuse_updates(project):
    write(project, "cases/en/signature.yaml", _signature_file())
    write(project, "cases/en/more/signature.yaml", _signature_file())
    write(project, "cases/en/a.yaml", GOOD)
    result = project.runpytest("--asrbench", "cases", "--snapshot-update")
    result.stdout.fnmatch_lines(["*a second signature case for stt_wer in en*keep one*"])
    assert not (project.path / "snapshots/en/a").exists()


def test_the_cases_of_a_file_share_one_fixture_resolution(project):
    # The case items reuse the first item's resolved fixtures (pytest's private
    # `_fixtureinfo`, as its own parametrization shares one); if pytest renames it, each
    # item resolves its own: still correct but slower per item, so this fails to say so.
    write(project, "cases/en/a.yaml", GOOD)
    write(project, "cases/en/b.yaml", GOOD)
    items, _ = project.inline_genitems("--asrbench", "cases")
    by_file: dict = {}
    for item in items:
        assert hasattr(item, "_fixtureinfo"), "pytest no longer names it _fixtureinfo: update cases/items.py"
        by_file.setdefault(item.path.name, set()).add(id(item._fixtureinfo))
    assert {name: len(found) for name, found in by_file.items()} == {"a.yaml": 1, "b.yaml": 1}
    assert all("request" in item.fixturenames for item in items)


def test_a_case_item_sets_up_no_snapshot_fixture_and_syrupy_still_counts_it(project):
    # The snapshot session makes each case's syrupy assertion itself (no `snapshot` fixture
    # set up per item): syrupy's report counts the cases as before.
    write(project, "cases/en/a.yaml", GOOD)
    items, _ = project.inline_genitems("--asrbench", "cases")
    assert items and all("snapshot" not in item.fixturenames for item in items)
    recorded = project.runpytest("--asrbench", "cases", "--snapshot-update")
    recorded.stdout.fnmatch_lines(["*3 snapshots generated*"])
    again = project.runpytest("--asrbench", "cases")
    assert again.ret == pytest.ExitCode.OK
    again.stdout.fnmatch_lines(["*3 snapshots passed*"])


def test_python_snapshot_tests_beside_case_items_keep_syrupys_own_handling(project):
    write(project, "cases/en/a.yaml", GOOD)
    tests = write(project, "tests/test_snap.py", """
        def test_one(snapshot):
            assert snapshot == {"a": 1}


        def test_two(snapshot):
            assert snapshot == 2
        """)
    recorded = project.runpytest("--asrbench", "cases", "tests", "--snapshot-update")
    assert recorded.ret == pytest.ExitCode.OK
    recorded.stdout.fnmatch_lines(["*5 snapshots generated*"])
    assert (project.path / "tests/__snapshots__/test_snap.ambr").is_file()
    tests.write_text(tests.read_text(encoding="utf-8").split("def test_two")[0], encoding="utf-8")
    result = project.runpytest("--asrbench", "cases", "tests")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # syrupy's unused Python snapshot fails the run
    result.stdout.fnmatch_lines(["*4 snapshots passed. 1 snapshot unused.*"])


def test_a_case_run_without_syrupys_plugin_is_refused_with_the_option_to_remove(project):
    write(project, "cases/en/a.yaml", GOOD)
    result = project.runpytest("--asrbench", "cases", "-p", "no:syrupy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--asrbench compares case outputs*through syrupy's plugin*remove `-p no:syrupy`*"])


def test_case_items_carry_syrupys_snapshot_marker_so_m_selects_them(project):
    # syrupy marks every item that takes its `snapshot` fixture `syrupy_snapshot`; a case item
    # makes a syrupy assertion without the fixture and is marked the same.
    write(project, "cases/en/a.yaml", GOOD)
    project.makepyfile(test_plain="def test_ok():\n    assert True\n")
    selected = project.runpytest("--asrbench", "cases", "test_plain.py", "-m", "syrupy_snapshot", "--snapshot-update")
    selected.assert_outcomes(passed=3, deselected=1)
    others = project.runpytest("--asrbench", "cases", "test_plain.py", "-m", "not syrupy_snapshot")
    others.assert_outcomes(passed=1, deselected=3)


def test_a_run_names_every_path_it_prints_from_the_folder_it_was_started_in(project, monkeypatch):
    # never an absolute path inside the project: the snapshot report names the project's files
    # from the root (as node ids), the run record's refusal names the path given on the command
    # line from the folder pytest was started in (as the reports' "wrote" lines do)
    write(project, "cases/en/a.yaml", GOOD)
    (project.path / "sub").mkdir()
    monkeypatch.chdir(project.path / "sub")
    result = project.runpytest("--asrbench", "../cases", "--snapshot-update")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["  created snapshots/en/a/spaces.json"])
    refused = project.runpytest("--asrbench", "../cases", "--asrbench-run-record", "nowhere/run.json")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["*--asrbench-run-record nowhere/run.json: *nowhere*"])
    root = str(project.path)
    assert not [line for line in result.stdout.lines + refused.stderr.lines
                if root in line and not line.startswith("rootdir:")]
