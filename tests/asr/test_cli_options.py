"""The engine options ``asrbench transcribe`` and ``asrbench bench run`` share: one definition,
spelled out with the engine's defaults for bench run's record, left to the engine for transcribe;
and the manifest options ``bench run`` and ``asr parity --manifest`` share."""

from __future__ import annotations

import argparse

from pytest_asrbench.asr.cli_options import engine_settings
from pytest_asrbench.cli import build_parser

ENGINE_FLAGS = ("--engine", "--model", "--beam-size", "--batch-size", "--device", "--threads", "--compute-type")


def _subcommand(*path: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for name in path:
        parser = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction)).choices[name]
    return parser


def _options(parser: argparse.ArgumentParser) -> dict[str, tuple]:
    return {flag: (action.help, action.type) for action in parser._actions for flag in action.option_strings}


def test_transcribe_and_bench_run_take_the_same_engine_options():
    transcribe, bench_run = _options(_subcommand("transcribe")), _options(_subcommand("bench", "run"))
    for flag in ENGINE_FLAGS:
        assert transcribe[flag] == bench_run[flag], flag


def test_bench_run_spells_out_the_engine_defaults_and_transcribe_leaves_them_to_the_engine():
    from pytest_asrbench._shared.cpus import default_threads
    from pytest_asrbench.asr.decode_settings import DecodeSettings

    run = build_parser().parse_args(["bench", "run", "--smoke", "--out", "r.json"])
    defaults = DecodeSettings()
    assert (run.model, run.beam_size, run.batch_size, run.device, run.compute_type, run.threads) == (
        defaults.model, defaults.beam_size, defaults.batch_size, defaults.device, defaults.compute_type,
        default_threads())
    transcribe = build_parser().parse_args(["transcribe", "-l", "en", "a.wav"])
    assert engine_settings(transcribe) == {"name": "faster-whisper"}
    given = build_parser().parse_args(["transcribe", "-l", "en", "a.wav", "--threads", "2", "--beam-size", "1"])
    assert engine_settings(given) == {"name": "faster-whisper", "cpu_threads": 2, "beam_size": 1}


def test_bench_run_and_asr_parity_take_the_same_manifest_options():
    bench_run, parity = _options(_subcommand("bench", "run")), _options(_subcommand("asr", "parity"))
    assert bench_run["--audio-root"] == parity["--audio-root"] and bench_run["--language"] == parity["--language"]
    assert "instead of case files" in parity["--manifest"][0] and "instead of" not in bench_run["--manifest"][0]

