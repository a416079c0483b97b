"""State shared by the ``asr`` cases of one pytest run (or one CLI call).

One :class:`AsrSession` per run holds the engines (one per distinct engine setting, model
loaded lazily and once), the hypothesis cache, the progress bar and the clip entries of the
run record. It knows nothing of pytest: the run's session is kept in the pytest config by
:mod:`pytest_asrbench.cases.asr_session`, which builds it from the run's options.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from pytest_asrbench.asr.cache import ClipRun, HypothesisCache, transcribe_with_cache
from pytest_asrbench.asr.engine import DEFAULT_ENGINE, SttEngine, create_engine, engine_setting_key
from pytest_asrbench.asr.errors import AsrError

#: More clips than this get a progress bar (only on an interactive terminal, see
#: :meth:`AsrSession._advance`).
PROGRESS_MIN_CLIPS = 3


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


def engine_group(settings: dict[str, Any] | None = None) -> str:
    """The model group of an engine setting, as a name: ``asr-<engine>-<model>-<digest>``,
    the model as the engine resolves it and the digest of
    :meth:`AsrSession.engine_key`. Settings that decode alike (``{}`` and ``{model: base}``)
    are one group: one engine, one model load. The pytest-xdist scheduler keeps a group on
    one worker (:mod:`pytest_asrbench.xdist_schedule`).

    A setting the engine refuses (an unknown engine, a bad value) is grouped by its settings
    as written: the case that holds it fails with that error when it runs.
    """
    try:
        key = engine_setting_key(settings)
    except AsrError:  # reported by the case itself, at its file:line, when it runs
        written = dict(settings or {})
        key = json.dumps({"name": written.pop("name", DEFAULT_ENGINE), **written}, sort_keys=True, default=str)
    resolved = json.loads(key)
    readable = "".join(c if c.isalnum() or c in "-_." else "_"
                       for c in f"{resolved['name']}-{resolved.get('model', 'default')}")[:40]
    return f"asr-{readable}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


class AsrSession:
    """Engines, cache and records of one run.

    Args:
        cache_dir: hypothesis cache folder (default: the user cache folder).
        use_cache: ``False`` bypasses the hypothesis cache (every clip is decoded, nothing stored).
        show_progress: ``False`` never draws the progress bar (an xdist worker, whose stderr is
            not the user's terminal).
        unblock_output: a context manager factory under which writing to the real stderr is
            allowed (pytest's output capture suspended); none outside pytest.
    """

    def __init__(self, *, cache_dir: Path | None = None, use_cache: bool = True, show_progress: bool = True,
                 unblock_output: Callable[[], AbstractContextManager] | None = None):
        self.cache = HypothesisCache(cache_dir, enabled=use_cache)
        self.show_progress = show_progress
        self._unblock_output = unblock_output or contextlib.nullcontext
        self.engines: dict[str, SttEngine] = {}
        self.clips: list[dict[str, Any]] = []
        #: ``asr`` cases judged by tolerance (see :meth:`note_tolerance`), for the run summary.
        self.unrecorded: list[dict[str, Any]] = []
        self.expected_clips = 0
        #: Models loaded by each pytest-xdist worker (``{"gw0": 1, ...}``), merged by the controller.
        self.model_loads_by_worker: dict[str, int] = {}
        self._bar = None
        self._no_bar = False

    # -- engines ------------------------------------------------------------------------------

    @staticmethod
    def engine_key(settings: dict[str, Any] | None = None) -> str:
        """The key of :attr:`engines` for ``settings``: the engine name and its settings as the
        engine resolves them (:func:`~pytest_asrbench.asr.engine.engine_setting_key`), so
        settings written differently that decode alike share one engine and one model load.

        Raises:
            EngineNotFoundError, EngineSettingsError: an unknown engine or a bad setting.
        """
        return engine_setting_key(settings)

    def engine_for(self, settings: dict[str, Any] | None = None) -> SttEngine:
        """The engine for ``settings`` (``name`` selects the engine, the rest are its settings),
        created once per distinct resolved setting (:meth:`engine_key`)."""
        key = self.engine_key(settings)
        if key not in self.engines:
            settings = dict(settings or {})
            self.engines[key] = create_engine(settings.pop("name", DEFAULT_ENGINE), **settings)
        return self.engines[key]

    def model_loads(self) -> int:
        """How many of this process's engines loaded their model (each loads at most once)."""
        return sum(1 for engine in self.engines.values() if getattr(engine, "load_seconds", None) is not None)

    @property
    def main_engine(self) -> SttEngine | None:
        """The engine that decoded (or looked up) the most clips, for the run record."""
        if not self.engines:
            return None
        counts = {k: sum(1 for c in self.clips if c.get("engine_key") == k) for k in self.engines}
        return self.engines[max(counts, key=counts.get)]

    # -- transcription ------------------------------------------------------------------------

    def transcribe(self, audio: Path, language: str, settings: dict | None = None) -> ClipRun:
        """Transcribe one file through the cache; ``language`` is any tag (``hi_IN`` -> ``hi``)."""
        engine = self.engine_for(settings)
        return transcribe_with_cache(engine, audio, language, self.cache)

    def note_tolerance(self, *, case: str, host: str, why: str, recorded: list[str], verdict: dict[str, Any]) -> None:
        """Remember that ``case`` was judged by tolerance on ``host`` (its identity name), and
        ``why`` (no native recording of it, or a simulated host); its snapshot records
        ``recorded``, and ``verdict`` (:func:`pytest_asrbench.asr.recordings.judge`) says how
        its transcript compared."""
        self.unrecorded.append({"case": case, "host": host, "why": why, "recorded": recorded, **verdict})

    def add_clip(self, entry: dict[str, Any]) -> None:
        self.clips.append(entry)
        self._advance()

    # -- progress -----------------------------------------------------------------------------

    def _advance(self) -> None:
        """Count one clip on the progress bar. The bar is drawn only for more than
        :data:`PROGRESS_MIN_CLIPS` clips, on stderr, when stderr is a terminal, and it erases
        itself when done (``leave=False``): CI logs, redirected and captured runs stay clean."""
        if self.expected_clips <= PROGRESS_MIN_CLIPS or self._no_bar or not self.show_progress:
            return
        with self._unblock_output():
            if self._bar is None:
                if not _is_terminal(sys.stderr):
                    self._no_bar = True  # a log or a pipe: a bar would only leave \r debris
                    return
                from tqdm import tqdm

                self._bar = tqdm(
                    total=self.expected_clips, desc="asr clips", unit="clip", file=sys.stderr,
                    leave=False, dynamic_ncols=True,
                )
            self._bar.update(1)
            if self._bar.n >= self.expected_clips:
                self.close_progress()

    def close_progress(self) -> None:
        if self._bar is not None:
            with self._unblock_output():
                self._bar.close()
            self._bar = None
