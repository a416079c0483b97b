import shutil

import pytest

pytest.importorskip("pyarrow", reason="the bench extra: pip install -e '.[bench]'")

from tests.bench.standin import LocalHub, write_datasets  # noqa: E402


@pytest.fixture(scope="session")
def standin_root(tmp_path_factory):
    """A stand-in hub folder with all five datasets at their real expected counts (built once)."""
    root = tmp_path_factory.mktemp("hub")
    write_datasets(root)
    return root


@pytest.fixture
def hub(standin_root, tmp_path):
    """A fresh :class:`LocalHub` over a private copy of the stand-in (tests may edit it)."""
    root = tmp_path / "hub"
    shutil.copytree(standin_root, root)
    return LocalHub(root)
