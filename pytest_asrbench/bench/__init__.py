"""Benchmarks: reference builders for public test sets (``bench/references/``), the Thai
benchmark's scorer (``bench/scoring/``), and the Mandarin protocol's manifests behind a
licence/consent gate (``bench/manifest/``), measured runs (``bench/run/``, ``asrbench bench
run``) and decisions between two runs (``bench/compare/``, ``asrbench bench compare``).

Heavy libraries (``huggingface_hub``, ``pyarrow``, ``pythainlp``, ``numpy``, the engine's)
are imported only inside the functions that need them, so importing this package, or the
``asrbench`` command that registers its subcommands, loads none of them (the ``bench`` and
``asr`` extras install them).
"""
