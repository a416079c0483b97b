"""NIST sclite's formats from our scores: per language, ``trn`` files whose totals are the run's.

Layout of the output folder (one folder per language and metric, because sclite sums every
line of a file and a file must hold one unit and one rule)::

    README.txt                        which file is which view, the sclite command, the totals
    manifest.json                     the same, for programs (schema asrbench.sclite/1)
    <language>/<metric>/ref.trn       the headline view (the rate the run printed)
    <language>/<metric>/hyp.trn
    <language>/<metric>/alignments.pra
    ko/stt_wer/spaced.ref.trn ...     Korean's second view: characters with spaces
    hi/stt_wer/strict.ref.trn ...     Hindi's second view: the strict alignment, nothing rescued

Which alignment each view is: :mod:`.streams`. Each utterance is written as segments
``<id>.s1``, ``<id>.s2``, ... cut at the edges of the run's alignment spans, so that sclite,
whose alignment costs differ from ours, counts the same substitutions, deletions and
insertions (:mod:`.trn`). So ``sclite -r ref.trn trn -h hyp.trn trn -i rm -s`` reports the
run's totals: S, D, I, the reference length and the rate (sclite's sentence counts are
segments, not utterances).

``raw=True`` writes each utterance's texts as given, split on ASCII whitespace as sclite splits
a line (:func:`.trn.raw_words`), on one line:
sclite then normalizes nothing and aligns with its own costs, so its totals are not the run's;
only the headline ``alignments.pra`` (the run's alignment) goes with them.

``alignments.pra`` follows sclite's ``-o pralign`` layout, one block per utterance::

    id: (en_names-pair)
    Scores: (#C #S #D #I) 4 1 1 0
    REF:  the CAT sat on the MAT
    HYP:  the BAT sat on *** ***
    Eval:     S               D

with errors in upper case (where the script has case) and ``***`` for a missing token; the
alignment and counts are the stream's, and the file ends with their sum and rate.

Every token and id is checked before any file is written (:func:`.trn.token_problem`): a
control character or another token sclite's reader misreads stops the export with the
utterance, the side, the word and the file named, and nothing is written.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench.export.sources import ExportError, Utterance
from pytest_asrbench.export.streams import HEADLINE, Stream, counts_of, streams_of
from pytest_asrbench.export.trn import (SPACE_TOKEN, raw_words, segment_ids, segments, token_problem, trn_line,
                                         trn_token)
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.alignment import Alignment
from pytest_asrbench.scoring.alignment_view import FSI, PDI, SPACE, alignment_columns, display_width

MANIFEST_SCHEMA = "asrbench.sclite/1"
#: How to run sclite on one folder's files (``{ref}``/``{hyp}``: the trn files).
SCLITE_COMMAND = "sclite -r {ref} trn -h {hyp} trn -i rm -s -o sum rsum pralign dtl stdout"
_COUNT_NAMES = ("hits", "substitutions", "deletions", "insertions", "reference_length")


@dataclass(frozen=True)
class Written:
    """The files written and the utterances in them."""

    files: tuple[Path, ...]
    utterances: int


@dataclass
class _Group:
    """The utterances of one language and metric: its streams' lines and totals."""

    unit: str
    utterances: int = 0
    views: dict[str, str] = field(default_factory=dict)  # stream name -> what it is
    ref: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    hyp: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    pra: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    totals: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0] * 5))


def _plain(shown: str) -> str:
    """A token as the alignment view shows it, for a plain-text file: the space mark as
    ``<sp>``, without the bidi isolates a terminal needs around right-to-left tokens."""
    return shown.replace(SPACE, SPACE_TOKEN).replace(FSI, "").replace(PDI, "")


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def pra_block(utterance: Utterance, alignment: Alignment) -> list[str]:
    """The ``pra`` lines of one utterance's alignment (a stream's)."""
    columns = [(_plain(column.reference), _plain(column.hypothesis), column.mark)
               for column in alignment_columns(alignment)]
    widths = [max(display_width(ref), display_width(hyp), 1) for ref, hyp, _ in columns]
    hits, substitutions, deletions, insertions, _ = counts_of(alignment)
    lines = [f"id: ({utterance.id})"]
    if utterance.note:
        lines.append(f";; {utterance.note}")
    lines.append(f"Scores: (#C #S #D #I) {hits} {substitutions} {deletions} {insertions}")
    lines.append("REF:  " + " ".join(_pad(ref, w) for (ref, _, _), w in zip(columns, widths)).rstrip())
    lines.append("HYP:  " + " ".join(_pad(hyp, w) for (_, hyp, _), w in zip(columns, widths)).rstrip())
    lines.append("Eval: " + " ".join(_pad(mark.strip(), w) for (_, _, mark), w in zip(columns, widths)).rstrip())
    return lines


def _checked(tokens, utterance: Utterance, side: str, where: Path) -> list[str]:
    written = [trn_token(token) for token in tokens]
    for number, token in enumerate(written, 1):
        problem = token_problem(token)
        if problem:
            raise ExportError(
                f"{where}: utterance ({utterance.id}): word {number} of its {side} ({token!r}) holds {problem}. "
                f"Nothing was written. Remove it from the {side.removeprefix('raw ')} in the case or run record"
                + (", or export the normalized tokens (without --raw)" if side.startswith("raw") else ""))
    return written


def _file_names(stream: str) -> tuple[str, str, str]:
    prefix = "" if stream == HEADLINE else f"{stream}."
    return f"{prefix}ref.trn", f"{prefix}hyp.trn", f"{prefix}alignments.pra"


