"""The run's :class:`~pytest_asrbench.asr.session.AsrSession`, kept in the pytest config.

The ``asr`` case kind, the plugin (progress bar size) and the ASR hooks (run record, xdist
merging, summary) share one session per pytest run. It is built here from the run's options
(``--asrbench-no-cache``; no progress bar on an xdist worker; pytest's output capture
suspended while the bar is drawn), so that :mod:`pytest_asrbench.asr` never imports pytest.
Outside pytest (a runner called directly, the CLI) one module-level session is used.
"""

from __future__ import annotations

import pytest

from pytest_asrbench.asr.session import AsrSession

_STASH_KEY = pytest.StashKey[AsrSession]()
_GLOBAL: AsrSession | None = None


def _session_for_config(config: pytest.Config) -> AsrSession:
    capture = config.pluginmanager.getplugin("capturemanager")
    return AsrSession(
        use_cache=not config.getoption("asrbench_no_cache", False),
        show_progress=not hasattr(config, "workerinput"),
        unblock_output=capture.global_and_fixture_disabled if capture is not None else None,
    )


def get_session(config: pytest.Config | None = None) -> AsrSession:
    """The run's session, created on first use (``config`` ``None``: the one session outside pytest)."""
    global _GLOBAL
    if config is None or not hasattr(config, "stash"):
        if _GLOBAL is None:
            _GLOBAL = AsrSession()
        return _GLOBAL
    session = config.stash.get(_STASH_KEY, None)
    if session is None:
        session = _session_for_config(config)
        config.stash[_STASH_KEY] = session
    return session


def peek_session(config: pytest.Config | None) -> AsrSession | None:
    """The run's session if an ``asr`` case (or the plugin) created one, else ``None``."""
    if config is None or not hasattr(config, "stash"):
        return None
    return config.stash.get(_STASH_KEY, None)
