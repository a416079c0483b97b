"""The shared helpers: one of each, used by every stage (pytest_asrbench/_shared/)."""

from __future__ import annotations

import ast
import hashlib
import sys
from pathlib import Path

import pytest

from pytest_asrbench._shared.atomic import atomic_file
from pytest_asrbench._shared.canonical import canonical_json
from pytest_asrbench._shared.hashing import file_sha256
from pytest_asrbench._shared.languages import base_tag, resolve_tag
from pytest_asrbench._shared.paths import from_root
from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench._shared.tsv import tsv_rows
from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.errors import ConfigError, UnknownLanguageError

SHARED = Path(__file__).resolve().parents[1] / "pytest_asrbench" / "_shared"


# --- language tags --------------------------------------------------------------------------

@pytest.mark.parametrize(("tag", "expected"), [
    ("en", "en"), ("EN", "en"), ("fr-CA", "fr"), ("hi_IN", "hi"), (" de ", "de"), ("zh-Hant-TW", "zh"),
])
def test_a_regional_tag_falls_back_to_its_base_language(tag, expected):
    assert resolve_tag(tag, ["de", "en", "fr", "hi", "zh"]) == expected


def test_a_tag_with_its_own_config_is_kept():
    assert resolve_tag("pt-BR", ["pt", "pt-BR"]) == "pt-BR"


def test_an_unknown_tag_names_the_known_ones():
    with pytest.raises(UnknownLanguageError, match=r"no normalizer config for language 'xx-YY' in git:main; "
                                                    r"known languages: de, en$"):
        resolve_tag("xx-YY", ["en", "de"], " in git:main")


@pytest.mark.parametrize("bad", ["", "   ", None, 3])
def test_an_empty_or_non_string_tag_is_refused_in_one_way(bad):
    with pytest.raises(UnknownLanguageError, match="language must be a non-empty tag such as 'en'"):
        resolve_tag(bad, ["en"])
    with pytest.raises(UnknownLanguageError, match="language must be a non-empty tag such as 'en'"):
        base_tag(bad)


def test_normalizers_signatures_and_engines_resolve_tags_alike():
    from pytest_asrbench.asr.engine import base_language
    from pytest_asrbench.normalize.registry import resolve_language
    from pytest_asrbench.signatures.compute import resolve
    from pytest_asrbench.signatures.sources import installed_source

    source = installed_source()
    for tag in ("fr-CA", "hi_IN", "EN", "de-AT"):
        assert resolve_language(tag) == resolve(source, tag) == base_language(tag)
    errors = []
    for call in (resolve_language, lambda tag: resolve(source, tag), base_language):
        with pytest.raises(UnknownLanguageError) as caught:
            call("")
        errors.append(str(caught.value))
    assert len(set(errors)) == 1
    with pytest.raises(UnknownLanguageError, match="no normalizer config for language 'xx'"):
        resolve(source, "xx")


# --- files ------------------------------------------------------------------------------------

def test_tsv_rows_skip_blank_and_comment_lines_and_keep_line_numbers():
    text = "# header\na\t1\r\n\n  # indented comment\nb\t2\t3\n"
    assert list(tsv_rows(text)) == [(2, ["a", "1"]), (5, ["b", "2", "3"])]


def test_load_toml_reads_bytes_and_text_and_names_the_file_on_error():
    assert load_toml(b'a = 1\n[b]\nc = "\xc3\xa9"\n', "x.toml") == {"a": 1, "b": {"c": "é"}}
    assert load_toml("a = 2", "x.toml") == {"a": 2}
    with pytest.raises(ConfigError, match=r"^configs/xx\.toml: not valid TOML: "):
        load_toml(b"a = = 1", "configs/xx.toml")
    with pytest.raises(ConfigError, match=r"^bad\.toml: not valid TOML: "):
        load_toml(b"a = '\xff'", "bad.toml")


def test_canonical_json_is_key_order_free_compact_and_keeps_unicode():
    assert canonical_json({"b": [1, 2], "a": "ä"}) == canonical_json({"a": "ä", "b": [1, 2]})
    assert canonical_json({"b": [1, 2], "a": "ä"}) == '{"a":"ä","b":[1,2]}'.encode("utf-8")


def test_file_sha256_matches_hashlib_across_chunks(tmp_path):
    path = tmp_path / "blob"
    data = bytes(range(256)) * 1000
    path.write_bytes(data)
    assert file_sha256(path, chunk_size=1000) == hashlib.sha256(data).hexdigest()
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert file_sha256(empty) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_installed_version_of_a_present_and_a_missing_distribution():
    import pytest as pytest_module

    assert installed_version("pytest") == pytest_module.__version__
    assert installed_version("no-such-distribution-asrbench") is None


def test_atomic_file_replaces_whole_or_leaves_the_target(tmp_path):
    target = tmp_path / "sub" / "out.bin"
    with atomic_file(target) as out:
        out.write(b"first")
    assert target.read_bytes() == b"first"
    with pytest.raises(RuntimeError, match="disk full"):
        with atomic_file(target) as out:
            out.write(b"half")
            raise RuntimeError("disk full")
    assert target.read_bytes() == b"first"
    assert sorted(path.name for path in target.parent.iterdir()) == ["out.bin"]



