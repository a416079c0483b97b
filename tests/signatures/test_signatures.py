"""Metric signatures: AST hashing, the import graph, canonical data, verdicts, in-place re-recording."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from pytest_asrbench._shared.config_layers import language_tags
from pytest_asrbench.signatures.compute import (
    COMMON_LIBRARIES,
    canonical_config,
    canonical_tsv,
    compute,
    known_languages,
    libraries,
    metric_versions,
)
from pytest_asrbench.signatures.providers import providers
from pytest_asrbench.cases.signature_files import rewrite_case
from pytest_asrbench.signatures.version_gate import Recorded, describe_changes, judge
from pytest_asrbench.signatures.graph import module_hash, registered_steps, walk
from pytest_asrbench.signatures.sources import DirSource, installed_source

REPO = installed_source().root


def h(code: str) -> str:
    return module_hash(textwrap.dedent(code).encode(), "m.py")


# ---- module hashes -----------------------------------------------------------------------------

def test_comments_docstrings_and_formatting_do_not_count():
    base = h('''
        """Module doc."""
        def f(x):
            """Doc."""
            return x + 1
    ''')
    assert h('''
        # a comment
        def f( x ):   # another
            return (x
                    + 1)
    ''') == base
    assert h('''
        """A different module doc."""
        def f(x):
            """Different doc."""
            return x + 1
    ''') == base


def test_code_changes_count():
    base = h("def f(x):\n    return x + 1\n")
    assert h("def f(x):\n    return x + 2\n") != base
    assert h("def f(x):\n    return x + 1\n_asrbench_probe = 1\n") != base
    assert h('def f(x):\n    return x + 1\nTABLE = {"a": "b"}\n') != h('def f(x):\n    return x + 1\nTABLE = {"a": "c"}\n')


def test_version_literals_are_not_code():
    """Bumping one metric must not change the other metrics' signatures."""
    assert h('M = [Metric("a", "1.0.0", "word", "d"), Metric("b", "2.0", "char", "d")]') == \
        h('M = [Metric("a", "1.1.0", "word", "d"), Metric("b", "2.0", "char", "d")]')
    assert h('m = Metric(name="a", version="1", unit="word", description="d")') == \
        h('m = Metric(name="a", version="2", unit="word", description="d")')
    assert h('__version__ = "0.1.0"\nX = 1') == h('__version__ = "0.2.0"\nX = 1')
    assert h('M = Metric("a", "1.0.0", "word", "d")') != h('M = Metric("a", "1.0.0", "char", "d")')


# ---- import graph --------------------------------------------------------------------------------

def make_package(root: Path, files: dict[str, str]) -> DirSource:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return DirSource(root)


def test_graph_follows_every_import_form(tmp_path):
    source = make_package(tmp_path, {
        "pytest_asrbench/__init__.py": "",
        "pytest_asrbench/a/__init__.py": "",
        "pytest_asrbench/a/root.py": """
            from . import sibling
            from .sub import deep
            from pytest_asrbench.b import thing
            import jiwer
            import os
            def later():
                from ..c import late
                import importlib
                importlib.import_module("pytest_asrbench.d")
        """,
        "pytest_asrbench/a/sibling.py": "",
        "pytest_asrbench/a/sub/__init__.py": "",
        "pytest_asrbench/a/sub/deep.py": "from pytest_asrbench.e import x  # noqa\n",
        "pytest_asrbench/b.py": "thing = 1\n",
        "pytest_asrbench/c/__init__.py": "",
        "pytest_asrbench/c/late.py": "import pythainlp\n",
        "pytest_asrbench/d.py": "",
        "pytest_asrbench/e/x.py": "",  # a namespace folder: no __init__
        "pytest_asrbench/unreached.py": "",
    })
    graph = walk(source, ["pytest_asrbench.a.root"])
    assert sorted(graph.modules) == [
        "pytest_asrbench", "pytest_asrbench.a", "pytest_asrbench.a.root", "pytest_asrbench.a.sibling",
        "pytest_asrbench.a.sub", "pytest_asrbench.a.sub.deep", "pytest_asrbench.b", "pytest_asrbench.c",
        "pytest_asrbench.c.late", "pytest_asrbench.d", "pytest_asrbench.e.x",
    ]
    assert graph.external == {"jiwer", "pythainlp"}


def test_real_graph_reaches_normalizer_steps_and_scoring():
    components = compute("stt_wer", "en").components
    for module in ("scoring/score.py", "scoring/alignment.py", "scoring/metrics.py", "normalize/registry.py",
                   "normalize/steps/__init__.py", "normalize/steps/basic.py", "normalize/config.py", "__init__.py"):
        assert f"module pytest_asrbench/{module}" in components
    assert not any("signatures" in name or "/cases/" in name or "/asr/" in name for name in components)
    assert "config en.toml" in components



