"""The repository's own run defaults (this file is not in the wheel: projects that install
pytest-asrbench never load it).

- ``pytester`` for the plugin's own tests, declared here because pytest accepts
  ``pytest_plugins`` only in a top-level conftest (``tests/conftest.py`` is one only when
  ``tests`` is what pytest was asked to run).
- PyYAML imported before any in-process pytester run, so that pytester's ``sys.modules``
  snapshot keeps it: PyYAML's C extension (``_yaml``) cannot be imported a second time after
  pytester removes it, and a re-imported yaml package then yields untagged nodes.

- ``examples/`` left out of collection: it holds a team's own project (its own pytest.ini,
  configs and case files), run in its own folder against the installed wheel by
  ``tests/test_wheel.py``; ``pytest --asrbench .`` here would otherwise take its case files
  for this repository's and score them without its configs.

``pytest --asrbench cases`` from this folder loads it too; it adds fixtures and that one
ignored folder only.
"""

import yaml  # noqa: F401
import yaml.cyaml  # noqa: F401

pytest_plugins = ["pytester"]

collect_ignore = ["examples"]
