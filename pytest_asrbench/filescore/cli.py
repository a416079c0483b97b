"""``asrbench score -l LANG --references REF --hypotheses HYP``: a corpus rate from two files.

    asrbench score -l de --references r.txt --hypotheses h.txt            # plain, one utterance a line
    asrbench score -l en --references ref.trn --hypotheses hyp.trn --format trn
    whisper-run | asrbench score -l hi --references refs.jsonl --hypotheses - --json

Both files are read in one format (:mod:`.formats`: plain, kaldi, trn, jsonl; detected from
the lines unless ``--format`` names it; ``-`` reads standard input) and paired by id, as
``asrbench bench score`` pairs a benchmark: a reference with no hypothesis is scored as all
deletions and listed; a hypothesis with no reference is an error listing the ids
(``--allow-extra`` lists and skips them). The pairs are scored together with
:func:`pytest_asrbench.scoring.score` (the language's normalizer and metric, micro-averaged
corpus rate), then printed: the rate with S/D/I, every rescue of a code-switch or loanword
view, the run's error summary (its most frequent substitution pairs, deletions and
insertions, :mod:`pytest_asrbench.scoring.error_summary`, ``--top N`` of each), and the aligned
view of the worst utterances (most errors first). Errors, the ranking and the aligned views
are those of the headline alignment (:mod:`pytest_asrbench.scoring.headline`: a region the
code-switch rescue counts correct is marked ``R``, not counted). ``--json`` prints the whole
score with each pair's id, ``error_summary`` and, where a metric view sets the headline,
``strict_error_summary`` (the strict alignment's).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.command_messages import command_path, report_line
from pytest_asrbench.errors import InputError
from pytest_asrbench.filescore.formats import FORMATS, Utterance, detect_format, read_utterances, text_lines
from pytest_asrbench.scoring.error_summary import DEFAULT_TOP, ErrorTally

#: Utterances whose aligned view is printed by default.
DEFAULT_WORST = 5
#: Rescue lines of each view the text output shows (``--json`` has them all).
SHOWN_RESCUES = 20
_SHOWN_IDS = 10


@dataclass(frozen=True)
class Paired:
    """Utterances paired by id, in the reference file's order: ``ids``, ``references`` and
    ``hypotheses`` (equal lengths; a missing hypothesis is ``""``), the ``missing`` reference ids
    and the ``extra`` hypothesis ids (skipped)."""

    ids: list[str]
    references: list[str]
    hypotheses: list[str]
    missing: list[str]
    extra: list[str]


def add_arguments(sub: argparse.ArgumentParser) -> None:
    """The file options of ``asrbench score`` (its parser is made in :mod:`pytest_asrbench.cli`)."""
    sub.add_argument("--references", metavar="REF", help="reference transcript file (- for standard input); "
                     "with --hypotheses, replaces the two texts")
    sub.add_argument("--hypotheses", metavar="HYP", help="hypothesis transcript file (- for standard input)")
    sub.add_argument("--format", choices=FORMATS, default=None,
                     help="format of both files: plain (one utterance a line), kaldi (`id text`), trn "
                          "(`text (id)`), jsonl ({\"id\", \"text\"}); default: detected from the lines (files whose "
                          "lines all start with numbers on the same lines need it: plain or kaldi)")
    sub.add_argument("--allow-extra", action="store_true",
                     help="list and skip hypothesis ids with no reference instead of failing")
    sub.add_argument("--worst", type=int, default=DEFAULT_WORST, metavar="N",
                     help=f"aligned view of the N utterances with the most errors (default {DEFAULT_WORST}; 0: none)")
    sub.add_argument("--top", type=int, default=DEFAULT_TOP, metavar="N",
                     help=f"the error summary's N most frequent substitution pairs, deletions and insertions "
                          f"(default {DEFAULT_TOP})")


def _read(name: str, option: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    path = Path(name)
    if path.is_dir():
        raise InputError(f"{option} {name}: a folder; give a transcript file (or - for standard input)")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{option} {name}: no such file") from None
    except OSError as exc:
        raise InputError(f"{option} {name}: cannot read it ({exc.strerror or exc})") from None


def pair_up(references: list[Utterance], hypotheses: list[Utterance], *, allow_extra: bool,
            hypotheses_name: str = "hypotheses") -> Paired:
    """Pair utterances by id (see the module docstring).

    Raises:
        InputError: no reference utterance; a hypothesis id with no reference (without
            ``allow_extra``), the ids listed.
    """
    if not references:
        raise InputError("the references hold no utterance; give a file with one utterance per line")
    known = {utterance.id for utterance in references}
    extra = [utterance.id for utterance in hypotheses if utterance.id not in known]
    if extra and not allow_extra:
        raise InputError(f"{hypotheses_name}: {len(extra)} hypothesis id(s) have no reference: {_listed(extra)}; "
                         "fix the ids (or pass --allow-extra to list and skip them)")
    by_id = {utterance.id: utterance.text for utterance in hypotheses}
    ids = [utterance.id for utterance in references]
    missing = [ident for ident in ids if ident not in by_id]
    return Paired(ids, [utterance.text for utterance in references], [by_id.get(ident, "") for ident in ids],
                  missing, extra)


def _listed(ids: list[str]) -> str:
    return ", ".join(ids[:_SHOWN_IDS]) + (f" ... ({len(ids)} in all)" if len(ids) > _SHOWN_IDS else "")


def _missing_line(missing: list[str], fmt: str, references: int, hypotheses: int, names: tuple[str, str]) -> str:
    """The warning for reference ids without a hypothesis. Plain files pair their lines by
    position, so a shorter hypothesis file is said as such, with what a line missing in
    between would do (every later pair shifted) and how to write the file."""
    if fmt != "plain":
        return f"{len(missing)} reference id(s) without a hypothesis, scored as deletions: {_listed(missing)}"
    return (f"{names[1]} has {hypotheses} line(s), {names[0]} {references}: plain lines pair by position, so "
            f"reference line(s) {_listed(missing)} have no hypothesis and are scored as deletions (a line missing "
            "in between would pair every later line with the wrong reference): write one hypothesis line per "
            "reference line, an empty line where there is no transcript, or give ids (kaldi, trn, jsonl)")


def run(args: argparse.Namespace) -> int:
    """Handler of the file form of ``asrbench score``; 0 when scored.

    Raises:
        InputError: a missing or unreadable file, both files on standard input, a bad line
            (``file:line``), ids that do not pair, ``--worst`` below 0, ``--top`` below 1: exit 2
            with the message.
        UnknownLanguageError, UnknownMetricError: as :func:`pytest_asrbench.scoring.score`.
    """
    from pytest_asrbench.scoring import score
    from pytest_asrbench.scoring.error_summary import error_tally
    from pytest_asrbench.scoring.headline import counting_view, headline_alignments
    from pytest_asrbench.scoring.serialize import score_to_dict

    if args.references is None or args.hypotheses is None:
        raise InputError("give both --references REF and --hypotheses HYP (or two texts without them)")
    if args.references == "-" and args.hypotheses == "-":
        raise InputError("only one of --references and --hypotheses can be - (standard input)")
    if args.worst < 0:
        raise InputError(f"--worst must be 0 or more, not {args.worst}")
    if args.top < 1:
        raise InputError(f"--top must be 1 or more, not {args.top}")
    ref_name, hyp_name = _display(args.references), _display(args.hypotheses)
    ref_lines = text_lines(_read(args.references, "--references"), ref_name)
    hyp_lines = text_lines(_read(args.hypotheses, "--hypotheses"), hyp_name)
    fmt, reason = ((args.format, "named by --format") if args.format
                   else detect_format(ref_lines, hyp_lines, (ref_name, hyp_name), allow_extra=args.allow_extra))
    paired = pair_up(read_utterances(ref_lines, fmt, ref_name), read_utterances(hyp_lines, fmt, hyp_name),
                     allow_extra=args.allow_extra, hypotheses_name=hyp_name)
    result = score(paired.references, paired.hypotheses, args.language, args.metric)
    if paired.missing:
        report_line(command_path(args), _missing_line(paired.missing, fmt, len(ref_lines), len(hyp_lines),
                                                      (ref_name, hyp_name)), kind="warning")
    if paired.extra:
        report_line(command_path(args), f"{len(paired.extra)} hypothesis id(s) without a reference, skipped: "
                                        f"{_listed(paired.extra)}", kind="warning")
    headlines = headline_alignments(result)
    if args.json:
        data = score_to_dict(result)
        for ident, pair in zip(paired.ids, data["pairs"]):
            pair["id"] = ident
        data.update({"format": fmt, "references": ref_name, "hypotheses": hyp_name, "utterances": len(paired.ids),
                     "missing": paired.missing, "extra": paired.extra,
                     "error_summary": ErrorTally.of(headlines).summary(args.top).to_dict()})
        if counting_view(result) is not None:
            data["strict_error_summary"] = error_tally(result, strict=True).summary(args.top).to_dict()
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    for line in render(result, paired, fmt, reason, args.worst, top=args.top, headlines=headlines):
        print(line)
    return 0


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


def render(result, paired: Paired, fmt: str, reason: str, worst: int, *, top: int = DEFAULT_TOP,
           headlines=None) -> list[str]:
    """The text report: corpus rate and counts, the format read, every rescue (at most
    :data:`SHOWN_RESCUES` lines of each view), the error summary (``top`` of each kind), and
    the aligned view of the ``worst`` utterances with the most errors (ties: the higher rate,
    then file order), all in the headline alignments (``headlines``, one per pair;
    :func:`~pytest_asrbench.scoring.headline.headline_alignments` of ``result`` when ``None``)."""
    from pytest_asrbench.scoring.alignment_view import color_wanted
    from pytest_asrbench.scoring.display import describe_error_summary, describe_rescues, legend, render_headline
    from pytest_asrbench.scoring.headline import headline_alignments

    unit = "WER" if result.unit == "word" else "CER"
    words = "word(s)" if result.unit == "word" else "character(s)"
    rate = "n/a (empty references)" if result.rate is None else f"{result.rate:.2%}"
    lines = [f"{unit} {rate} over {len(paired.ids)} utterance(s)  ({result.metric} {result.version}, "
             f"{result.language} config {result.config_version})",
             f"hits {result.hits}  substitutions {result.substitutions}  deletions {result.deletions}  "
             f"insertions {result.insertions}  reference length {result.reference_length} {words}",
             f"format: {fmt} ({reason})"]
    for key, value in result.details.items():
        if isinstance(value, (int, float, str)) or value is None:
            lines.append(f"{key}: {value}")
    lines += describe_rescues(result, ids=paired.ids, limit=SHOWN_RESCUES)
    headlines = headline_alignments(result) if headlines is None else headlines
    lines += describe_error_summary(ErrorTally.of(headlines).summary(top), result.unit)
    counts = [headline.counts() for headline in headlines]
    ranked = sorted((index for index, found in enumerate(counts) if found.errors),
                    key=lambda index: (-counts[index].errors, -(counts[index].rate or 0), index))
    shown = ranked[:worst]
    if shown:
        lines.append(f"worst {len(shown)} of {len(ranked)} utterance(s) with errors:")
    elif worst:
        lines.append("no utterance has an error")
    color, missing = color_wanted(sys.stdout), set(paired.missing)
    for index in shown:
        pair, found = result.pairs[index], counts[index]
        pair_rate = "n/a (empty reference)" if found.rate is None else f"{found.rate:.2%}"
        lines.append(f"{paired.ids[index]}: {unit} {pair_rate} ({found.substitutions} S, {found.deletions} D, "
                     f"{found.insertions} I over {found.reference_length} {words})"
                     + ("  [no hypothesis: scored as deletions]" if paired.ids[index] in missing else ""))
        lines.append(f"  normalized reference:  {pair.normalized_reference}")
        lines.append(f"  normalized hypothesis: {pair.normalized_hypothesis}")
        if headlines[index].rescued:
            lines.append(f"  alignment ({legend(result.unit, headlines[index])}):")
        lines += ["  " + line for line in render_headline(headlines[index], color=color).splitlines()]
    return lines