def _every_metric_and_language():
    source = installed_source()
    languages = known_languages(source)
    pairs = [(metric, language) for metric in metric_versions(source) for language in languages]
    return pairs + [(name, language) for name, provider in providers().items() for language in provider.languages]


@pytest.mark.parametrize(("metric", "language"), _every_metric_and_language())
def test_no_metric_hashes_the_signature_code_itself(metric, language):
    """The signature code computes signatures; it never moves a figure, so a change to it must not
    ask for a metric bump. Parent package ``__init__`` modules are in every graph, so this also
    pins that ``signatures/__init__.py`` imports none of its submodules."""
    modules = [name for name in compute(metric, language, with_libraries=False).components
               if name.startswith("module pytest_asrbench/signatures/")]
    assert modules == [], f"{metric} in {language} hashes the signature code: {modules}"


def test_the_signatures_package_init_imports_nothing():
    init = Path(REPO) / "pytest_asrbench" / "signatures" / "__init__.py"
    imports = [node for node in ast.walk(ast.parse(init.read_text(encoding="utf-8")))
               if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports == []

# ---- canonical forms and libraries -------------------------------------------------------------

def test_tsv_lexicon_order_comments_and_blank_lines_do_not_count():
    assert canonical_tsv(b"b\t2\na\t1\n") == canonical_tsv(b"# comment\na\t1\n\nb\t2\r\n")
    assert canonical_tsv(b"a\t1\n") != canonical_tsv(b"a\t1\nc\t3\n")


def test_config_without_version_and_key_order():
    one = canonical_config(b'language = "en"\nversion = "1.0.0"\nfillers = ["uh"]\n', "en.toml")[1]
    two = canonical_config(b'fillers = ["uh"]  # c\nversion = "9.9.9"\nlanguage = "en"\n', "en.toml")[1]
    assert one == two
    assert one != canonical_config(b'language = "en"\nversion = "1.0.0"\nfillers = ["uh", "umm"]\n', "en.toml")[1]


def test_libraries_common_and_per_language():
    found = libraries(["text2num"], {"jiwer", "pydantic", "pythainlp"}, undeclared={"pythainlp"})
    for name in (*COMMON_LIBRARIES, "text2num"):
        assert f"library {name}" in found
    assert "library pydantic" not in found  # validation only, not an output
    assert "library pythainlp" not in found  # Thai's library does not feed English scores
    assert "library unicodedata" in found


@pytest.mark.parametrize(("language", "expected"), [
    ("de", ("text2num", "wordfreq")), ("fr", ("text2num", "wordfreq")),  # wordfreq: the code-switch detection
    ("en", ("text2num",)),
    ("hi", ("text2num",)),  # through the English config its code-switch view reads
    ("th", ("pythainlp",)), ("zh", ("opencc",)), ("ja", ()), ("ko", ()),
])
def test_a_language_s_libraries_are_those_its_listed_steps_declare(language, expected):
    from pytest_asrbench.signatures.compute import language_libraries

    assert language_libraries(installed_source(), language) == expected
    signature = compute("stt_wer", language)
    assert {name for name in signature.components if name.startswith("library ")} == {
        f"library {dist}" for dist in (*COMMON_LIBRARIES, *expected, "unicodedata")}


def test_the_step_declarations_are_the_one_source_of_a_language_s_libraries():
    """No module of the normalizer keeps a list of libraries of its own (a package-level
    LIBRARIES, a per-language table), and every third-party library a step module or language
    package imports is declared by one of its steps, is common to every score, or feeds none."""
    import ast
    import sys

    from pytest_asrbench.signatures.compute import NON_SCORING_LIBRARIES, step_libraries

    declared = step_libraries(installed_source())
    distributions = importlib.metadata.packages_distributions()
    normalize = REPO / "pytest_asrbench" / "normalize"
    for path in sorted((normalize / "steps").glob("*.py")) + sorted((normalize / "languages").rglob("*.py")):
        tree = ast.parse(path.read_bytes())
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            assert not any(getattr(t, "id", "") == "LIBRARIES" for t in targets), path
        unit = path.parent if path.parent.parent.name == "languages" else path
        own = {dist for file in ([unit] if unit.is_file() else unit.rglob("*.py"))
               for name in registered_steps(ast.parse(file.read_bytes())) for dist in declared[name]}
        for node in ast.walk(tree):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in ("pytest_asrbench", "__future__"):
                    continue
                dists = {dist.lower() for dist in distributions.get(top, [top])}
                allowed = {dist.lower() for dist in (*COMMON_LIBRARIES, *NON_SCORING_LIBRARIES, *own)}
                assert dists & allowed, f"{path} imports {top} ({', '.join(sorted(dists))}), which none of its steps declare"


# ---- verdicts -------------------------------------------------------------------------------------

def recorded_from(sig, **changes) -> Recorded:
    values = dict(metric=sig.metric, language=sig.language, version=sig.version, config_version=sig.config_version,
                  signature=sig.signature, components=dict(sig.components), where="cases/en/signature.yaml:6",
                  cases="cases/en")
    values.update(changes)
    return Recorded(**values)


def test_verdicts_and_messages():
    sig = compute("stt_wer", "en")
    assert judge(recorded_from(sig), sig).state == "unchanged"

    components = dict(sig.components, **{"config en.toml": "0" * 16, "library jiwer": "3.9.0"})
    verdict = judge(recorded_from(sig, signature="0" * 16, components=components), sig)
    assert verdict.state == "changed"
    assert verdict.message.startswith("metric changed without a version bump (stt_wer, en): bump the version of")
    assert "re-record with `pytest --asrbench cases/en --snapshot-update`" in verdict.message
    assert "changed: config en.toml" in verdict.message
    assert f"changed: library jiwer 3.9.0→{sig.components['library jiwer']}" in verdict.message

    only_config = dict(sig.components, **{"config en.toml": "0" * 16})
    message = judge(recorded_from(sig, signature="0" * 16, components=only_config), sig).message
    assert f'bump the version of configs/en.toml (version = "{sig.config_version}")' in message

    bumped = judge(recorded_from(sig, config_version="0.9.0", signature="0" * 16), sig)
    assert bumped.state == "bumped"
    assert "config en.toml 0.9.0→" in bumped.message and "pytest --asrbench cases/en --snapshot-update" in bumped.message


def test_describe_changes_names_each_component():
    assert describe_changes({"module a.py": "1", "library jiwer": "4.0.0", "config en.toml": "x"},
                            {"module a.py": "2", "library jiwer": "4.1.0", "lexicon en/s.tsv": "y"}) == [
        "config en.toml (removed)", "lexicon en/s.tsv (new)", "library jiwer 4.0.0→4.1.0", "module a.py"]


# ---- re-recording in place ------------------------------------------------------------------------

def test_rewrite_edits_only_the_signature_lines(tmp_path):
    sig = compute("stt_wer", "en")
    path = tmp_path / "signature.yaml"
    path.write_text(textwrap.dedent("""\
        # keep this comment
        language: en
        cases:
          - id: other
            kind: normalize
            text: "A"   # and this one
            expect: a
          - id: stt_wer-signature
            kind: signature
            note: kept
            metric: stt_wer
            version: 0.9.0   # trailing comment kept
            config_version: '0.9.0'
            signature: "00000000"
            components:
              "module gone.py": "1234"
              "config en.toml": "5678"
            source: reviewer
        """), encoding="utf-8")
    rewrite_case(path, "stt_wer-signature", sig)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# keep this comment\nlanguage: en\n")
    assert 'text: "A"   # and this one' in text
    assert f'    version: "{sig.version}"   # trailing comment kept\n' in text
    assert f'    signature: "{sig.signature}"\n' in text
    assert "module gone.py" not in text
    assert text.endswith("    source: reviewer\n")
    from pytest_asrbench.cases.loader import load_case_file

    loaded = load_case_file(path)
    assert not loaded.errors
    case = loaded.cases[1]
    assert judge(Recorded.from_case(case), sig).state == "unchanged"


# ---- proof: every file that feeds a signature is noticed -------------------------------------------

def copy_project(destination: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "pytest_asrbench", destination / "pytest_asrbench", ignore=ignore)
    shutil.copytree(REPO / "configs", destination / "configs", ignore=ignore)
    return destination


PAIRS = [(metric, language) for language in language_tags((REPO / "configs").glob("*.toml"))
         for metric in sorted(metric_versions(installed_source()))]


def feeding_files() -> dict[str, list[tuple[str, str, str]]]:
    """File (relative to the project) -> [(metric, language, component)] of the signatures it feeds."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for metric, language in PAIRS:
        for component, path in compute(metric, language).files().items():
            found.setdefault(path, []).append((metric, language, component))
    return found


FEEDING = feeding_files()


def mutate(path: Path) -> None:
    """A behaviour-relevant edit by file type."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        path.write_text(text + "\n_asrbench_probe = 1\n", encoding="utf-8")
    elif path.suffix == ".toml":
        path.write_text("asrbench_probe = 1\n" + text, encoding="utf-8")
    elif path.suffix == ".tsv":
        path.write_text(text.rstrip("\n") + "\nasrbenchprobe\tprobe\n", encoding="utf-8")
    elif path.suffix == ".json":
        data = json.loads(text)
        path.write_text(json.dumps({"asrbench_probe": data}), encoding="utf-8")
    else:
        path.write_text(text + "\nasrbench_probe\n", encoding="utf-8")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("pristine"))


