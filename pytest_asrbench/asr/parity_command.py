"""``asrbench asr parity``: compare two engine setting sets on a set of clips.

    asrbench asr parity cases/*/asr.yaml                       # sequential vs --b batch_size=8
    asrbench asr parity cases/en/asr.yaml --a cpu_threads=1 --b cpu_threads=2
    asrbench asr parity --manifest m.jsonl --audio-root audio/ --a compute_type=int8 --b compute_type=float32
    asrbench asr parity cases/en/asr.yaml --max-delta 0 --json > parity.json

The clips are the ``asr`` cases of case files (each with its own engine block, language and
metric) or the included rows of a bench manifest (gated as ``bench run`` gates it; language
``zh``, clustered by speaker). ``--a``/``--b SETTING=VALUE`` (repeatable; the value is read as
JSON when it parses, else as a string) lay each arm's settings over the clip's own; with
neither, arm B is ``batch_size=8``. The logic is :mod:`pytest_asrbench.asr.parity`.

Exit codes: 0 parity ok, 1 a second decode differed or a delta exceeded ``--max-delta``, 2 bad
input (an unusable audio file among them: every one is named before any model loads). This
module is CLI glue (plugin layer): it reads case files and manifests and hands plain clips to
the ASR stage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pytest_asrbench._shared.command_messages import command_path
from pytest_asrbench._shared.input_paths import check_input_paths
from pytest_asrbench.errors import InputError


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``asr`` command (subcommand ``parity``) to an argparse ``subparsers`` object."""
    from pytest_asrbench.bench.run.cli import add_manifest_arguments

    asr = subparsers.add_parser("asr", help="ASR engine checks: parity of two engine setting sets")
    commands = asr.add_subparsers(dest="asr_command", required=True)
    sub = commands.add_parser(
        "parity", help="decode clips under two engine setting sets (default: sequential vs batch 8) and compare",
        description="Decode each clip under arm A and arm B (each twice: the determinism check) and report per "
                    "clip (identical transcript, rate of each arm, delta, new hallucination flags) and per unit "
                    "(identical share, corpus-level rates, delta with a cluster bootstrap interval).")
    sub.add_argument("case_files", nargs="*", type=Path, help="case files whose asr cases are the clips")
    add_manifest_arguments(sub, instead_of="case files")
    sub.add_argument("--a", dest="arm_a", action="append", default=[], metavar="SETTING=VALUE",
                     help="an engine setting of arm A (repeatable; default: the clips' own settings)")
    sub.add_argument("--b", dest="arm_b", action="append", default=[], metavar="SETTING=VALUE",
                     help="an engine setting of arm B (repeatable; default: batch_size=8)")
    sub.add_argument("--threads", type=int, default=None, help="cpu_threads of both arms (unless an arm sets it)")
    sub.add_argument("--max-delta", type=float, default=None,
                     help="fail (exit 1) when a clip's absolute rate delta B - A exceeds this")
    sub.add_argument("--no-determinism", action="store_true",
                     help="decode each clip once per arm (the report then says determinism was not checked)")
    sub.add_argument("--seed", type=int, default=0, help="the bootstrap's seed (default 0)")
    sub.add_argument("--resamples", type=int, default=1000, help="cluster bootstrap resamples (default 1000)")
    sub.add_argument("--json", action="store_true", help="print the asrbench.parity/1 report as JSON")
    sub.set_defaults(handler=run_parity_command)
    return asr


def parse_settings(items: list[str], option: str) -> dict[str, Any]:
    """``["batch_size=8", "compute_type=int8"]`` -> ``{"batch_size": 8, "compute_type": "int8"}``.

    Raises:
        InputError: an item without ``=`` or with an empty name.
    """
    settings: dict[str, Any] = {}
    for item in items:
        name, equals, text = item.partition("=")
        if not equals or not name.strip():
            raise InputError(f"{option} {item!r}: give an engine setting as SETTING=VALUE, e.g. {option} batch_size=8")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        settings[name.strip()] = value
    return settings


def case_clips(paths: list[Path]):
    """The :class:`~pytest_asrbench.asr.parity.ParityClip` of every ``asr`` case in ``paths``.

    Raises:
        InputError: a file cannot be read, has faults, or holds no ``asr`` case.
    """
    from pytest_asrbench.asr.parity import ParityClip
    from pytest_asrbench.cases.kinds import get_runner
    from pytest_asrbench.cases.loader import load_case_file

    clips = []
    for path in paths:
        try:
            loaded = load_case_file(path)
        except OSError as exc:
            raise InputError(f"{path}: cannot read the case file ({exc})") from exc
        if loaded.errors:
            raise InputError(f"{path}: the case file has faults; fix them first:\n"
                             + "\n".join(str(error) for error in loaded.errors))
        found = [case for case in loaded.cases if getattr(get_runner(case.kind), "transcribes", False)]
        if not found:
            raise InputError(f"{path}: no asr case in this file (parity needs clips with audio and a reference)")
        for case in found:
            clips.append(ParityClip(
                id=f"{path}::{case.id}", audio=(Path(case.file).parent / case.fields["audio"]).resolve(),
                language=case.language, reference=case.fields["reference"], metric=case.metric,
                settings=dict(case.fields.get("engine") or {})))
    return clips


