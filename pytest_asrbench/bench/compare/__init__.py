"""``asrbench bench compare``: two ``asrbench.bench/1`` records -> a dated decision record.

- :mod:`.policy`: what must be equal (manifest hash, decode policy, included rows), what the
  arms differ in, and whether the hosts allow a latency comparison;
- :mod:`.paired`: the paired cluster bootstrap (clusters = speakers) of the CER difference,
  through :mod:`pytest_asrbench.stats.bootstrap`;
- :mod:`.rule`: the pre-registered promotion rule and its verdict with reasons;
- :mod:`.decision`: the decision record (JSON) and its Markdown;
- :mod:`.cli`: the command.
"""