@pytest.mark.parametrize("writer", ["atomic_file", "write_atomic"])
def test_atomic_writers_refuse_a_folder_target_before_any_temporary_file(tmp_path, writer):
    from pytest_asrbench._shared import atomic

    folder = tmp_path / "parent" / "out"
    folder.mkdir(parents=True)
    with pytest.raises(IsADirectoryError) as raised:
        if writer == "atomic_file":
            with atomic.atomic_file(folder) as out:
                out.write(b"x")
        else:
            atomic.write_atomic(folder, b"x")
    assert raised.value.filename == str(folder)
    assert "is a folder" in str(raised.value)
    # no temporary file beside the folder (where mkstemp would have put it) nor inside it
    assert [path.name for path in (tmp_path / "parent").iterdir()] == ["out"]
    assert list(folder.iterdir()) == []

# --- the layer itself -------------------------------------------------------------------------

def test_the_shared_layer_uses_the_standard_library_only():
    allowed = set(sys.stdlib_module_names) | {"__future__", "tomli"}  # tomli: Python 3.10's tomllib
    for path in SHARED.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                ok = top in allowed or name == "pytest_asrbench.errors" or name.startswith("pytest_asrbench._shared")
                assert ok, f"{path.name} imports {name}"


# --- output paths (_shared/paths.py) ----------------------------------------------------------

def test_output_path_problem_for_a_file(tmp_path):
    from pytest_asrbench._shared.paths import output_path_problem

    assert output_path_problem(tmp_path / "a.json") is None
    assert output_path_problem(tmp_path, "file", "run.json") == f"{tmp_path} is a folder; give a file path such as {tmp_path / 'run.json'}"
    assert "does not exist; create it first (mkdir -p" in output_path_problem(tmp_path / "no" / "a.json")
    (tmp_path / "f").write_text("x")
    assert output_path_problem(tmp_path / "f" / "a.json") == f"{tmp_path / 'f'} is not a folder; give a path inside an existing folder"
    (tmp_path / "link").symlink_to(tmp_path / "f")
    assert "is not a regular file" in output_path_problem(tmp_path / "link")
    assert "is not a regular file" in output_path_problem("/dev/null")
    (tmp_path / "ro").write_text("x")
    (tmp_path / "ro").chmod(0o444)
    assert output_path_problem(tmp_path / "ro") == f"{tmp_path / 'ro'} exists and is not writable; make it writable or give another path"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "link", "ro"]  # the probes are gone


def test_output_path_problem_for_a_folder(tmp_path):
    from pytest_asrbench._shared.paths import output_path_problem

    assert output_path_problem(tmp_path, "folder") is None
    assert output_path_problem(tmp_path / "new", "folder") is None
    assert not (tmp_path / "new").exists()  # checking creates nothing
    assert "the folder" in output_path_problem(tmp_path / "no" / "new", "folder")
    (tmp_path / "f").write_text("x")
    assert output_path_problem(tmp_path / "f", "folder").startswith(f"{tmp_path / 'f'} is not a folder")
    with pytest.raises(ValueError, match="kind must be one of file, folder"):
        output_path_problem(tmp_path, "socket")


# --- JSON Lines input (_shared/jsonl.py) ---------------------------------------------------------

class _FileError(ValueError):
    """Stands in for a stage's own format error."""


def test_a_repeated_key_is_refused_at_any_depth_and_named():
    from pytest_asrbench._shared.jsonl import RepeatedKeyError, loads_unique

    assert loads_unique('{"a": 1, "b": {"a": 2}}') == {"a": 1, "b": {"a": 2}}
    for text in ('{"id": "x", "id": "y"}', '{"rows": [{"text": "a", "text": "b"}]}'):
        with pytest.raises(RepeatedKeyError) as caught:
            loads_unique(text)
        assert caught.value.key in ("id", "text")
        assert isinstance(caught.value, ValueError)


def test_jsonl_lines_keep_blank_lines_and_drop_only_the_final_newline():
    from pytest_asrbench._shared.jsonl import jsonl_lines

    assert jsonl_lines(b'{"a": 1}\n\n{"b": 2}\n', "f.jsonl", _FileError) == ['{"a": 1}', "", '{"b": 2}']
    assert jsonl_lines(b'{"a": 1}', "f.jsonl", _FileError) == ['{"a": 1}']
    assert jsonl_lines(b"", "f.jsonl", _FileError) == []


def test_jsonl_lines_refuse_a_byte_order_mark_and_other_bytes_than_utf8_with_the_callers_error():
    from pytest_asrbench._shared.jsonl import jsonl_lines

    with pytest.raises(_FileError, match=r"^f\.jsonl:1: the file starts with a UTF-8 byte order mark: save it without one$"):
        jsonl_lines(b'\xef\xbb\xbf{"a": 1}\n', "f.jsonl", _FileError)
    with pytest.raises(_FileError, match=r"^f\.jsonl: not UTF-8 \(.*\); save it as UTF-8$"):
        jsonl_lines(b'{"a": "\xff"}\n', "f.jsonl", _FileError)



