"""Process-wide caches: every one that holds per-run state is registered, and one call resets them all."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from pytest_asrbench._shared import caches

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "pytest_asrbench"

#: Caches that hold only what cannot change while the installed package runs, with why.
PROCESS_CONSTANT: dict[str, str] = {
    "cases.loader.case_schema": "the package's own schema.json",
    "normalize.steps.digit_scripts.script_zeros": "the running Python's Unicode database (Nd digits)",
    "normalize.steps.digit_scripts.digit_class": "the running Python's Unicode database, per set of digit values",
    "cases.loader._file_validator": "built from the package's schema.json",
    "cases.loader._case_validator": "built from the package's schema.json, per kind",
    "asr.fingerprint.read_cpuinfo": "the host's CPU, per path",
    "bench.run.schema.record_schema": "the package's own record schema",
    "bench.scoring.signature.components": "hashes of the installed package's files (installed_source)",
    "bench.scoring.signature._current": "the installed package's signature (installed_source)",
    "signatures.compute._distributions_of_imports": "the installed distributions",
    "signatures.graph._imports_of": "keyed by a module's bytes: a pure function of its argument",
    "signatures.graph.steps_in": "keyed by a module's bytes: a pure function of its argument",
    "signatures.graph.module_hash": "keyed by a module's bytes: a pure function of its argument",
    "scoring.views.codeswitch.scripts.word_script": "Unicode script of a word: a pure function",
    "normalize.steps.char_classes.bmp_members": "the installed regex package's property classes: a pure function of its arguments",
    "scoring.views.codeswitch.phonetic.devanagari_key": "a word's consonant key: a pure function",
    "scoring.views.codeswitch.phonetic.latin_keys": "a word's consonant keys: a pure function",
    "scoring.views.codeswitch.romanized.readings": "a Devanagari word's romanizations: a pure function",
    "scoring.views.codeswitch.romanized._transliterate": "the installed indic-transliteration's converter",
    "scoring.views.codeswitch.kana_hangul.latin_keys": "a Latin word's loanword keys: a pure function",
    "scoring.views.codeswitch.kana_hangul.katakana_key": "a katakana word's key: a pure function",
    "scoring.views.codeswitch.kana_hangul.hangul_key": "a Hangul word's key: a pure function",
    "normalize.languages.en.numbers._convert_words": "number words in digits: a pure function of the span",
    "normalize.languages.th.library.*": "the installed pythainlp's functions",
    "normalize.languages.zh.script.converter": "OpenCC's converter per built-in configuration name",
    "normalize.languages.zh.numbers._compile": "regexes compiled from the given word tuples: a pure function",
    "normalize.languages.th.numbers.numeral_value": "a Thai numeral's value: a pure function of the word",
    "normalize.languages.th.words._expand_word": "mai yamok expanded in one chunk: a pure function of the chunk",
    "cases.loader.common_fields": "the fields of the package's own schema.json",
    "cases.loader._fast_checks": "validators compiled from the package's own schema.json",
    "signatures.graph._step_libraries_cached": "keyed by a module's bytes: a pure function of its argument",
}
#: Caches made per object (``lru_cache(n)(self._method)``, or a function decorated inside a
#: builder): they live as long as their object, a step or view built from a language's
#: config and held by a registered cache (the normalizers, the code-switch rescuer).
PER_OBJECT: dict[str, str] = {
    "scoring.views.codeswitch.sides": "the rescuer's sides (held by rescuer_for)",
    "scoring.views.codeswitch.detect": "a lexicon detection's word verdicts (held by rescuer_for)",
    "scoring.views.codeswitch.kana_hangul": "a loanword matcher's pair verdicts (held by matcher_for)",
    "scoring.views.codeswitch.rescue": "a rescuer's whole-turn English views, word predicates and region "
                                       "verdicts (held by rescuer_for)",
    "normalize.languages.ja.codes": "a ja step object (held by its normalizer)",
    "normalize.languages.ko.words": "a ko step object (held by its normalizer)",
    "normalize.languages.ko.numbers": "a ko step object (held by its normalizer)",
    "normalize.steps.number_words": "the parser a number_words step builds (held by its normalizer)",
    "normalize.steps.hyphen_compounds": "a hyphen_compounds step's token forms (held by its normalizer)",
    "normalize.languages.th.numbers": "a th numbers step object (held by its normalizer)",
}


def _is_cache_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    return name in ("lru_cache", "cache")


def cache_sites() -> list[tuple[str, bool]]:
    """``(module.function, at module level)`` of every ``lru_cache``/``functools.cache`` use."""
    sites = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE_DIR).with_suffix("").parts)
        tree = ast.parse(path.read_bytes())
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    _is_cache_decorator(decorator) for decorator in node.decorator_list):
                sites.append((f"{module}.{node.name}", id(node) in top))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and _is_cache_decorator(node.func):
                sites.append((module, False))
    return sites


def _import_every_module() -> None:
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        try:
            importlib.import_module(".".join(parts))
        except ImportError as exc:  # an optional extra that is not installed
            if "pytest_asrbench" in str(exc):
                raise


def test_every_cache_holding_run_state_is_registered_or_declared_constant():
    _import_every_module()
    registered = set(caches.registered())
    missing = []
    for site, module_level in cache_sites():
        if module_level:
            declared = site in PROCESS_CONSTANT or f"{site.rsplit('.', 1)[0]}.*" in PROCESS_CONSTANT
            if site not in registered and not declared:
                missing.append(site)
        elif not any(site == prefix or site.startswith(prefix + ".") for prefix in PER_OBJECT):
            missing.append(site)
    assert not missing, (f"caches neither registered (pytest_asrbench._shared.caches.register) nor listed "
                         f"with a reason in this test: {missing}")


def test_declared_constants_and_registrations_name_real_caches():
    """A renamed or removed cache leaves no stale entry behind."""
    _import_every_module()
    sites = {site for site, _ in cache_sites()}
    modules = {site.rsplit(".", 1)[0] for site in sites}
    stale = [name for name in PROCESS_CONSTANT
             if (name.endswith(".*") and name[:-2] not in modules) or (not name.endswith(".*") and name not in sites)]
    stale += [prefix for prefix in PER_OBJECT if not any(site.startswith(prefix) for site in sites)]
    assert not stale, f"entries naming no cache: {stale}"
    overlap = sorted(set(caches.registered()) & set(PROCESS_CONSTANT))
    assert not overlap, f"registered and declared constant at once: {overlap}"


def test_reset_all_empties_the_config_derived_caches():
    from pytest_asrbench.cases.text_forms import surface_normalizer
    from pytest_asrbench.normalize.registry import get_config, get_normalizer
    from pytest_asrbench.normalize.steps.phrases import casefolded_words
    from pytest_asrbench.scoring.views.codeswitch.view import rescuer_for

    get_normalizer("en")("Twenty Five")
    surface_normalizer("en")
    rescuer_for("hi")
    text = "Some Words"
    first = casefolded_words(text)
    assert casefolded_words(text) is first
    caches.reset_all()
    assert get_config.cache_info().currsize == 0
    assert surface_normalizer.cache_info().currsize == 0
    assert rescuer_for.cache_info().currsize == 0
    assert casefolded_words(text) is not first
    assert casefolded_words(text) == ["some", "words"]


def test_reset_all_forgets_the_snapshot_writes_and_pending_mode():
    from pytest_asrbench.snapshot import adapter

    adapter.set_pending_mode(True)
    adapter.record_case_file_rewrite("cases/en/signature.yaml")
    caches.reset_all()
    assert adapter.pending_mode() is False
    assert adapter.take_writes() == []


def test_register_refuses_what_cannot_clear_a_cache():
    with pytest.raises(TypeError, match="expected a function that clears a cache"):
        caches.register({}, "not-a-cache")  # type: ignore[arg-type]
    assert "not-a-cache" not in caches.registered()


def test_a_configured_pytest_session_resets_every_registered_cache_once(pytester, monkeypatch):
    calls = []
    monkeypatch.setitem(caches._REGISTERED, "tests.counter", lambda: calls.append(1))
    pytester.parseconfigure("--asrbench")  # pytester unconfigures it at the end of the test
    assert calls == [1]
