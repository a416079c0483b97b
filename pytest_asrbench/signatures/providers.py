"""Signature providers: metrics whose signature is not the score path's (:func:`.compute.compute`).

A metric outside ``scoring/metrics.py`` (the Thai benchmark's ``th_bench_cer``) registers a
:class:`SignatureProvider` here; :func:`pytest_asrbench.signatures.compute.compute`, the
signature cases, ``asrbench signature`` and ``asrbench check-version`` then treat it like any
other metric. This package never imports a provider at module level: the modules listed in
:data:`PROVIDER_MODULES` are imported on the first lookup, and each registers itself (a
provider may import this package; this package does not import it back).
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from dataclasses import dataclass

from pytest_asrbench.signatures.graph import parse
from pytest_asrbench.signatures.sources import PACKAGE

#: Modules that register a provider when imported.
PROVIDER_MODULES: tuple[str, ...] = (f"{PACKAGE}.bench.scoring.signature",)


@dataclass(frozen=True)
class SignatureProvider:
    """How one metric's signature is made.

    ``compute(source, with_libraries)`` returns its
    :class:`~pytest_asrbench.signatures.compute.Signature` read from ``source`` (a
    :mod:`.sources` source: the installed tree, a copy, a git revision), importing nothing from
    it. ``languages`` are the languages it scores; ``version_file`` (relative to the project
    root) holds the ``VERSION = "x.y.z"`` literal that gates it.
    """

    metric: str
    languages: tuple[str, ...]
    version_file: str
    compute: Callable[..., object]


_PROVIDERS: dict[str, SignatureProvider] = {}


def _defined_by(provider: SignatureProvider) -> tuple:
    """What makes two registrations the same provider: the same fields and the same ``compute``
    function by name, so that a provider module imported again (a new copy of the function, after
    a run dropped the module from ``sys.modules``) replaces its earlier registration."""
    compute = provider.compute
    return (provider.metric, provider.languages, provider.version_file,
            getattr(compute, "__module__", None), getattr(compute, "__qualname__", repr(compute)))


def register_provider(provider: SignatureProvider) -> SignatureProvider:
    """Register ``provider`` under its metric name; the same provider registered again (its
    module imported again) replaces the earlier registration.

    Raises:
        RuntimeError: another provider, or a score-path metric, already has that name
            (checked by :func:`providers` callers through ``compute``).
    """
    known = _PROVIDERS.get(provider.metric)
    if known is not None and _defined_by(known) != _defined_by(provider):
        raise RuntimeError(f"metric signature provider {provider.metric!r} registered twice")
    _PROVIDERS[provider.metric] = provider
    return provider


def providers() -> dict[str, SignatureProvider]:
    """Every registered provider by metric name. Imports :data:`PROVIDER_MODULES` on each call
    (a dictionary lookup once they are loaded; a module dropped from ``sys.modules`` is imported
    again and registers its live provider).

    Raises:
        ImportError: a provider module cannot be imported (its optional dependencies are
            missing); the message says which extra to install.
    """
    for name in PROVIDER_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise ImportError(f"cannot load the metric signature provider {name} ({exc}); "
                              "install the benchmark extra: pip install -e '.[bench]'") from exc
    return dict(_PROVIDERS)


def version_literal(source, path: str, name: str = "VERSION") -> str | None:
    """The string assigned to ``name`` at the top level of the module ``path`` of ``source``
    (read from its syntax tree, never imported); ``None`` when the file or the assignment is
    missing."""
    data = source.read(path)
    if data is None:
        return None
    for node in parse(data, path).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == name and isinstance(node.value, ast.Constant):
            return str(node.value.value)
    return None


def provided_versions(source) -> dict[str, str]:
    """``{metric: version}`` of every provider whose version file ``source`` holds."""
    found = {}
    for metric, provider in sorted(providers().items()):
        version = version_literal(source, provider.version_file)
        if version is not None:
            found[metric] = version
    return found
