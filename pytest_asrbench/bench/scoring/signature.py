"""The signature of the benchmark metric ``th_bench_cer``, registered as a signature provider.

Components (named like every metric signature's, :mod:`pytest_asrbench.signatures.compute`):

- ``module <path>``: the import graph of :data:`ROOTS` (the corpus scorer, its report, and the
  reference cleaning with the normalizer code the cleaning calls: ``normalize/languages/th/bench.py``
  among them), hashed from the syntax tree (comments and docstrings do not count); step
  modules and language packages none of whose steps the cleaning profile lists are left out,
  as for every metric signature;
- ``data <path>``: data files next to those modules;
- ``config th.toml [profiles.bench_v1]``: the cleaning profile of ``configs/th.toml``, parsed
  and re-serialized with sorted keys (the rest of th.toml feeds the reviewer normalizer, not
  the benchmark);
- ``library <dist>``: rapidfuzz (alignment), pythainlp (cleaning), numpy (the bootstrap's random
  stream), and Python's Unicode database.

The gate is :data:`pytest_asrbench.bench.scoring.metric.VERSION` (read from the source's syntax
tree) and ``configs/th.toml``'s ``version``. Everything is read from a source (installed tree,
copy, git revision), never imported from it.

The installed package's signature (:func:`components`, :func:`signature`) and the metric as a
scores JSON records it (:func:`describe`) live here too, outside the metric's import graph
(:data:`ROOTS` do not reach this module), so the signature code is not hashed into the
signature.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pytest_asrbench._shared.canonical import canonical_json
from pytest_asrbench._shared.toml import load_toml
from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.errors import ConfigError
from pytest_asrbench.bench.references.cleaning import THAI_BENCHMARK_CLEANING
from pytest_asrbench.bench.scoring.metric import NAME, VERSION
from pytest_asrbench.normalize.languages.th.bench import BENCH_V1_PROFILE
from pytest_asrbench.signatures.compute import (
    Signature,
    canonical_data,
    config_version,
    digest,
    package_data,
    unused_step_modules,
)
from pytest_asrbench.signatures.graph import module_hash, walk
from pytest_asrbench.signatures.providers import SignatureProvider, register_provider, version_literal
from pytest_asrbench.signatures.sources import PACKAGE, installed_source

LANGUAGE = "th"
#: Where :data:`NAME`'s ``VERSION = "x.y.z"`` lives.
VERSION_FILE = f"{PACKAGE}/bench/scoring/metric.py"
#: Modules whose import graph makes up the metric's code.
ROOTS = (f"{PACKAGE}.bench.scoring.corpus", f"{PACKAGE}.bench.scoring.report",
         f"{PACKAGE}.bench.references.cleaning")
#: Distributions whose output feeds a figure.
LIBRARIES = ("rapidfuzz", "pythainlp", "numpy")


def _profile_table(source) -> tuple[dict | None, str]:
    """The cleaning profile table of ``configs/th.toml`` (``None`` when absent) and its path.

    Raises:
        ConfigError: th.toml is missing or not valid TOML.
    """
    path = f"{source.configs}/{LANGUAGE}.toml"
    data = source.read(path)
    if data is None:
        raise ConfigError(f"{path} not found in {source.label}: the {NAME} cleaning profile lives there")
    return (load_toml(data, path).get("profiles") or {}).get(BENCH_V1_PROFILE), path


def profile_component(source) -> tuple[str, str, str]:
    """``(component name, hash, path)`` of the cleaning profile table of ``configs/th.toml``.

    Raises:
        ConfigError: th.toml is missing or not valid TOML.
    """
    table, path = _profile_table(source)
    content = b"<missing>" if table is None else canonical_json(table)
    return f"config {LANGUAGE}.toml [profiles.{BENCH_V1_PROFILE}]", digest(content), path


def profile_steps(source) -> set[str]:
    """The step names the cleaning profile lists: the only steps the cleaning runs, so step
    modules and language packages with none of them are left out of the graph (a new
    language package does not move this signature)."""
    table, _ = _profile_table(source)
    steps = (table or {}).get("steps") or []
    return {str(name) for name in steps} if isinstance(steps, list) else set()


def compute_signature(source, with_libraries: bool = True) -> Signature:
    """The :class:`~pytest_asrbench.signatures.compute.Signature` of ``th_bench_cer`` in Thai,
    read from ``source``; ``with_libraries=False`` leaves the library versions out (as
    ``check-version`` compares pins instead).

    Raises:
        ConfigError: th.toml is missing or not valid TOML, or metric.py has no ``VERSION``.
        SyntaxError: a module of the graph does not parse.
    """
    version = version_literal(source, VERSION_FILE)
    if version is None:
        raise ConfigError(f"{VERSION_FILE} in {source.label} has no VERSION = \"x.y.z\": the {NAME} version gate")
    skip = unused_step_modules(source, profile_steps(source))
    graph = walk(source, list(ROOTS), skip=skip)
    components: dict[str, str] = {}
    files: dict[str, str] = {}
    for name, path in sorted(graph.modules.items(), key=lambda item: item[1]):
        components[f"module {path}"] = module_hash(source.read(path), path, name, skip)[:16]
        files[f"module {path}"] = path
    for component, path in sorted(package_data(source, list(graph.modules.values())).items()):
        components[component] = digest(canonical_data(source.read(path), path))
        files[component] = path
    component, value, path = profile_component(source)
    components[component] = value
    files[component] = path
    if with_libraries:
        for dist in LIBRARIES:
            components[f"library {dist}"] = installed_version(dist) or "not installed"
        components["library unicodedata"] = unicodedata.unidata_version
    return Signature(NAME, LANGUAGE, version, config_version(source, LANGUAGE), components,
                     _files=tuple(files.items()), version_file=VERSION_FILE)


PROVIDER = register_provider(SignatureProvider(NAME, (LANGUAGE,), VERSION_FILE, compute_signature))


@lru_cache(maxsize=1)
def _current() -> Signature:
    return compute_signature(installed_source())


@lru_cache(maxsize=1)
def components() -> dict[str, str]:
    """``{"module <path>": hash, "config th.toml [profiles.bench_v1]": hash, "library <dist>":
    version}`` of the installed package (see :func:`compute_signature`).

    Raises:
        ConfigError: th.toml is missing or not valid TOML, or metric.py has no ``VERSION``.
    """
    return dict(_current().components)


def signature() -> str:
    """16 hex digits over :func:`components`: the value the signature case records.

    Raises:
        ConfigError: as :func:`components`.
    """
    return _current().signature


def describe() -> dict[str, str]:
    """The metric as recorded in a scores JSON: name, version, language, signature, cleaning, unit.

    Raises:
        ConfigError: as :func:`components`.
    """
    return {"name": NAME, "version": VERSION, "language": LANGUAGE, "signature": signature(),
            "cleaning": THAI_BENCHMARK_CLEANING, "unit": "char", "spaces": "removed"}
