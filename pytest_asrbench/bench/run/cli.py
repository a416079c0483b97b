"""``asrbench bench run``: run a manifest through the shipping engine and write the record.

    asrbench bench run --manifest m.jsonl --audio-root audio/ --model embedded --script simplified \\
        --model-license MIT --license-source <url> --model-revision <rev> --threads 2 --seed 2026 \\
        [--preregistration prereg.json] [--beam-size 5] [--batch-size 1] [--device cpu] [--hypothesis-cache] \\
        [--executor local|ray [--workers N] [--ray-address ADDRESS]] --out run.json
    asrbench bench run --smoke --out smoke.json

``--out`` is checked before any work. The manifest is gated and the pre-registration checked
before the model loads (a refused corpus is one line, exit 2, with its reason code; rows whose
audio file is missing refuse it with every such file listed, unless ``--allow-missing``, which
lists them on stderr and runs without them, recorded as excluded). Then the
progress (a bar on a terminal, else one line per row) goes to stderr, a summary (four CER views per slice, cost, exclusions,
shortfalls) to stdout, and the record, validated against the shipped schema, to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.input_paths import check_input_paths
from pytest_asrbench._shared.paths import shown_path
from pytest_asrbench.asr.cli_options import add_engine_arguments
from pytest_asrbench.bench.outputs import check_outputs, write_output
from pytest_asrbench.errors import InputError


def add_parser(commands) -> argparse.ArgumentParser:
    """Add ``run`` to the ``bench`` command's subparsers object."""
    run = commands.add_parser(
        "run", help="run a manifest through the engine: the asrbench.bench/1 measurement record",
        description="Gate a manifest (licence/consent provenance, audio paths inside the root), check the "
                    "pre-registration, transcribe every included row in the corpus language with the engine (zh: no script "
                    "conversion), and write the measurement record: the language's views per slice (zh: four CER "
                    "views; others: their metric's WER or CER), critical tokens, cost, host.")
    add_manifest_arguments(run)
    run.add_argument("--script", default="simplified", choices=("simplified", "traditional"),
                     help="the output script target (recorded; the script-normalized view folds to the reference's)")
    run.add_argument("--model-license", default=None, help="the model weights' licence (SPDX id), as stated upstream")
    run.add_argument("--license-source", default=None, help="where that licence is stated (a URL)")
    run.add_argument("--model-revision", default=None, help="the immutable revision you expect (checked, not trusted)")
    run.add_argument("--seed", type=int, default=0, help="recorded; decoding draws nothing (temperature 0); "
                                                          "bench compare uses it as its bootstrap seed")
    add_engine_arguments(run, spelled_out=True)
    run.add_argument("--word-timestamps", action="store_true",
                     help="decode with word timestamps and check them (present, in order): a decode setting")
    run.add_argument("--preregistration", type=Path, default=None, help="pre-registered counts per slice (JSON)")
    run.add_argument("--expect-manifest-sha256", default=None, metavar="HEX",
                     help="refuse the manifest unless its SHA-256 is this")
    run.add_argument("--silence-slice", default="silence", help="the slice whose rows are silence (default silence)")
    run.add_argument("--executor", default="local", choices=("local", "ray"),
                     help="where clips are decoded: this process (local, default) or a pool of Ray actors, one "
                          "engine each (ray: the distributed extra); the record differs only in timings and its "
                          "executor section")
    run.add_argument("--workers", type=int, default=None,
                     help="--executor ray: how many worker actors (default 2), each with --threads engine threads")
    run.add_argument("--ray-address", default=None, metavar="ADDRESS",
                     help="--executor ray: join this Ray cluster (default: start a local Ray for the run)")
    run.add_argument("--hypothesis-cache", action="store_true",
                     help="reuse and store transcripts in the hypothesis cache (a reused clip has no latency: it "
                          "is counted under performance.cached_utterances and left out of latency and RTF)")
    run.add_argument("--smoke", action="store_true", help="write a schema-valid record with no model, audio or network")
    run.add_argument("-o", "--out", type=Path, required=True, help="the record's path (JSON)")
    run.set_defaults(handler=run_command)
    return run


