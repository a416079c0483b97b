"""The signature of a (metric, language): one hash per input that can change its scores.

Components, each named the way a failure message shows it:

- ``module pytest_asrbench/...py``: every module in the import graph of the metric's roots
  (:data:`METRIC_ROOTS`), hashed from its syntax tree (see :mod:`.graph`);
- ``data pytest_asrbench/...``: data files shipped next to those modules (.tsv, .json ...);
- ``config <lang>.toml``: the language config, parsed and re-serialized with sorted keys,
  without its ``version`` (the version is the gate, not an input); a config whose
  ``code_switch_languages`` name other languages brings their configs in too;
- ``lexicon <path>``: every file a config names (the fields its model marks as ``files``:
  ``[lexicons]``), in canonical form (a TSV lexicon is its sorted entries, so reordering or
  comments do not count). Which fields name steps, files, profiles and languages is declared
  once, on the config model (:data:`pytest_asrbench.normalize.config.SIGNATURE_ROLES`);
- ``library <distribution>``: the installed version of each library whose output feeds a
  score (:data:`COMMON_LIBRARIES`, the libraries declared by the steps the language's
  configs list, ``@step(..., libraries=("text2num",))``, the one source of a language's
  libraries, and any other third-party import the graph makes that is not in
  :data:`NON_SCORING_LIBRARIES` nor declared by a step it does not list), plus the Unicode
  database version of Python's ``unicodedata`` (NFC, case and character classes follow it).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import json
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from posixpath import dirname

from pytest_asrbench._shared.canonical import canonical_json
from pytest_asrbench._shared.config_layers import language_tags, merged
from pytest_asrbench._shared.languages import resolve_tag
from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench._shared.tsv import tsv_rows
from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.errors import ConfigError, UnknownMetricError
from pytest_asrbench.normalize.config import signature_fields
from pytest_asrbench.signatures.graph import module_hash, module_path, parse, step_libraries_in, steps_in, walk
from pytest_asrbench.signatures.providers import providers
from pytest_asrbench.signatures.sources import PACKAGE

# ---- the one place that says what feeds a signature -------------------------------------

#: Modules whose import graph makes up every metric's code. A metric may also have a module
#: of its own, ``pytest_asrbench/scoring/<metric>.py``, which is added when it exists.
METRIC_ROOTS: tuple[str, ...] = (
    f"{PACKAGE}.scoring.score",
    f"{PACKAGE}.normalize.registry",
)
#: Extra roots of one metric, for code the score path reaches only at run time.
METRIC_EXTRA_ROOTS: dict[str, tuple[str, ...]] = {}
#: Packages whose modules register steps (generic steps, language packages): a language's
#: pipeline runs only the steps its config lists, so a step module (or language package)
#: none of whose steps the language uses is left out.
STEP_PACKAGES: tuple[str, ...] = (f"{PACKAGE}.normalize.steps", f"{PACKAGE}.normalize.languages")
#: Where metric versions live (``Metric(name, version, ...)`` calls).
METRICS_MODULE = f"{PACKAGE}/scoring/metrics.py"
#: Distributions in every ``stt_wer`` graph: alignment, character classes, and the
#: transliteration behind the code-switch view's romanized Hindi option (``indic_transliteration``,
#: imported by the view every language's score runs through).
COMMON_LIBRARIES: tuple[str, ...] = ("indic_transliteration", "jiwer", "rapidfuzz", "regex")
#: Third-party imports of the graph that never change an output (parsing, validation).
NON_SCORING_LIBRARIES: frozenset[str] = frozenset({"pydantic", "pydantic-core", "tomli", "PyYAML", "jsonschema"})
#: File types hashed as data when they sit next to a module of the graph.
DATA_SUFFIXES = (".tsv", ".csv", ".json", ".toml", ".txt", ".yaml", ".yml")

DIGEST_LENGTH = 16


def digest(data: bytes) -> str:
    """The :data:`DIGEST_LENGTH` hex digits of SHA-256 over ``data``: every component hash."""
    return hashlib.sha256(data).hexdigest()[:DIGEST_LENGTH]


@dataclass(frozen=True)
class Signature:
    """What a (metric, language) score depends on: named component hashes and their total.

    ``version`` is the metric's version and ``config_version`` the language config's; they
    are recorded next to the signature but are not part of it.
    """

    metric: str
    language: str
    version: str
    config_version: str
    components: dict[str, str] = field(default_factory=dict)

    @property
    def signature(self) -> str:
        text = f"{self.metric}\n{self.language}\n" + "".join(
            f"{key}\t{value}\n" for key, value in sorted(self.components.items()))
        return digest(text.encode("utf-8"))

    def files(self) -> dict[str, str]:
        """Component name -> path relative to the project root, for components that are files."""
        return dict(self._files)

    _files: tuple = field(default=(), repr=False, compare=False)
    #: The module (relative to the project root) holding the metric's version literal: where
    #: a "bump the version" message sends the developer.
    version_file: str = field(default=METRICS_MODULE, compare=False)


# ---- canonical forms ----------------------------------------------------------------------



def canonical_tsv(data: bytes) -> bytes:
    """A TSV lexicon's entries, stripped, NFC-normalized and sorted (comments, blank lines and
    order do not count: the lexicon is loaded into a mapping)."""
    rows = [[unicodedata.normalize("NFC", part.strip()) for part in parts]
            for _, parts in tsv_rows(data.decode("utf-8"))]
    return canonical_json(sorted(rows))


def canonical_data(data: bytes, path: str) -> bytes:
    """A data file in canonical form by its type (.toml/.json parsed and sorted, .tsv sorted)."""
    if path.endswith(".tsv"):
        return canonical_tsv(data)
    if path.endswith(".toml"):
        return canonical_json(load_toml(data, path))
    if path.endswith(".json"):
        return canonical_json(json.loads(data.decode("utf-8")))
    return data.replace(b"\r\n", b"\n")


def canonical_config(data: bytes, path: str) -> tuple[dict, bytes]:
    """The parsed config and its canonical form without the ``version`` field."""
    parsed = load_toml(data, path)
    return parsed, canonical_json({key: value for key, value in parsed.items() if key != "version"})


# ---- versions -------------------------------------------------------------------------------

def metric_versions(source) -> dict[str, str]:
    """``{metric name: version}`` read from the ``Metric(...)`` calls of the metrics module."""
    data = source.read(METRICS_MODULE)
    if data is None:
        return {}
    versions = {}
    for node in ast.walk(parse(data, METRICS_MODULE)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Metric":
            values = {keyword.arg: keyword.value for keyword in node.keywords}
            name = node.args[0] if node.args else values.get("name")
            version = node.args[1] if len(node.args) > 1 else values.get("version")
            if isinstance(name, ast.Constant) and isinstance(version, ast.Constant):
                versions[str(name.value)] = str(version.value)
    return versions


def known_languages(source) -> list[str]:
    """The language tags with a config in ``source`` (bases such as ``_european.toml`` are none)."""
    return language_tags(source.list_dir(source.configs))


def resolve(source, language: str) -> str:
    """The config tag used for ``language`` (itself, or its base language ``fr-CA`` -> ``fr``)."""
    return resolve_tag(language, known_languages(source), f" in {source.label}")


def config_version(source, language: str) -> str:
    """The ``version`` of the language's config in ``source``.

    Raises:
        ConfigError: the config is missing; its ``version`` is not a string (``version = 2``,
            which would compare as moved against any recorded "x.y.z"); the message says to
            write it in quotes.
    """
    path = f"{source.configs}/{language}.toml"
    data = source.read(path)
    if data is None:
        raise ConfigError(f"{path} not found in {source.label}")
    version = load_toml(data, path).get("version")
    if version is not None and not isinstance(version, str):
        raise ConfigError(f"{path}: version = {version!r} is not a version string: write it in quotes as "
                          f"major.minor.patch, e.g. version = \"{_as_semver(version)}\" (docs/signatures.md)")
    return str(version)


def _as_semver(version) -> str:
    """A quoted-form suggestion for a version written as a number (``2`` -> ``2.0.0``)."""
    parts = str(version).split(".") if isinstance(version, (int, float)) and not isinstance(version, bool) else ["1"]
    return ".".join((parts + ["0", "0"])[:3])


# ---- libraries -----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _distributions_of_imports() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def libraries(declared, external_imports: set[str], undeclared=()) -> dict[str, str]:
    """``{"library <dist>": version}`` of the libraries that feed a score: the common ones,
    ``declared`` (by the steps in use: :func:`language_libraries`), and any other third-party
    import of the graph but the non-scoring ones and ``undeclared`` (libraries only steps not
    in use declare: Thai's pythainlp does not feed an English score). A declared library that
    is not installed counts as ``"not installed"``."""
    chosen: dict[str, str] = {}
    for dist in (*COMMON_LIBRARIES, *declared):
        chosen[dist] = installed_version(dist) or "not installed"
    skip = ({name.lower() for name in NON_SCORING_LIBRARIES} | {dist.lower() for dist in undeclared}
            | {d.lower() for d in chosen})
    for name in sorted(external_imports):
        dists = _distributions_of_imports().get(name) or [name]
        for dist in dists:
            if dist.lower() not in skip:
                chosen[dist] = installed_version(dist) or "not installed"
    result = {f"library {dist}": version for dist, version in sorted(chosen.items())}
    result["library unicodedata"] = unicodedata.unidata_version
    return result


def step_libraries(source) -> dict[str, tuple[str, ...]]:
    """``{step: declared libraries}`` of every step registered in the step packages of
    ``source`` (:data:`STEP_PACKAGES`), read from the ``@step(..., libraries=...)`` calls'
    syntax trees, never imported."""
    found: dict[str, tuple[str, ...]] = {}
    for package in STEP_PACKAGES:
        folder = package.replace(".", "/")
        pending = [folder]
        while pending:
            current = pending.pop()
            for name in sorted(source.list_dir(current)):
                rel = f"{current}/{name}"
                if name.endswith(".py"):
                    found.update(step_libraries_in(source.read(rel), rel))
                elif name != "__pycache__" and source.is_dir(rel):
                    pending.append(rel)
    return found


#: Libraries a config setting brings in, beside those its steps declare: the code-switch
#: rescue's ``lexicon`` detection reads wordfreq's frequency lists (de, nl, fr, es, it).
SETTING_LIBRARIES: dict[tuple[str, str], tuple[str, ...]] = {("code_switch_detection", "lexicon"): ("wordfreq",)}


def setting_libraries(source, languages) -> set[str]:
    """The :data:`SETTING_LIBRARIES` of the settings in the configs of ``languages``."""
    found: set[str] = set()
    for tag in languages:
        data = source.read(f"{source.configs}/{tag}.toml")
        if data is None:
            continue
        parsed = load_toml(data, f"{source.configs}/{tag}.toml")
        for (setting, value), dists in SETTING_LIBRARIES.items():
            if parsed.get(setting) == value:
                found.update(dists)
    return found


def language_libraries(source, language: str) -> tuple[str, ...]:
    """The libraries ``language``'s scores depend on beyond :data:`COMMON_LIBRARIES`: those
    declared by the steps its configs list (its own steps and profiles, a base it extends,
    its ``code_switch_languages``' configs), and those its settings bring
    (:data:`SETTING_LIBRARIES`), sorted.

    Raises:
        ConfigError: unknown language (the message lists the known ones).
    """
    languages, _, _, used = _config_files(source, resolve(source, language))
    declared = step_libraries(source)
    return tuple(sorted({dist for name in used for dist in declared.get(name, ())} | setting_libraries(source, languages)))


# ---- the signature -------------------------------------------------------------------------

def metric_roots(source, metric: str) -> list[str]:
    roots = list(METRIC_ROOTS) + list(METRIC_EXTRA_ROOTS.get(metric, ()))
    own = f"{PACKAGE}.scoring.{metric}"
    if module_path(source, own) is not None:
        roots.append(own)
    return roots


def package_data(source, module_files: list[str]) -> dict[str, str]:
    """Data files in the folders of the graph's modules (and their code-free subfolders)."""
    found: dict[str, str] = {}
    folders = sorted({dirname(path) for path in module_files})
    pending = list(folders)
    while pending:
        folder = pending.pop()
        for name in source.list_dir(folder):
            rel = f"{folder}/{name}" if folder else name
            if name == "__pycache__" or name.startswith(".") or rel == source.configs:
                continue
            if source.is_dir(rel):
                if rel not in folders and not any(child.endswith(".py") for child in source.list_dir(rel)):
                    pending.append(rel)
            elif name.endswith(DATA_SUFFIXES):
                found[f"data {rel}"] = rel
    return found


def unused_step_modules(source, used: set[str]) -> frozenset[str]:
    """Modules (or packages) of the step packages that register steps, none of them in ``used``."""
    unused = set()
    for package in STEP_PACKAGES:
        unused |= _unused_in(source, package, used)
    return frozenset(unused)


def _unused_in(source, package: str, used: set[str]) -> set[str]:
    folder = package.replace(".", "/")
    unused = set()
    for name in source.list_dir(folder):
        rel = f"{folder}/{name}"
        if name.endswith(".py") and name != "__init__.py":
            files = [rel]
        elif source.is_dir(rel) and source.read(f"{rel}/__init__.py") is not None:
            files = [f"{rel}/{child}" for child in source.list_dir(rel) if child.endswith(".py")]
        else:
            continue
        steps = set()
        for file in files:
            steps |= steps_in(source.read(file), file)
        if steps and not steps & used:
            unused.add(f"{package}.{name.removesuffix('.py')}")
    return unused


def _config_files(source, language: str) -> tuple[list[str], dict[str, str], dict[str, bytes], set[str]]:
    """Languages involved, ``{component: path}``, ``{component: canonical bytes}`` of their
    configs and files, and the step names their pipelines use."""
    steps: set[str] = set()
    files: dict[str, str] = {}
    contents: dict[str, bytes] = {}
    languages: list[str] = []
    pending = [language]
    while pending:
        tag = pending.pop(0)
        if tag in languages:
            continue
        languages.append(tag)
        path = f"{source.configs}/{tag}.toml"
        data = source.read(path)
        key = f"config {tag}.toml"
        files[key] = path
        if data is None:
            contents[key] = b"<missing>"
            continue
        parsed, contents[key] = canonical_config(data, path)
        parsed = _with_bases(source, tag, parsed, files, contents)
        named = declared_inputs(parsed)
        steps |= named["steps"]
        for value in sorted(named["files"]):
            component = f"lexicon {value}"
            file = f"{source.configs}/{value}"
            files[component] = file
            raw = source.read(file)
            contents[component] = b"<missing>" if raw is None else canonical_data(raw, value)
        for other in sorted(named["languages"]):
            try:
                pending.append(resolve(source, other))
            except ConfigError:
                contents[f"config {other}.toml"] = b"<missing>"
    return languages, files, contents, steps


def _with_bases(source, tag: str, parsed: dict, files: dict[str, str], contents: dict[str, bytes]) -> dict:
    """``parsed`` over the configs its ``extends`` chain names in ``source``, each hashed as a
    component of its own (``config _european.toml``): an edit of a base moves the signature of
    every language that extends it. A missing base counts as ``<missing>``."""
    chain = [parsed]
    seen = {tag}
    parent = parsed.get("extends")
    while isinstance(parent, str) and parent not in seen:
        seen.add(parent)
        path = f"{source.configs}/{parent}.toml"
        key = f"config {parent}.toml"
        files[key] = path
        data = source.read(path)
        if data is None:
            contents[key] = b"<missing>"
            break
        base, contents[key] = canonical_config(data, path)
        chain.append(base)
        parent = base.get("extends")
    result: dict = {}
    for layer in reversed(chain):
        result = merged(result, {key: value for key, value in layer.items() if key != "extends"})
    return result


def declared_inputs(parsed: dict) -> dict[str, set[str]]:
    """What a parsed config names, by the ``signature`` role its model gives each field
    (:func:`pytest_asrbench.normalize.config.signature_fields`): ``steps`` (the default list
    and every profile's), ``files`` (paths under configs/) and ``languages``. Values of the
    wrong type are skipped here; the config's own validation reports them."""
    found: dict[str, set[str]] = {"steps": set(), "files": set(), "languages": set()}
    for role in ("steps", "files", "languages"):
        for name in signature_fields(role):
            found[role] |= set(_strings(parsed.get(name)))
    for name in signature_fields("profiles"):
        profiles = parsed.get(name)
        for profile in (profiles.values() if isinstance(profiles, dict) else ()):
            if isinstance(profile, dict):
                found["steps"] |= set(_strings(profile.get("steps")))
    return found


def _strings(value) -> list[str]:
    """The strings of a field's value (a string, a list of them, or a table's values)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [item for item in value.values() if isinstance(item, str)]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def compute(metric: str, language: str, source=None, *, with_libraries: bool = True) -> Signature:
    """The signature of ``metric`` scored in ``language``, read from ``source`` (default: the
    installed package and its configs). Nothing from ``source`` is imported.

    Raises:
        UnknownMetricError: (a ``ValueError``) unknown metric (not in the metrics module of
            ``source``); the message lists the known ones.
        ConfigError: (a ``ValueError``) unknown language; the message lists the known ones.
        ConfigError: a config is not valid TOML.
        SyntaxError: a module of the graph does not parse.
    """
    from pytest_asrbench.signatures.sources import installed_source

    source = source or installed_source()
    versions = metric_versions(source)
    if metric not in versions:
        provider = providers().get(metric)
        if provider is not None:
            return provider.compute(source, with_libraries=with_libraries)
        known = sorted({*versions, *providers()})
        raise UnknownMetricError(f"unknown metric {metric!r}; known metrics: {', '.join(known)}")
    tag = resolve(source, language)
    languages, config_files, contents, used_steps = _config_files(source, tag)
    skip = unused_step_modules(source, used_steps)
    graph = walk(source, metric_roots(source, metric), skip=skip)
    components: dict[str, str] = {}
    files: dict[str, str] = {}
    for name, path in sorted(graph.modules.items(), key=lambda item: item[1]):
        components[f"module {path}"] = module_hash(source.read(path), path, name, skip)[:DIGEST_LENGTH]
        files[f"module {path}"] = path
    for component, path in sorted(package_data(source, list(graph.modules.values())).items()):
        components[component] = digest(canonical_data(source.read(path), path))
        files[component] = path
    for component, data in contents.items():
        components[component] = digest(data)
    files.update(config_files)
    if with_libraries:
        declared = step_libraries(source)
        used = {dist for name in used_steps for dist in declared.get(name, ())}
        used |= setting_libraries(source, languages)
        unused = ({dist for name, dists in declared.items() if name not in used_steps for dist in dists}
                  | {dist for dists in SETTING_LIBRARIES.values() for dist in dists}) - used
        components.update(libraries(sorted(used), graph.external, unused))
    return Signature(metric, tag, versions[metric], config_version(source, tag), components,
                     _files=tuple(files.items()))
