"""Benchmarks: reference builders for public test sets (``bench/references/``).

Heavy libraries (``huggingface_hub``, ``pyarrow``, ``pythainlp``) are imported only inside
the functions that need them, so importing this package, or the ``asrbench`` command that
registers its subcommands, loads none of them (the ``bench`` extra installs them).
"""