def add_manifest_arguments(parser: argparse.ArgumentParser, *, instead_of: str | None = None) -> None:
    """Add ``--manifest``, ``--audio-root``, ``--language`` (``-l``) and ``--allow-missing``: a
    bench manifest, the folder its audio paths are under, the language its clips are decoded in
    (:func:`~pytest_asrbench.bench.run.runner.run_language`), and whether rows whose audio file
    is missing are excluded (listed by :func:`report_missing_audio`) rather than refused.
    Shared by ``bench run`` and ``asr parity``, whose manifest comes ``instead_of`` its case
    files."""
    alternative = f" (instead of {instead_of})" if instead_of else ""
    parser.add_argument("--manifest", type=Path, default=None,
                        help=f"the manifest JSONL{alternative}; its sidecar is <stem>.meta.json beside it")
    parser.add_argument("--audio-root", type=Path, default=None,
                        help="the folder the manifest rows' audio paths are relative to")
    parser.add_argument("--language", "-l", default=None,
                        help="the manifest's language, its clips' forced decode language (a shipped config's tag); "
                             "default: the sidecar's language, else zh")
    parser.add_argument("--allow-missing", action="store_true",
                        help="run without the manifest rows whose audio file is missing (listed on stderr, recorded "
                             "as excluded: audio-missing); default: refuse before decoding, listing every one")


def manifest_inputs(args: argparse.Namespace) -> list[tuple]:
    """The inputs of :func:`add_manifest_arguments` for
    :func:`~pytest_asrbench._shared.input_paths.check_input_paths`: ``--manifest`` a file,
    ``--audio-root`` a folder (an option not given is skipped)."""
    return [("--manifest", args.manifest, "file", "manifest (JSONL)", None),
            ("--audio-root", args.audio_root, "folder", "audio folder", None)]


def report_missing_audio(command: str, missing: dict[str, str]) -> None:
    """Print on stderr the rows ``--allow-missing`` excluded: ``{row id: audio path}``."""
    report_line(command, f"--allow-missing: {len(missing)} row(s) excluded, their audio file missing (audio-missing):",
                kind=None)
    for ident, audio in missing.items():
        print(f"  {ident}: {audio}", file=sys.stderr)
    sys.stderr.flush()


def _settings(args: argparse.Namespace, argv: list[str]):
    from pytest_asrbench.bench.run.runner import RunSettings

    if not args.smoke and (args.manifest is None or args.audio_root is None):
        raise InputError("--manifest and --audio-root are required (or --smoke for a record with no decode)")
    for name in ("threads", "beam_size", "batch_size", "seed", "workers"):
        if getattr(args, name) is not None and getattr(args, name) < (0 if name == "seed" else 1):
            raise InputError(f"--{name.replace('_', '-')} must be {'>= 0' if name == 'seed' else '>= 1'}")
    return RunSettings(manifest=args.manifest, audio_root=args.audio_root, model=args.model, script=args.script,
                       model_license=args.model_license, license_source=args.license_source,
                       model_revision=args.model_revision, threads=args.threads, seed=args.seed,
                       beam_size=args.beam_size, compute_type=args.compute_type, batch_size=args.batch_size,
                       device=args.device, engine=args.engine,
                       preregistration=args.preregistration, expect_manifest_sha256=args.expect_manifest_sha256,
                       silence_slice=args.silence_slice, executor=args.executor, workers=args.workers,
                       ray_address=args.ray_address, hypothesis_cache=args.hypothesis_cache, argv=argv,
                       language=args.language, word_timestamps=args.word_timestamps,
                       allow_missing=args.allow_missing)


def command_line(args: argparse.Namespace) -> list[str]:
    """The command as run, every option spelled out with its effective value (defaults
    included), so the record says how to repeat it."""
    words = ["asrbench", "bench", "run"]
    for option in ("manifest", "audio_root", "language", "model", "script", "model_license", "license_source",
                   "model_revision", "threads", "seed", "beam_size", "compute_type", "batch_size", "device", "engine",
                   "preregistration", "expect_manifest_sha256", "silence_slice", "executor", "workers",
                   "ray_address"):
        value = getattr(args, option)
        if value is not None:
            words += [f"--{option.replace('_', '-')}", str(value)]
    if args.word_timestamps:
        words.append("--word-timestamps")
    if args.hypothesis_cache:
        words.append("--hypothesis-cache")
    if args.allow_missing:
        words.append("--allow-missing")
    if args.smoke:
        words.append("--smoke")
    return [*words, "--out", str(args.out)]


def _rate(view: dict | None) -> str:
    return "-" if view is None or view["rate"] is None else f"{view['rate']:.4f}"