def manifest_clips(manifest: Path, audio_root: Path, language: str | None = None, *, allow_missing: bool = False):
    """``(clips, missing)``: the clips of a bench manifest's included rows (the gate of ``bench
    run``), clustered by speaker, in the language ``bench run`` would force: ``language``, else
    the sidecar's ``language``, else ``zh`` (the Mandarin pilot's); and ``{row id: audio path}``
    of the rows left out because their audio file is missing (only with ``allow_missing``; the
    command lists them on stderr, as ``bench run --allow-missing`` does, and the JSON report
    names them).

    Raises:
        InputError: ``language`` contradicts the sidecar's.
        ManifestGateError: the gate refuses the corpus; without ``allow_missing``, a missing
            audio file (every one listed).
        UnknownLanguageError: the language has no shipped config.
    """
    from pytest_asrbench.asr.parity import ParityClip
    from pytest_asrbench.bench.manifest.gate import open_manifest
    from pytest_asrbench.bench.run.runner import run_language

    gated = open_manifest(manifest, audio_root, allow_missing=allow_missing)
    tag, _ = run_language(language, gated)
    clips = [ParityClip(id=item.row.id, audio=item.audio_path, language=tag, reference=item.row.reference,
                        cluster=item.row.speaker) for item in gated.included]
    return clips, dict(gated.missing_audio)


def run_parity_command(args: argparse.Namespace) -> int:
    """Handler of ``asrbench asr parity``: 0 parity ok, 1 not (see the module docstring)."""
    from pytest_asrbench.asr.audio import check_audio_files
    from pytest_asrbench.asr.errors import require_asr_extra
    from pytest_asrbench.asr.parity import DEFAULT_ARM_B, Arm, run_parity
    from pytest_asrbench.asr.session import AsrSession
    from pytest_asrbench.bench.run.cli import manifest_inputs, report_missing_audio

    if bool(args.case_files) == (args.manifest is not None):
        raise InputError("give case files, or --manifest and --audio-root (one of the two)")
    if args.manifest is not None and args.audio_root is None:
        raise InputError("--manifest needs --audio-root (the folder its audio paths are under)")
    check_input_paths([*((None, path, "file", "case file (.yaml)", None) for path in args.case_files),
                       *manifest_inputs(args)], InputError)
    if args.threads is not None and args.threads < 0:
        raise InputError("--threads must be >= 0 (0: CTranslate2's own choice)")
    if args.resamples < 1:
        raise InputError(f"--resamples {args.resamples}: give at least 1 (the cluster bootstrap's resamples; "
                         "1000 by default)")
    settings_a, settings_b = parse_settings(args.arm_a, "--a"), parse_settings(args.arm_b, "--b")
    if not settings_a and not settings_b:
        settings_b = dict(DEFAULT_ARM_B)
    if args.threads is not None:
        settings_a.setdefault("cpu_threads", args.threads)
        settings_b.setdefault("cpu_threads", args.threads)
    if args.language is not None and args.manifest is None:
        raise InputError("--language applies to --manifest (a case's language is in its case file)")
    if args.allow_missing and args.manifest is None:
        raise InputError("--allow-missing applies to --manifest (a case's missing audio fails that case)")
    missing = None
    if args.case_files:
        clips = case_clips(args.case_files)
    else:
        clips, missing = manifest_clips(args.manifest, args.audio_root, args.language, allow_missing=args.allow_missing)
        if missing:
            report_missing_audio(command_path(args), missing)
    require_asr_extra()
    check_audio_files(clip.audio for clip in clips)  # AudioError naming every bad file, before any model loads
    session = AsrSession(use_cache=False)

    def progress(done: int, total: int, clip: str) -> None:
        print(f"[{done}/{total}] {clip}", file=sys.stderr, flush=True)

    report = run_parity(clips, Arm("A", settings_a), Arm("B", settings_b), engine_for=session.engine_for,
                        determinism=not args.no_determinism, max_delta=args.max_delta, seed=args.seed,
                        resamples=args.resamples, progress=progress)
    if args.json:
        data = report.to_dict()
        if missing is not None:  # a manifest's rows left out for a missing audio file (--allow-missing)
            data["missing_audio"] = missing
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for line in report.lines():
            print(line)
    return 0 if report.ok else 1
