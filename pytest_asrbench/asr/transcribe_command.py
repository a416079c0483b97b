"""``asrbench transcribe``: transcribe clips with an STT engine and print transcripts and timings.

    asrbench transcribe -l hi samples/hi/hi-01.wav
    asrbench transcribe -l en a.wav b.flac --json > run.json     # an asrbench.run/1 record
    asrbench transcribe -l de clip.wav --reference "Guten Morgen" # also score it
    asrbench transcribe -l en long.wav --batch-size 8 --vad       # faster-whisper's batched pipeline

The hypothesis cache is not used unless ``--cache`` is given, so the timings printed are those
of real decoding. Registered in ``pytest_asrbench.cli`` through :func:`add_parser`.

Every clip is tried: a missing, empty, corrupt file or a directory is reported on stderr
(``asrbench transcribe: error: PATH: reason``), the other clips are still transcribed and
printed, and the exit code is 2 when any clip failed. Problems that would hit every clip (the
``asr`` extra missing, a bad engine setting, an unknown language) stop before the first one.

This module imports nothing heavy at import time (the ``asrbench`` command builds its parser
from it even without the ``asr`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench.asr.cli_options import add_engine_arguments, engine_settings


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``transcribe`` subcommand to an argparse ``subparsers`` object."""
    sub = subparsers.add_parser(
        "transcribe",
        help="transcribe audio clips (embedded Whisper base by default) and print timings",
        description="Transcribe audio clips in a forced language, on the CPU, with no network.",
    )
    sub.add_argument("-l", "--language", required=True, help="language of the speech, e.g. hi, en, zh")
    sub.add_argument("audio", nargs="+", type=Path, help="audio files (wav, flac, mp3, ogg ...)")
    sub.add_argument("--json", action="store_true", help="print the asrbench.run/1 run record as JSON")
    add_engine_arguments(sub, spelled_out=False)
    sub.add_argument("--vad", action="store_true", help="apply faster-whisper's VAD filter")
    sub.add_argument("--reference", default=None, help="also score the (single) clip against this reference")
    sub.add_argument("--cache", action="store_true", help="use the hypothesis cache (timings then only cover misses)")
    sub.set_defaults(handler=run_transcribe)
    return sub


def _settings(args: argparse.Namespace) -> dict:
    settings = engine_settings(args)
    if args.vad:
        settings["vad_filter"] = True
    return settings


def run_transcribe(args: argparse.Namespace) -> int:
    """Handler of ``asrbench transcribe``; returns the exit code: 0, or 2 when a clip could not
    be used (after all the others are done) or, raised, when nothing can run at all.

    Ctrl-C raises ``KeyboardInterrupt`` out of here (``asrbench`` turns it into exit 130); the
    progress bar is closed first, and cache entries are written atomically, so none is left
    half-written."""
    from pytest_asrbench.asr.errors import AsrError, require_asr_extra
    from pytest_asrbench.asr.run_record import build_record
    from pytest_asrbench.asr.session import AsrSession

    if args.reference is not None:
        if len(args.audio) != 1:
            raise AsrError("--reference scores one clip; give exactly one audio file")
        from pytest_asrbench.normalize.registry import resolve_language

        resolve_language(args.language)  # UnknownLanguageError before decoding, not after
    command = command_path(args)
    readable = _readable_files(args.audio, command)  # each bad file reported now, before the model loads
    failed_early = len(args.audio) - len(readable)
    if not readable:
        report_line(command, f"none of the {len(args.audio)} audio file(s) can be read (see the errors above)")
        return 2
    args.all_audio, args.audio = args.audio, readable
    require_asr_extra()  # AsrDependencyError: "the ASR engine needs the asr extra ..."
    session = AsrSession(use_cache=args.cache)
    session.expected_clips = len(args.audio)
    settings = _settings(args)
    engine = session.engine_for(settings)  # EngineSettingsError before any clip
    check_language = getattr(engine, "check_language", None)  # optional engine method
    if check_language is not None:
        check_language(args.language)  # AsrLanguageError before any clip
    try:
        entries, failed = _transcribe_all(args, session, settings)
        failed += failed_early
    finally:  # also on Ctrl-C: the bar erases itself instead of leaving debris
        session.close_progress()
    record = build_record(engine, entries, cases_root=Path.cwd(), cache=session.cache)
    if args.json:
        print(json.dumps(record, ensure_ascii=False, indent=2))
    else:
        _print_summary(record)
    if failed:
        report_line(command, f"{failed} of {len(args.all_audio)} audio file(s) could not be transcribed (see the errors "
                             "above)")
        return 2
    return 0


