"""Shared helpers: the bottom layer, standard library only (tests/test_layers.py checks it).

One of each, so every stage reads, hashes and writes the same way:

- :mod:`.languages` -- language-tag resolution (``fr-CA`` -> ``fr``), the one fallback rule;
- :mod:`.tsv` -- the rows of a TSV table (blank and ``#`` lines skipped);
- :mod:`.toml` -- a TOML document with a :class:`~pytest_asrbench.errors.ConfigError` naming the file;
- :mod:`.canonical` -- canonical JSON bytes (sorted keys, no spaces) for hashing;
- :mod:`.hashing` -- the SHA-256 of a file;
- :mod:`.versions` -- the installed version of a distribution;
- :mod:`.atomic` -- all-or-nothing file writes;
- :mod:`.paths` -- the check of an output path before work starts (never creating parent folders);
- :mod:`.jsonl` -- the lines of a JSONL file (UTF-8, no byte order mark) and JSON that refuses a repeated key.

The errors these raise are in :mod:`pytest_asrbench.errors`, which is part of this layer.
"""
