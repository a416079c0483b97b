"""pytest-xdist scheduling of a case run: the ``asr`` cases of one engine setting on one worker.

A worker that runs an ``asr`` case loads that case's model (several seconds and hundreds of MB
each); spread item by item (xdist's ``load``), every worker loads every model. Under
``--asrbench -n N`` with no ``--dist`` given, the plugin schedules with
:class:`ModelGroupScheduling` instead: xdist's own scope scheduler (``loadscope``), whose scope
of an item is its model group (the case kind's ``resource_group``, for ``asr`` the engine
setting as the engine resolves it, :func:`~pytest_asrbench.asr.session.engine_group`: no engine
block and ``{model: base}`` are one group) or, for every other item, the item itself. A scope runs whole on one worker, so each
worker loads each model at most once, and the other items are spread one by one as under
``load``.

Why not xdist's ``xdist_group`` mark with ``--dist loadgroup``: with pytest 9.2 its workers can
no longer suffix the node ids it groups by, and it silently distributes as ``load``
(pytest-dev/pytest-xdist#1386). The groups here are read by the controller from the case files
themselves, so no node id is changed.

pytest-xdist is imported only when a scheduler is made (the run has workers).
"""

from __future__ import annotations

from pathlib import Path

from pytest_asrbench.cases.kinds import get_runner
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.snapshot_layout import is_case_suffix


class ModelGroups:
    """The model group of a case item's node id (``cases/en/asr.yaml::en-01``), read from its
    case file under ``root`` (each file read once); ``None`` for an item that loads no model."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._files: dict[str, dict[str, str]] = {}

    def group(self, nodeid: str) -> str | None:
        path, sep, case_id = nodeid.partition("::")
        if not sep or not is_case_suffix(Path(path)):
            return None
        if path not in self._files:
            self._files[path] = self._read(self.root / path)
        return self._files[path].get(case_id)

    @staticmethod
    def _read(file: Path) -> dict[str, str]:
        groups = {}
        for case in load_case_file(file).cases:  # a broken file has no cases: its items are ungrouped
            resource_group = getattr(get_runner(case.kind), "resource_group", None)
            if resource_group is not None:
                groups[case.id] = resource_group(case)
        return groups


def make_scheduler(config, log):
    """xdist's scope scheduler with :class:`ModelGroups` as scopes (see the module docstring)."""
    from xdist.scheduler import LoadScopeScheduling

    class ModelGroupScheduling(LoadScopeScheduling):
        def __init__(self, config, log=None):
            super().__init__(config, log)
            self._groups = ModelGroups(config.rootpath)

        def _split_scope(self, nodeid: str) -> str:
            return self._groups.group(nodeid) or nodeid

    return ModelGroupScheduling(config, log)