def _readable_files(paths: list[Path], command: str) -> list[Path]:
    """The files of ``paths`` worth loading the model for: each one that is missing, a
    folder, or empty (:func:`~pytest_asrbench.asr.audio.check_audio_file`) is reported on
    stderr (``asrbench transcribe: error: PATH: reason``, ``command`` the prefix) and left out. Decoding may still
    find a file corrupt; that is reported when it is tried."""
    from pytest_asrbench.asr.audio import check_audio_file
    from pytest_asrbench.asr.errors import AudioError

    readable = []
    for path in paths:
        try:
            check_audio_file(path)
        except AudioError as exc:
            report_line(command, str(exc))
        else:
            readable.append(path)
    return readable


def _transcribe_all(args: argparse.Namespace, session, settings: dict) -> tuple[list[dict], int]:
    """Transcribe each file of ``args.audio`` in turn, printing each clip (unless ``--json``);
    returns the clip entries and how many files could not be used (each reported on stderr)."""
    from pytest_asrbench.asr.errors import AsrCacheWarning, AudioError
    from pytest_asrbench.asr.run_record import clip_entry

    entries: list[dict] = []
    failed = 0
    for path in args.audio:
        caught: list = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", AsrCacheWarning)
                run = session.transcribe(path, args.language, settings)
        except AudioError as exc:  # this clip only: report it, go on with the others
            failed += 1
            report_line(command_path(args), str(exc))
            continue
        finally:
            _report_warnings(caught, command_path(args))
        extra = {}
        if args.reference is not None:
            from pytest_asrbench.scoring import score

            result = score(args.reference, run.transcript.text, args.language)
            extra = {"reference": args.reference, "rate": result.rate, "unit": result.unit, "metric": result.metric}
        entry = clip_entry(run, **extra)
        entries.append(entry)
        session.add_clip(entry)
        if not args.json:
            _print_clip(entry)
    return entries, failed


def _report_warnings(caught: list, command: str) -> None:
    """Print the hypothesis cache's warnings as one plain line each; re-emit any other."""
    from pytest_asrbench.asr.errors import AsrCacheWarning

    for warning in caught:
        if issubclass(warning.category, AsrCacheWarning):
            report_line(command, str(warning.message), kind="warning")
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


def _print_clip(entry: dict) -> None:
    flags = f"  [{', '.join(entry['flags'])}]" if entry["flags"] else ""
    timing = (
        "from cache"
        if entry["cached"]
        else f"{entry['latency_seconds']:.2f} s for {entry['duration_seconds']:.2f} s of audio"
    )
    print(f"{entry['source']}: {entry['transcript']}{flags}", flush=True)
    line = f"  {timing}"
    if "rate" in entry:
        rate = "n/a" if entry["rate"] is None else f"{entry['rate']:.2%}"
        line += f"; {'WER' if entry['unit'] == 'word' else 'CER'} {rate}"
    print(line, flush=True)


def _print_summary(record: dict) -> None:
    t = record["timings"]
    load = "no model load" if t["cold_load_seconds"] is None else f"model load {t['cold_load_seconds']:.2f} s"
    parts = [load]
    if t["latency_p50_seconds"] is not None:
        parts.append(f"latency p50 {t['latency_p50_seconds']:.2f} s, p95 {t['latency_p95_seconds']:.2f} s")
    if t["real_time_factor"] is not None:
        parts.append(f"RTF {t['real_time_factor']:.3f}")
    rss = record["peak_rss_bytes"]
    if rss:
        parts.append(f"peak RSS {rss / 2**20:.0f} MiB")
    print("; ".join(parts), file=sys.stdout)
