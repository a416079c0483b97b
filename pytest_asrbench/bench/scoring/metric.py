"""The benchmark metric: its name and version.

``th_bench_cer`` is the Thai benchmark's corpus CER: both sides cleaned by the frozen
reference cleaning (``th-bench-v1``, :mod:`pytest_asrbench.bench.references.cleaning`), every
whitespace character removed, character edit counts micro-averaged per set. Its signature
(:mod:`.signature`, a metric signature provider, which also gives the metric as a scores JSON
records it) hashes the code that can move a figure, the cleaning profile of ``configs/th.toml``
and the versions of the libraries that feed it; the ``kind: signature`` case
``th_bench_cer-signature`` of ``cases/th/signature.yaml`` records it.
Bump :data:`VERSION` with any change that moves a figure (minor), or a refactor that changes
the signature but no figure (patch); see docs/signatures.md.

This module imports nothing: the scorer reads :data:`VERSION` from here, so it is in the
metric's import graph, and whatever it imported would be hashed into the metric's signature
(the signature code itself, had it computed the signature here).
"""

from __future__ import annotations

NAME = "th_bench_cer"
VERSION = "1.1.11"
