"""``asrbench bench score``: score hypothesis folders against the benchmark's references.

    asrbench bench score --refs refs/ --hyps hypotheses/ [--language LANG] [--metric NAME]
        [--sets fleurs gs2 ...] [--json scores.json] [--markdown scores.md] [--seed 0]
        [--resamples 1000] [--compare other_hyps/] [--allow-extra]

The language is ``--language`` or the ``language`` of the sets' sidecars ``<set>.meta.json``
(:mod:`pytest_asrbench.bench.scoring.language`); Thai is scored with ``th_bench_cer``, every
other language with its metric through ``score()`` (``--metric``, default ``stt_wer``).
Prints a table per set and overall (clips, clusters, WER or CER by the metric's unit, S/D/I,
95% cluster bootstrap interval, missing and extra ids; with ``--compare`` the second
system's rate, the paired
difference, its interval and the share of resamples in which the second system is better),
under it the clips that drive a rate above 100% or held by a few clips
(:mod:`pytest_asrbench.bench.scoring.drivers`, as the run summary names cases),
lists missing ids on stderr (and, without ``--sets``, hypothesis files no reference set has),
and writes the record (``--json``) and a Markdown table
(``--markdown``) atomically; both paths are checked before any work (their folder must
exist; a folder or a read-only place is refused: :mod:`pytest_asrbench.bench.outputs`). A
progress bar (tqdm, on a terminal only) appears when the bootstrap runs for more than two seconds. Errors (bad JSONL lines, unknown sets, empty or
missing hypothesis files, ids with no reference) exit 2 with the message.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench._shared.input_paths import check_input_paths
from pytest_asrbench._shared.paths import shown_path
from pytest_asrbench.bench.errors import BenchFileNotFoundError
from pytest_asrbench.bench.outputs import check_outputs, write_output
from pytest_asrbench.stats.bootstrap import DEFAULT_RESAMPLES

#: Seconds before the progress bar shows itself.
PROGRESS_DELAY = 2.0


def add_parser(commands) -> argparse.ArgumentParser:
    """Add ``score`` to the ``bench`` command's subparsers object (made in
    :mod:`pytest_asrbench.bench.cli`)."""
    score = commands.add_parser(
        "score", help="per-set corpus WER or CER with S/D/I and 95%% cluster bootstrap intervals",
        description="Score hypotheses/<set>.jsonl ({id, text}) against refs/<set>.jsonl ({id, text, cluster}) "
                    "in the sets' language (--language, or \"language\" in <set>.meta.json): Thai with "
                    "th_bench_cer (both sides cleaned with th-bench-v1, spaces removed), any other language with "
                    "its metric through score() (--metric, default stt_wer); corpus rate per set and overall, a "
                    "95% cluster bootstrap interval, and with --compare the paired difference of a second system.")
    score.add_argument("--refs", required=True, type=Path, help="folder of <set>.jsonl references")
    score.add_argument("--hyps", required=True, type=Path, help="folder of <set>.jsonl hypotheses")
    score.add_argument("--language", "-l", default=None, metavar="LANG",
                       help="language of the sets (default: the \"language\" of each set's <set>.meta.json)")
    score.add_argument("--metric", default=None, metavar="NAME",
                       help="th_bench_cer (Thai's default), stt_wer (every other language's default) or cer")
    score.add_argument("--sets", nargs="+", metavar="SET", default=None, help="sets to score (default: every reference file)")
    score.add_argument("--compare", type=Path, default=None, metavar="OTHER_HYPS",
                       help="a second system's hypotheses folder: paired bootstrap of its rate minus --hyps'")
    score.add_argument("--json", type=Path, default=None, help="write the scores record here")
    score.add_argument("--markdown", type=Path, default=None, help="write a Markdown table here")
    score.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0; same seed, same intervals)")
    score.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES,
                       help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})")
    score.add_argument("--allow-extra", action="store_true",
                       help="list and skip hypothesis ids with no reference instead of failing")
    score.set_defaults(handler=run_score)
    return score


class _Bar:
    """A tqdm bar on stderr when it is a terminal (shown after PROGRESS_DELAY seconds); else nothing."""

    def __init__(self, total: int):
        self.bar = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="resample", desc="bootstrap", delay=PROGRESS_DELAY, leave=False)

    def update(self, count: int) -> None:
        if self.bar is not None:
            self.bar.update(count)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def unmatched_hypothesis_files(folder: Path | None, names: list[str], option: str) -> list[str]:
    """A warning line naming the ``<set>.jsonl`` files of ``folder`` (``option``'s) that no
    reference set has, so a misnamed file is not left out silently; empty when there are none
    (or no folder)."""
    if folder is None:
        return []
    unmatched = sorted(path.name for path in Path(folder).glob("*.jsonl") if path.name[:-6] not in names)
    if not unmatched:
        return []
    return [f"{option} {folder}: {len(unmatched)} hypothesis file(s) with no reference set, not scored: "
            f"{', '.join(unmatched)} (the reference sets: {', '.join(names)}; rename the file to its set's name)"]


def run_score(args: argparse.Namespace) -> int:
    """Handler of ``asrbench bench score``: 0 when every set was scored.

    Every input folder (``--refs``, ``--hyps``, ``--compare``: missing, or a file given for
    the folder) and every output path is checked before anything is read (one line, exit 2;
    no folder is created); a write that still fails at the end is one line too.

    Raises:
        AsrbenchError subclasses (OutputPathError, UnknownSetError, HypothesesError, JsonlFormatError,
        BenchFileNotFoundError, SetLanguageError (no language, or languages that disagree),
        UnknownLanguageError, UnknownMetricError, InputError for a bad seed or resample count): reported by
        ``asrbench`` with exit code 2.
    """
    import pytest_asrbench.bench.scoring.report as report
    from pytest_asrbench.bench.scoring.drivers import driver_lines_of
    from pytest_asrbench.bench.scoring.language import benchmark_language, describe, measure_for
    from pytest_asrbench.bench.scoring.corpus import bootstrap_passes, resolve_sets, score_benchmark

    check_input_paths([("--refs", args.refs, "folder", "references folder",
                        f"build it with asrbench refs build --out {args.refs}"),
                       ("--hyps", args.hyps, "folder", "hypotheses folder (one <set>.jsonl per set)", None),
                       ("--compare", args.compare, "folder", "hypotheses folder (one <set>.jsonl per set)", None)],
                      BenchFileNotFoundError)
    check_outputs([("--json", args.json, "file", "scores.json"), ("--markdown", args.markdown, "file", "scores.md")])
    names = resolve_sets(args.refs, args.sets)
    measure = measure_for(benchmark_language(args.refs, names, args.language), args.metric)
    bar = _Bar(args.resamples * bootstrap_passes(args.refs, names))
    try:
        scores = score_benchmark(args.refs, args.hyps, names, compare_dir=args.compare, seed=args.seed,
                                 resamples=args.resamples, allow_extra=args.allow_extra, progress=bar.update,
                                 measure=measure)
    finally:
        bar.close()
    described = describe(measure)
    print(report.terminal_table(scores))
    shown = f"signature {described['signature']}" if "signature" in described else f"language {measure.language}"
    print(f"{described['name']} {described['version']} ({shown}); "
          f"95% cluster bootstrap, {scores.resamples} resamples, seed {scores.seed}")
    for line in driver_lines_of(scores):
        print(line)
    for result in scores.sets:
        for label, system in (("", result.system), (" (compare)", result.other)):
            if system is not None and system.missing:
                shown = ", ".join(system.missing[:10]) + (" ..." if len(system.missing) > 10 else "")
                report_line(command_path(args), f"{result.name}{label}: {len(system.missing)} reference id(s) without a "
                                                f"hypothesis, scored as deletions: {shown}", kind="warning")
            if system is not None and system.extra:
                report_line(command_path(args), f"{result.name}{label}: {len(system.extra)} hypothesis id(s) without a "
                                                f"reference, skipped: {', '.join(system.extra[:10])}", kind="warning")
    if args.sets is None:
        for option, folder in (("--hyps", args.hyps), ("--compare", args.compare)):
            for line in unmatched_hypothesis_files(folder, names, option):
                report_line(command_path(args), line, kind="warning")
    if args.json is not None:
        data = report.record(scores, described, str(args.refs), str(args.hyps),
                             None if args.compare is None else str(args.compare))
        write_output("--json", args.json, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        print(f"scores -> {shown_path(args.json)}")
    if args.markdown is not None:
        write_output("--markdown", args.markdown, report.markdown_table(scores, described).encode("utf-8"))
        print(f"table -> {shown_path(args.markdown)}")
    return 0