@pytest.fixture(scope="module")
def shared_copy(tmp_path_factory) -> Path:
    """One copy for the per-file proofs; each test restores the file it edits."""
    return copy_project(tmp_path_factory.mktemp("proof"))


# The two sweeps below recompute signatures of a project copy once per file that feeds one
# (hundreds of files): slow, so out of the everyday loop and in the full run.
@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(FEEDING))
def test_every_feeding_file_changes_the_signature(path, shared_copy):
    source = DirSource(shared_copy)
    pairs = FEEDING[path]
    before = {(metric, language): compute(metric, language, source) for metric, language, _ in pairs}
    target = shared_copy / path
    original = target.read_bytes()
    try:
        mutate(target)
        for metric, language, component in pairs:
            after = compute(metric, language, source)
            old = before[(metric, language)]
            assert after.signature != old.signature, (metric, language)
            assert describe_changes(old.components, after.components) == [component]
    finally:
        target.write_bytes(original)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(p for p in FEEDING if p.endswith(".py")))
def test_comment_or_docstring_edit_changes_nothing(path, shared_copy):
    source = DirSource(shared_copy)
    metric, language, _ = FEEDING[path][0]
    before = compute(metric, language, source).signature
    target = shared_copy / path
    original = target.read_bytes()
    text = original.decode("utf-8")
    edited = '"""An added docstring."""\n# an added comment\n' + text.replace("\n\n", "\n\n\n", 1) + "\n# trailing\n"
    if text.lstrip().startswith(('"""', "'''")):  # replace the existing docstring, do not add a statement
        quote = text.lstrip()[:3]
        start = text.index(quote)
        end = text.index(quote, start + 3) + 3
        edited = text[:start] + '"""An edited docstring."""' + text[end:] + "\n# trailing\n"
    try:
        target.write_text(edited, encoding="utf-8")
        assert compute(metric, language, source).signature == before
    finally:
        target.write_bytes(original)


