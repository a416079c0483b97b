"""The process-wide caches that hold per-run state, registered in one place and reset by one call.

A module whose cache depends on something a run may change (the config search path, the
case folders, the snapshot mode) registers its clearing function here when it is imported::

    @lru_cache(maxsize=None)
    def get_config(language): ...

    register(get_config.cache_clear, "normalize.registry.get_config")

:func:`reset_all` clears every registered cache, in registration order; the plugin calls it
once when a pytest session is configured, so an in-process run (pytester, an IDE runner)
starts from what its own options say, never from an earlier run's state. A cache that only
holds what cannot change within one installed package (a compiled pattern of a constant
table, a library's version) need not register: ``tests/test_caches.py`` lists those, each
with its reason, and fails on an ``lru_cache`` that is in neither list.
"""

from __future__ import annotations

from collections.abc import Callable

_REGISTERED: dict[str, Callable[[], None]] = {}
_FROM_CONFIGS: set[str] = set()


def register(clear: Callable[[], None], name: str, from_configs: bool = False) -> Callable[[], None]:
    """Register ``clear`` (a ``cache_clear`` or any function of no argument that drops a
    cache) under ``name`` (``<package path>.<function>``, as :func:`registered` lists it).
    Returns ``clear``. Registering the same name again replaces the entry (a module reload).
    ``from_configs``: the cache holds what is built from language configs (a view's matcher),
    so :func:`reset_from_configs` drops it when the config search path changes.

    Raises:
        TypeError: ``clear`` is not callable.
    """
    if not callable(clear):
        raise TypeError(f"register({name!r}): expected a function that clears a cache, got {type(clear).__name__}")
    _REGISTERED[name] = clear
    if from_configs:
        _FROM_CONFIGS.add(name)
    else:
        _FROM_CONFIGS.discard(name)
    return clear


def registered() -> tuple[str, ...]:
    """The names of every registered cache, in registration order."""
    return tuple(_REGISTERED)


def reset_all() -> None:
    """Clear every registered cache (in registration order). An exception of a clearing
    function propagates: a cache that cannot be reset is a bug, not something to skip."""
    for clear in list(_REGISTERED.values()):
        clear()


def reset_from_configs() -> None:
    """Clear the registered caches built from language configs (``from_configs=True``), in
    registration order; the config registry calls it when its search path changes."""
    for name, clear in list(_REGISTERED.items()):
        if name in _FROM_CONFIGS:
            clear()
