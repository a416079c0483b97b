"""Metric signatures: a hash of everything that can change a (metric, language) score.

- :mod:`.compute` -- the :class:`~.compute.Signature` of a metric in a language (module ASTs of
  the import graph, the language config and its files, library versions), read from files only;
  :mod:`.graph` reads the import graph, :mod:`.sources` the files (installed tree, copy, git
  revision), :mod:`.providers` the metrics outside ``scoring/metrics.py``;
- :mod:`.version_gate` -- :func:`~.version_gate.judge` / :class:`~.version_gate.SessionGate`,
  the version gate of ``kind: signature`` cases (the cases themselves are read and re-recorded
  by :mod:`pytest_asrbench.cases.signature_files`; the pytest session's gate is
  :mod:`pytest_asrbench.cases.version_gate_session`), and ``RECORD_COMMAND``, the one command
  that re-records signatures and snapshots.

This package ``__init__`` imports nothing: import the submodule you need. A metric whose code
imports one submodule (``th_bench_cer`` reads its provider registry) would otherwise hash the
whole gate's source into its signature, as parent package ``__init__`` modules are part of
every import graph.

Pure: this package imports neither pytest nor the cases layer. See ``docs/signatures.md``.
"""