def test_lexicon_and_config_data_files_are_noticed(pristine, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(pristine, copy)
    (copy / "configs" / "en").mkdir(exist_ok=True)
    lexicon = copy / "configs" / "en" / "asrbench_probe.tsv"
    lexicon.write_text("colour\tcolor\n", encoding="utf-8")
    config = copy / "configs" / "en.toml"
    text = config.read_text(encoding="utf-8")
    entry = 'asrbench_probe = "en/asrbench_probe.tsv"\n'
    text = text.replace("[lexicons]\n", "[lexicons]\n" + entry) if "[lexicons]\n" in text else text + "\n[lexicons]\n" + entry
    config.write_text(text, encoding="utf-8")
    source = DirSource(copy)
    before = compute("stt_wer", "en", source)
    assert "lexicon en/asrbench_probe.tsv" in before.components
    lexicon.write_text("# reordered, with a comment\n\ncolour\tcolor\n", encoding="utf-8")
    assert compute("stt_wer", "en", source).signature == before.signature
    lexicon.write_text("colour\tcolor\ngrey\tgray\n", encoding="utf-8")
    after = compute("stt_wer", "en", source)
    assert describe_changes(before.components, after.components) == ["lexicon en/asrbench_probe.tsv"]


def test_data_file_next_to_a_module_is_noticed(pristine, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(pristine, copy)
    data = copy / "pytest_asrbench" / "normalize" / "steps" / "asrbench_probe.tsv"
    data.write_text("a\tb\n", encoding="utf-8")
    before = compute("stt_wer", "en", DirSource(copy))
    assert "data pytest_asrbench/normalize/steps/asrbench_probe.tsv" in before.components
    data.write_text("a\tc\n", encoding="utf-8")
    assert compute("stt_wer", "en", DirSource(copy)).signature != before.signature


def test_metric_version_bump_leaves_other_metrics_alone(pristine, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(pristine, copy)
    metrics = copy / "pytest_asrbench" / "scoring" / "metrics.py"
    before = {metric: compute(metric, "en", DirSource(copy)) for metric, _ in PAIRS}
    text = metrics.read_text(encoding="utf-8")
    metrics.write_text(re.sub(r'("stt_wer",\s*")([^"]+)"', r'\g<1>\g<2>.1"', text, count=1), encoding="utf-8")
    assert metric_versions(DirSource(copy))["stt_wer"] != before["stt_wer"].version
    for metric, sig in before.items():
        assert compute(metric, "en", DirSource(copy)).signature == sig.signature


def test_step_modules_a_language_does_not_use_are_left_out(pristine, tmp_path):
    """A new language's step module must not change every other language's signature."""
    copy = tmp_path / "copy"
    shutil.copytree(pristine, copy)
    source = DirSource(copy)
    before = compute("stt_wer", "en", source)
    steps = copy / "pytest_asrbench" / "normalize" / "steps"
    (steps / "asrbench_probe.py").write_text(
        "from pytest_asrbench.normalize.steps import step\n\n"
        "@step('asrbench_probe')\ndef probe(config, lexicons):\n    return str.upper\n", encoding="utf-8")
    registry = steps / "__init__.py"
    registry.write_text(registry.read_text(encoding="utf-8")
                        + "import pytest_asrbench.normalize.steps.asrbench_probe as asrbench_probe  # noqa: E402,F401\n",
                        encoding="utf-8")
    assert compute("stt_wer", "en", source).signature == before.signature
    config = copy / "configs" / "en.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('"lowercase",', '"lowercase",\n    "asrbench_probe",'),
                      encoding="utf-8")
    used = compute("stt_wer", "en", source)
    assert "module pytest_asrbench/normalize/steps/asrbench_probe.py" in used.components
    assert "module pytest_asrbench/normalize/steps/__init__.py" in describe_changes(before.components, used.components)


def test_a_new_language_package_leaves_the_thai_benchmark_signature_alone(pristine, tmp_path):
    """th_bench_cer runs only its cleaning profile's steps: a language package with none of
    them (a new language) must not move it; a step module the profile lists does."""
    from pytest_asrbench.bench.scoring.signature import compute_signature

    copy = tmp_path / "copy"
    shutil.copytree(pristine, copy)
    source = DirSource(copy)
    before = compute_signature(source)
    package = copy / "pytest_asrbench" / "normalize" / "languages" / "xx"
    package.mkdir()
    (package / "__init__.py").write_text(
        "LANGUAGE = 'xx'\nimport pytest_asrbench.normalize.languages.xx.words as words  # noqa\n", encoding="utf-8")
    (package / "words.py").write_text(
        "from pytest_asrbench.normalize.steps.registry import step\n\n"
        "@step('xx_probe', language='xx')\ndef probe(config, lexicons):\n    return str.upper\n", encoding="utf-8")
    registry = copy / "pytest_asrbench" / "normalize" / "languages" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    registry.write_text(text + "import pytest_asrbench.normalize.languages.xx as xx  # noqa: E402,F401\n", encoding="utf-8")
    assert compute_signature(source).signature == before.signature
    bench = copy / "pytest_asrbench" / "normalize" / "languages" / "th" / "bench.py"
    bench.write_text(bench.read_text(encoding="utf-8") + "\nEDITED = 1\n", encoding="utf-8")
    assert compute_signature(source).signature != before.signature


@pytest.mark.parametrize(
    ("before", "after", "level"),
    [("1.2.1", "1.2.1", None), ("1.2.1", "1.2.2", "patch"), ("1.2.1", "1.3.0", "minor"), ("1.2.1", "2.0.0", "major"),
     ("1.2.1", "1.2.1.1", "other"), ("1", "2", "other"), ("1.2.9", "1.2.10", "patch")],
)
def test_bump_level(before, after, level):
    from pytest_asrbench.signatures.version_gate import bump_level

    assert bump_level(before, after) == level


def test_patch_only_moves_needs_every_move_a_patch():
    from pytest_asrbench.signatures.compute import Signature
    from pytest_asrbench.signatures.version_gate import Recorded, patch_only_moves

    recorded = Recorded("stt_wer", "en", "1.2.1", "1.6.0", "x")
    assert patch_only_moves(recorded, Signature("stt_wer", "en", "1.2.1", "1.6.1")) == ["config en.toml 1.6.0→1.6.1"]
    assert patch_only_moves(recorded, Signature("stt_wer", "en", "1.2.2", "1.7.0")) == []
    assert patch_only_moves(recorded, Signature("stt_wer", "en", "1.2.1", "1.6.0")) == []
