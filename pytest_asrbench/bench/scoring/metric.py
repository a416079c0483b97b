"""The benchmark metric: its name, version and signature.

``th_bench_cer`` is the Thai benchmark's corpus CER: both sides cleaned by the frozen
reference cleaning (``th-bench-v1``, :mod:`pytest_asrbench.bench.references.cleaning`), every
whitespace character removed, character edit counts micro-averaged per set. Its signature
hashes the code that can move a figure (the import graph of :mod:`.corpus` and of the cleaning,
read with the metric signatures' own reader, so comments and docstrings do not count) and the
versions of the libraries that feed it (rapidfuzz: alignment; pythainlp: cleaning; numpy: the
bootstrap's random stream). Bump :data:`VERSION` with any change that moves a figure (minor),
or a refactor that changes the signature but no figure (patch).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.bench.references.cleaning import THAI_BENCHMARK_CLEANING

NAME = "th_bench_cer"
VERSION = "1.0.0"
#: Modules whose import graph makes up the metric's code.
ROOTS = ("pytest_asrbench.bench.scoring.corpus", "pytest_asrbench.bench.references.cleaning")
#: Distributions whose output feeds a figure.
LIBRARIES = ("rapidfuzz", "pythainlp", "numpy")


@lru_cache(maxsize=1)
def components() -> dict[str, str]:
    """``{"module <path>": hash, "library <dist>": version}`` of the installed package."""
    from pytest_asrbench.signatures.graph import module_hash, walk
    from pytest_asrbench.signatures.sources import installed_source

    source = installed_source()
    graph = walk(source, list(ROOTS))
    found = {f"module {path}": module_hash(source.read(path), path, name)[:16]
             for name, path in sorted(graph.modules.items(), key=lambda item: item[1])}
    found.update({f"library {dist}": installed_version(dist) or "not installed" for dist in LIBRARIES})
    return found


def signature() -> str:
    """16 hex digits over :func:`components` (and the metric's name and cleaning)."""
    text = f"{NAME}\n{THAI_BENCHMARK_CLEANING}\n" + "".join(f"{key}\t{value}\n" for key, value in sorted(components().items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def describe() -> dict[str, str]:
    """The metric as recorded in a scores JSON: name, version, signature, cleaning, unit."""
    return {"name": NAME, "version": VERSION, "signature": signature(), "cleaning": THAI_BENCHMARK_CLEANING,
            "unit": "char", "spaces": "removed"}
