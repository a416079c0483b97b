"""Exports for other tools' readers: :mod:`.sclite` writes NIST sclite's ``trn`` transcripts
and a ``pra``-style alignment file; :mod:`.sources` gathers the utterances from case files and
run records; :mod:`.cli` is ``asrbench export``."""