def test_json_line_says_a_repeated_key_and_a_line_that_is_not_json_with_the_callers_error():
    from pytest_asrbench._shared.jsonl import json_line

    assert json_line('{"id": "a"}', "f.jsonl:1", _FileError, "one JSON object") == {"id": "a"}
    with pytest.raises(_FileError, match=r"^f\.jsonl:2: the key 'id' appears twice in this line; keep one$"):
        json_line('{"id": "a", "id": "b"}', "f.jsonl:2", _FileError, "one JSON object")
    with pytest.raises(_FileError) as caught:
        json_line("x" * 70, "f.jsonl:3", _FileError, "one JSON object")
    message = str(caught.value)
    assert message.startswith("f.jsonl:3: not JSON (")
    assert message.endswith(f", in {'x' * 57 + '...'!r}); each line must be one JSON object")


def test_every_jsonl_reader_says_a_bad_line_the_same_way(tmp_path):
    """Benchmark references and hypotheses, bench manifests and ``asrbench score`` transcripts
    read a JSONL line through one helper: the same fault reads the same."""
    from pytest_asrbench.bench.errors import JsonlFormatError, ManifestFormatError
    from pytest_asrbench.bench.manifest.rows import read_rows
    from pytest_asrbench.bench.scoring.jsonl import read_records
    from pytest_asrbench.filescore.formats import TranscriptFormatError, read_utterances

    for bad, expected in (('{"id": "a", "id": "b"}', "the key 'id' appears twice in this line; keep one"),
                          ('{"id": ', "not JSON (")):
        path = tmp_path / "f.jsonl"
        path.write_text(bad + "\n", encoding="utf-8")
        messages = []
        for read, error in ((lambda: read_records(path, with_cluster=False), JsonlFormatError),
                            (lambda: read_rows(path), ManifestFormatError),
                            (lambda: read_utterances([bad], "jsonl", str(path)), TranscriptFormatError)):
            with pytest.raises(error) as caught:
                read()
            messages.append(str(caught.value).split("; each line must be")[0])
        assert messages[0].startswith(f"{path}:1: {expected}")
        assert len(set(messages)) == 1, messages

@pytest.mark.parametrize("name", ["numbers.yaml", "c.YML", "en.toml", "titles.tsv", "plugin.py"])
def test_an_output_never_replaces_a_case_config_or_source_file(tmp_path, name):
    from pytest_asrbench._shared.paths import output_path_problem

    existing = tmp_path / name
    existing.write_text("kept\n", encoding="utf-8")
    problem = output_path_problem(existing, "file", "report.html")
    assert problem and "an output never replaces one" in problem and "value left out" in problem
    assert output_path_problem(tmp_path / "new.yaml") is None  # a new file of that kind is not protected


def test_usable_cpus_follow_the_affinity_and_a_cgroup_quota(monkeypatch, tmp_path):
    import os

    from pytest_asrbench._shared.cpus import usable_cpus

    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5}, raising=False)
    monkeypatch.setattr(os, "process_cpu_count", lambda: 6, raising=False)
    quota = tmp_path / "cpu.max"
    assert usable_cpus(quota) == 6  # no quota file
    quota.write_text("max 100000\n", encoding="ascii")
    assert usable_cpus(quota) == 6
    quota.write_text("150000 100000\n", encoding="ascii")
    assert usable_cpus(quota) == 2  # 1.5 CPUs of quota: two threads
    quota.write_text("900000 100000\n", encoding="ascii")
    assert usable_cpus(quota) == 6


def test_a_message_names_paths_inside_the_root_relative_to_it_and_others_as_given(tmp_path):
    root = tmp_path / "proj"
    problem = f"{root}/cases/a.yaml: its snapshot folder {root}/snapshots/a is already used by {root}/cases/b.yaml"
    assert from_root(problem, root) == ("cases/a.yaml: its snapshot folder snapshots/a is already used by "
                                        "cases/b.yaml")
    assert from_root(f"{tmp_path}/proj2/c.yaml:1: bad", root) == f"{tmp_path}/proj2/c.yaml:1: bad"
    assert from_root("/etc/x.yaml:1: bad", "/") == "/etc/x.yaml:1: bad"


def test_a_written_path_is_shown_as_given_or_from_the_current_folder(tmp_path, monkeypatch):
    from pytest_asrbench._shared.paths import shown_path

    (tmp_path / "work" / "out").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "work")
    monkeypatch.chdir(tmp_path / "work")
    assert shown_path("out/../r.html") == "out/../r.html"  # relative: exactly as the user gave it
    assert shown_path(tmp_path / "work" / "out" / "r.html") == str(Path("out") / "r.html")
    assert shown_path(tmp_path / "link" / "r.html") == "r.html"  # through a link to the current folder
    assert shown_path(tmp_path / "r.html") == str(tmp_path / "r.html")  # outside it: absolute
    assert shown_path(tmp_path / "elsewhere" / "r.html", cwd=tmp_path) == str(Path("elsewhere") / "r.html")