def _drivers(record: dict) -> list[str]:
    """The clips that drive the overall rate of the primary view, when it is above 100% or a
    few clips hold most of its errors (:mod:`pytest_asrbench.scoring.rate_drivers`)."""
    from pytest_asrbench.scoring.rate_drivers import UtteranceErrors, driver_lines, rate_drivers

    primary = record["metrics"]["primary_view"]
    counts = [UtteranceErrors(u["id"], view["substitutions"] + view["deletions"] + view["insertions"],
                              view["insertions"], view["reference_length"])
              for u in record["utterances"] if (view := u["views"].get(primary)) is not None]
    drivers = rate_drivers(counts)
    if drivers is None:
        return []
    return driver_lines(f"overall {primary}", drivers, record["metrics"]["unit"], "clip",
                        "each clip's counts: the record's utterances")


def summary(record: dict) -> list[str]:
    """The lines printed after a run: views per slice, the clips that drive the overall rate
    (when it is above 100% or held by a few clips), cost, exclusions, validity."""
    metrics = record["metrics"]
    names = metrics["views"]
    rows = [["slice", *names]]
    for name, views in [*metrics["slices"].items(), ("overall", metrics["overall"])]:
        rows.append([name, *(_rate(views[view]) for view in names)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
             for row in rows]
    lines += _drivers(record)
    perf, corpus = record["performance"], record["corpus"]
    if not record["smoke"]:
        lines.append(f"cold load {perf['cold_load_seconds']} s, latency p50 {perf['latency_p50_seconds']} s / p95 "
                     f"{perf['latency_p95_seconds']} s, RTF {perf['real_time_factor']}, {perf['cpu_core_seconds']} "
                     f"core-s, peak RSS {_mebibytes(perf['peak_rss_bytes'])}")
    if corpus["exclusions"]:
        lines.append("excluded: " + ", ".join(f"{reason} {count}" for reason, count in corpus["exclusions"].items()))
    critical = record["critical_tokens"]
    lines.append("critical tokens failed: " + ", ".join(f"{c} {v['failed']}/{v['total']}" for c, v in critical.items()))
    lines.append("valid for a claim" if record["valid_for_claim"]
                 else "NOT valid for a claim: " + "; ".join(record["validity_reasons"]))
    return lines


class _Progress:
    """The run's progress on stderr: a tqdm bar on a terminal, else one ``[done/total]`` line
    per scored row (a log or a pipe gets no carriage-return debris)."""

    def __enter__(self):
        self._bar = None
        self._terminal = sys.stderr.isatty()
        return self

    def __call__(self, done: int, total: int) -> None:
        if not self._terminal:
            print(f"[{done}/{total}]", file=sys.stderr, flush=True)
            return
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc="bench run", unit="clip", file=sys.stderr, dynamic_ncols=True)
        self._bar.update(done - self._bar.n)

    def __exit__(self, *exc_info) -> None:
        if self._bar is not None:
            self._bar.close()


def run_command(args: argparse.Namespace) -> int:
    """Handler of ``asrbench bench run``: 0 when the record was written.

    Raises:
        AsrbenchError subclasses (OutputPathError, ManifestGateError with its reason code,
        ManifestFormatError, ManifestHashError, PreregistrationError, InputError, AsrError):
        reported by ``asrbench`` with exit code 2.
    """
    from pytest_asrbench.bench.run.schema import check_record

    check_outputs([("--out", args.out, "file", "run.json")])
    settings = _settings(args, command_line(args))
    check_input_paths([*manifest_inputs(args),
                       ("--preregistration", args.preregistration, "file", "pre-registration (JSON)", None)], InputError)
    if args.smoke:
        from pytest_asrbench.bench.run.smoke import smoke_record

        record = smoke_record(settings)
    else:
        from pytest_asrbench.bench.run.runner import run_bench

        with _Progress() as progress:
            record = run_bench(settings, progress=progress,
                               on_missing_audio=lambda missing: report_missing_audio(command_path(args), missing))
    check_record(record, "the record just made")
    for line in summary(record):
        print(line)
    write_output("--out", args.out, (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    print(f"record -> {shown_path(args.out)}")
    return 0


def _mebibytes(size: int | None) -> str:
    """``size`` bytes as MiB for the text summary (the record keeps the bytes)."""
    return "unmeasured" if size is None else f"{size / 2**20:,.0f} MiB"
