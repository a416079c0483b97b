"""The benchmark metric: its name, version and signature.

``th_bench_cer`` is the Thai benchmark's corpus CER: both sides cleaned by the frozen
reference cleaning (``th-bench-v1``, :mod:`pytest_asrbench.bench.references.cleaning`), every
whitespace character removed, character edit counts micro-averaged per set. Its signature
(:mod:`.signature`, a metric signature provider, reached through the provider registry) hashes the code that can move a figure, the
cleaning profile of ``configs/th.toml`` and the versions of the libraries that feed it; the
``kind: signature`` case ``th_bench_cer-signature`` of ``cases/th/signature.yaml`` records it.
Bump :data:`VERSION` with any change that moves a figure (minor), or a refactor that changes
the signature but no figure (patch); see docs/signatures.md.
"""

from __future__ import annotations

from functools import lru_cache

from pytest_asrbench.bench.references.cleaning import THAI_BENCHMARK_CLEANING

NAME = "th_bench_cer"
VERSION = "1.1.12"


@lru_cache(maxsize=1)
def components() -> dict[str, str]:
    """``{"module <path>": hash, "config th.toml [profiles.bench_v1]": hash, "library <dist>":
    version}`` of the installed package (see :mod:`.signature`)."""
    return dict(_current().components)


@lru_cache(maxsize=1)
def _current():
    # through the provider registry, which loads :mod:`.signature` (it imports this module's
    # NAME, so importing it from here would make an import cycle)
    from pytest_asrbench.signatures.providers import providers
    from pytest_asrbench.signatures.sources import installed_source

    return providers()[NAME].compute(installed_source())


def signature() -> str:
    """16 hex digits over :func:`components`: the value the signature case records."""
    return _current().signature


def describe() -> dict[str, str]:
    """The metric as recorded in a scores JSON: name, version, language, signature, cleaning, unit."""
    return {"name": NAME, "version": VERSION, "language": "th", "signature": signature(),
            "cleaning": THAI_BENCHMARK_CLEANING, "unit": "char", "spaces": "removed"}
