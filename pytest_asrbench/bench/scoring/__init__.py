"""Scoring a benchmark: references and hypotheses JSONL -> per-set corpus CER with S/D/I,
cluster bootstrap intervals and the paired comparison of two systems.

- :mod:`.jsonl`: reading ``{"id", "text"[, "cluster"]}`` files, every error naming ``file:line``;
- :mod:`.metric`: the benchmark metric's name, version and signature;
- :mod:`.corpus`: matching hypotheses to references, cleaning, counting, the bootstrap;
- :mod:`.clusters`: which sets share clusters (their sidecars' ``cluster_namespace``) and
  their joint per-cluster sums for the overall interval;
- :mod:`.report`: the JSON record, the terminal and Markdown tables.
"""
