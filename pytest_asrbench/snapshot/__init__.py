"""Case snapshots: the syrupy adapter, the run's snapshot session, and what the run reports.

- :mod:`.adapter`: the one module that uses syrupy beyond its ``snapshot`` fixture (the JSON
  extension, comparisons, atomic writes, pending changes);
- :mod:`.session`: one run's snapshot mode and decisions (the only reader of syrupy's
  options), asked by the hooks, the case items and, through their run context, the case kinds;
- :mod:`.patch_rewrites`: the patch-bump signature rewrites held back to the end of a run;
- :mod:`.report`: what the run did, as one value the terminal summary renders.

Where snapshots live (paths only) is :mod:`pytest_asrbench.snapshot_layout`, a lower layer:
the case loader and the exporters use it without pytest.
"""

from pytest_asrbench.snapshot.adapter import SNAPSHOT_DIR, Comparison, SnapshotWriteError, snapshot_file_name

__all__ = ["SNAPSHOT_DIR", "Comparison", "SnapshotWriteError", "snapshot_file_name"]
