"""The engine options the ``asrbench`` commands share (``transcribe`` and ``bench run``): one
definition of each flag, its help text and its default, and the engine settings they give.

Imports nothing heavy (the ``asrbench`` command builds its parser from it even without the
``asr`` extra).
"""

from __future__ import annotations

import argparse

from pytest_asrbench._shared.cpus import DEFAULT_THREAD_CAP, default_threads
from pytest_asrbench.asr.engine import DEFAULT_ENGINE, engine_names

#: ``(argparse destination, engine setting)`` of the shared decode options.
DECODE_OPTIONS = (
    ("model", "model"),
    ("beam_size", "beam_size"),
    ("batch_size", "batch_size"),
    ("device", "device"),
    ("threads", "cpu_threads"),
    ("compute_type", "compute_type"),
)


def add_engine_arguments(parser: argparse.ArgumentParser, *, spelled_out: bool) -> None:
    """Add ``--engine``, ``--model``, ``--beam-size``, ``--batch-size``, ``--device``,
    ``--threads`` and ``--compute-type`` to ``parser``.

    Args:
        spelled_out: each option defaults to the default engine's value (``bench run``, whose
            record spells out every setting it ran with); else an option not given is ``None``
            and the engine's own default applies (``transcribe``; :func:`engine_settings`).
    """
    from pytest_asrbench.asr.decode_settings import DecodeSettings

    def default(value):
        return value if spelled_out else None

    threads = default_threads()
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help=f"the engine's entry-point name (default {DEFAULT_ENGINE}; known: "
                             f"{', '.join(engine_names())})")
    parser.add_argument("--model", default=default(DecodeSettings.model),
                        help="a pinned model: base (the default, also 'embedded') or tiny.en; or a CTranslate2 "
                             "model folder, or a model name in the local Hugging Face cache")
    parser.add_argument("--beam-size", type=int, default=default(DecodeSettings.beam_size),
                        help=f"beam width (default {DecodeSettings.beam_size})")
    parser.add_argument("--batch-size", type=int, default=default(DecodeSettings.batch_size),
                        help="1 (default): window by window; N > 1: faster-whisper's batched pipeline, N chunks "
                             "per call")
    parser.add_argument("--device", default=default(DecodeSettings.device),
                        help="cpu (default), cuda or auto (cuda when CTranslate2 finds a GPU)")
    parser.add_argument("--threads", type=int, default=default(threads),
                        help=f"engine CPU threads (default: the CPUs this process may use, at most "
                             f"{DEFAULT_THREAD_CAP}; {threads} here)")
    parser.add_argument("--compute-type", default=default(DecodeSettings.compute_type),
                        help=f"CTranslate2 compute type (default {DecodeSettings.compute_type})")


def engine_settings(args: argparse.Namespace) -> dict:
    """The engine settings of the options :func:`add_engine_arguments` added: ``name`` and
    each decode option given (``--threads`` is ``cpu_threads``)."""
    settings: dict = {"name": args.engine}
    for option, key in DECODE_OPTIONS:
        value = getattr(args, option)
        if value is not None:
            settings[key] = value
    return settings