def _add(group: _Group, folder: Path, utterance: Utterance, stream: Stream, raw: bool) -> None:
    ref_name, hyp_name, _ = _file_names(stream.name)
    group.views[stream.name] = stream.view
    if raw:
        pieces = [(raw_words(utterance.reference), raw_words(utterance.hypothesis))]
        ids = [utterance.id]
        sides = ("raw reference", "raw hypothesis")
    else:
        pieces = segments(stream.alignment)
        ids = segment_ids(utterance.id, len(pieces))
        sides = ("reference", "hypothesis")
    for (ref, hyp), piece_id in zip(pieces, ids):
        group.ref[stream.name].append(trn_line(_checked(ref, utterance, sides[0], folder / ref_name), piece_id))
        group.hyp[stream.name].append(trn_line(_checked(hyp, utterance, sides[1], folder / hyp_name), piece_id))
    group.pra[stream.name] += pra_block(utterance, stream.alignment) + [""]
    for index, value in enumerate(counts_of(stream.alignment)):
        group.totals[stream.name][index] += value


def _rate(counts) -> float | None:
    return (counts[1] + counts[2] + counts[3]) / counts[4] if counts[4] else None


def _manifest(groups: dict[tuple[str, str], _Group], raw: bool, version: str) -> dict:
    entries = []
    for (language, metric), group in sorted(groups.items()):
        folder = f"{language}/{metric}"
        views = []
        for name, described in group.views.items():
            ref, hyp, pra = (f"{folder}/{file}" for file in _file_names(name))
            counts = group.totals[name]
            views.append({"stream": name, "view": described, "ref": ref, "hyp": hyp, "pra": pra,
                          "counts": dict(zip(_COUNT_NAMES, counts)), "rate": _rate(counts),
                          "sclite": SCLITE_COMMAND.format(ref=ref, hyp=hyp)})
        entries.append({"language": language, "metric": metric, "unit": group.unit,
                        "utterances": group.utterances, "views": views})
    return {"schema": MANIFEST_SCHEMA, "pytest_asrbench": version,
            "tokens": "raw texts as given (sclite aligns them its own way; totals are not the run's)"
            if raw else "the run's normalized tokens, each utterance cut into segments <id>.s<n> at the edges "
                        "of the run's alignment so that sclite counts the run's S, D and I",
            "groups": entries}


def _readme(manifest: dict) -> str:
    lines = [f"pytest-asrbench {manifest['pytest_asrbench']}: files for NIST sclite (SCTK; Debian package sctk).",
             f"Tokens: {manifest['tokens']}.",
             "Each folder holds one language and metric; ref.trn/hyp.trn are the headline view, the rate the run",
             "printed; a second view, where the language has one, has its name before the file name.",
             "alignments.pra: the run's alignment of each utterance (sclite's pralign layout), its sum at the end.",
             "Run from this folder, e.g.:", ""]
    for group in manifest["groups"]:
        for view in group["views"]:
            counts = view["counts"]
            rate = "n/a (no reference tokens)" if view["rate"] is None else f"{100 * view['rate']:.2f}%"
            lines += [f"{group['language']} {group['metric']} ({group['unit']}), {view['stream']}: {view['view']}",
                      f"    {view['sclite']}",
                      f"    run's totals: {group['utterances']} utterances, #C {counts['hits']} "
                      f"#S {counts['substitutions']} #D {counts['deletions']} #I {counts['insertions']} "
                      f"N {counts['reference_length']}, rate {rate}", ""]
    return "\n".join(lines)


def write(utterances: list[Utterance], out: Path, *, raw: bool = False, version: str = "") -> Written:
    """Write the per-language trn and pra files, ``README.txt`` and ``manifest.json`` into
    ``out`` (created), each file atomically, after every token is checked.

    Raises:
        ExportError: a token or id sclite's trn reader cannot take (the message names the
            utterance, side, word and file; nothing is written).
        pytest_asrbench.export.streams.StreamError: a headline stream disagrees with its score.
        pytest_asrbench.errors.AsrbenchError: an utterance's language or metric is unknown.
        OSError: a file cannot be written.
    """
    groups: dict[tuple[str, str], _Group] = {}
    for utterance in utterances:
        problem = token_problem(utterance.id) or (" " in utterance.id and "a space")
        if problem:
            raise ExportError(f"utterance id {utterance.id!r} holds {problem}; rename the case. Nothing was written.")
        result = score(utterance.reference, utterance.hypothesis, utterance.language, utterance.metric)
        key = (result.language, result.metric)
        group = groups.setdefault(key, _Group(result.unit))
        group.utterances += 1
        folder = out / result.language / result.metric
        for stream in streams_of(result):
            if raw and stream.name != HEADLINE:
                continue  # a raw text has one form: the second view's tokens are not written
            _add(group, folder, utterance, stream, raw)
    manifest = _manifest(groups, raw, version)
    contents: dict[Path, str] = {}
    for (language, metric), group in groups.items():
        for name in group.ref:
            ref, hyp, pra = (out / language / metric / file for file in _file_names(name))
            contents[ref] = "\n".join(group.ref[name]) + "\n"
            contents[hyp] = "\n".join(group.hyp[name]) + "\n"
            counts = group.totals[name]
            rate = _rate(counts)
            contents[pra] = "\n".join([
                f";; pytest-asrbench {version}: {language} {metric}, {name}: {group.views[name]}",
                ";; alignments and counts are the run's; trn tokens: " + ("raw texts" if raw else "these"), "",
                *group.pra[name],
                f";; Sum: #C {counts[0]} #S {counts[1]} #D {counts[2]} #I {counts[3]} N {counts[4]} rate "
                + ("n/a (no reference tokens)" if rate is None else f"{rate:.4f}")]) + "\n"
    contents[out / "manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"
    contents[out / "README.txt"] = _readme(manifest) + "\n"
    for path, text in contents.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("utf-8"))
    return Written(tuple(contents), len(utterances))
