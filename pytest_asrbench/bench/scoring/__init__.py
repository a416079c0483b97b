"""Scoring a benchmark: references and hypotheses JSONL -> per-set corpus WER or CER with S/D/I,
cluster bootstrap intervals and the paired comparison of two systems.

- :mod:`.jsonl`: reading ``{"id", "text"[, "cluster"]}`` files, every error naming ``file:line``;
- :mod:`.metric`: the Thai benchmark metric's name, version and signature;
- :mod:`.measure`: how pairs are counted (:class:`.measure.Measure`; Thai's ``th_bench_cer``);
- :mod:`.language`: which language the sets are in (``--language`` or their sidecars) and the
  measure of every other language (its metric through ``score()``);
- :mod:`.sidecar`: reading a set's ``<set>.meta.json``;
- :mod:`.corpus`: matching hypotheses to references, cleaning, counting, the bootstrap;
- :mod:`.clusters`: which sets share clusters (their sidecars' ``cluster_namespace``) and
  their joint per-cluster sums for the overall interval;
- :mod:`.report`: the JSON record, the terminal and Markdown tables.
"""
