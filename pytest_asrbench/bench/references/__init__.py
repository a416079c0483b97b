"""Reference builders of the Thai benchmark: eleven sets from five pinned Hugging Face datasets.

One module per source family (``fleurs``, ``gigaspeech2``, ``tvspeech``, ``isan``,
``lotusdis``), the long-form joins (``longform``), the pinned revisions and expected counts
(``pins``), the frozen reference cleaning (``cleaning``), hub access (``hub``, ``parquet``,
``transcripts``), the set table (``sets``), the checks (``builder``) and the writer
(``writer``). Specification: the benchmark's reference-builder rules; docs/bench.md.
"""
