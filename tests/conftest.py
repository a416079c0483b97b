# Imported here, before any in-process pytester run, so that pytester's sys.modules
# snapshot keeps them: PyYAML's C extension (_yaml) cannot be imported a second time
# after pytester removes it, and a re-imported yaml package then yields untagged nodes.
import yaml  # noqa: F401
import yaml.cyaml  # noqa: F401

pytest_plugins = ["pytester"]
