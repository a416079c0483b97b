"""The run's AsrSession is built from the pytest options in cases/asr_session.py (asr/ knows no pytest)."""

from __future__ import annotations

import contextlib

import pytest

from pytest_asrbench.cases.asr_session import get_session, peek_session


class _Capture:
    def __init__(self):
        self.entered = 0

    @contextlib.contextmanager
    def global_and_fixture_disabled(self):
        self.entered += 1
        yield


class _PluginManager:
    def __init__(self, capture):
        self.capture = capture

    def getplugin(self, name):
        return self.capture if name == "capturemanager" else None


class _Config:
    def __init__(self, *, no_cache=False, worker=False):
        self.stash = pytest.Stash()
        self.pluginmanager = _PluginManager(_Capture())
        self._no_cache = no_cache
        if worker:
            self.workerinput = {}

    def getoption(self, name, default=None):
        return self._no_cache if name == "asrbench_no_cache" else default


def test_one_session_per_run_built_from_its_options():
    config = _Config(no_cache=True)
    assert peek_session(config) is None
    session = get_session(config)
    assert get_session(config) is session and peek_session(config) is session
    assert session.cache.enabled is False and session.show_progress is True
    with session._unblock_output():
        pass
    assert config.pluginmanager.capture.entered == 1


def test_an_xdist_worker_draws_no_progress_bar_and_the_cache_is_on_by_default():
    session = get_session(_Config(worker=True))
    assert session.show_progress is False and session.cache.enabled is True


def test_outside_pytest_one_module_session():
    assert get_session(None) is get_session(None)
    assert peek_session(None) is None
