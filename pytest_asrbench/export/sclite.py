"""NIST sclite's formats from our scores: ``ref.trn``/``hyp.trn`` and an alignment ``.pra``.

``trn`` (sclite's ``infmts``): one utterance per line, its tokens separated by spaces and its
id in parentheses at the end: ``the cat sat (en_names-pair)``. We write the *normalized*
tokens our scorer aligned (``raw=True`` writes the texts as given), so ``sclite -r ref.trn trn
-h hyp.trn trn -i rm`` aligns the same tokens we did. Character-scored languages get one
token per character; a space kept as a token (Korean CER) is written ``<sp>``.

``alignments.pra`` follows sclite's ``-o pralign`` layout, one block per utterance::

    id: (en_names-pair)
    Scores: (#C #S #D #I) 4 1 1 0
    REF:  the CAT sat on the MAT
    HYP:  the BAT sat on *** ***
    Eval:     S               D

with errors in upper case (where the script has case) and ``***`` for a missing token;
the alignment and counts are ours (the score the cases assert), so they match our rates.
A summary per language ends the file.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench.export.sources import Utterance
from pytest_asrbench.scoring import score
from pytest_asrbench.scoring.alignment_view import FSI, PDI, SPACE, alignment_columns, display_width

SPACE_TOKEN = "<sp>"


@dataclass(frozen=True)
class Written:
    """The files written and the utterances in them."""

    files: tuple[Path, ...]
    utterances: int


def _trn_token(token: str) -> str:
    return SPACE_TOKEN if token == " " else token


def _plain(shown: str) -> str:
    """A token as the alignment view shows it, for a plain-text file: the space mark as
    ``<sp>``, without the bidi isolates a terminal needs around right-to-left tokens."""
    return shown.replace(SPACE, SPACE_TOKEN).replace(FSI, "").replace(PDI, "")


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def pra_block(utterance: Utterance, result) -> list[str]:
    """The ``pra`` lines of one scored utterance (``result``: its Score)."""
    pair = result.pairs[0]
    columns = [(_plain(column.reference), _plain(column.hypothesis), column.mark)
               for column in alignment_columns(pair.alignment)]
    widths = [max(display_width(ref), display_width(hyp), 1) for ref, hyp, _ in columns]
    lines = [f"id: ({utterance.id})"]
    if utterance.note:
        lines.append(f";; {utterance.note}")
    lines.append(f"Scores: (#C #S #D #I) {pair.hits} {pair.substitutions} {pair.deletions} {pair.insertions}")
    if result.rate != pair.rate:  # a view moved the rate (Hindi's code-switch rescue)
        lines.append(f";; {result.metric} rate {result.rate:.4f} after its views; the alignment rate is {pair.rate:.4f}")
    lines.append("REF:  " + " ".join(_pad(ref, w) for (ref, _, _), w in zip(columns, widths)).rstrip())
    lines.append("HYP:  " + " ".join(_pad(hyp, w) for (_, hyp, _), w in zip(columns, widths)).rstrip())
    lines.append("Eval: " + " ".join(_pad(mark.strip(), w) for (_, _, mark), w in zip(columns, widths)).rstrip())
    return lines


def write(utterances: list[Utterance], out: Path, *, raw: bool = False, version: str = "") -> Written:
    """Write ``ref.trn``, ``hyp.trn`` and ``alignments.pra`` into ``out`` (created), atomically.

    Raises:
        pytest_asrbench.errors.AsrbenchError: an utterance's language has no normalizer.
        OSError: a file cannot be written.
    """
    out.mkdir(parents=True, exist_ok=True)
    ref_lines, hyp_lines = [], []
    pra = [f";; pytest-asrbench {version} alignments in sclite's pralign layout; counts and alignment are "
           "pytest-asrbench's own score", ";; " + ("raw texts" if raw else "normalized tokens"), ""]
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # C S D I N
    for utterance in utterances:
        result = score(utterance.reference, utterance.hypothesis, utterance.language, utterance.metric)
        pair = result.pairs[0]
        if raw:
            reference, hypothesis = utterance.reference.split(), utterance.hypothesis.split()
        else:
            reference = [_trn_token(t) for t in pair.alignment.reference]
            hypothesis = [_trn_token(t) for t in pair.alignment.hypothesis]
        ref_lines.append(f"{' '.join(reference)} ({utterance.id})")
        hyp_lines.append(f"{' '.join(hypothesis)} ({utterance.id})")
        pra += pra_block(utterance, result) + [""]
        total = totals[f"{utterance.language} {result.unit}"]
        for index, value in enumerate((pair.hits, pair.substitutions, pair.deletions, pair.insertions,
                                       pair.reference_length)):
            total[index] += value
    pra.append(";; Sum per language (corpus-level rate = (S + D + I) / N)")
    for key, (hits, subs, dels, ins, length) in sorted(totals.items()):
        rate = f"{(subs + dels + ins) / length:.4f}" if length else "n/a (no reference tokens)"
        pra.append(f";; {key}: #C {hits} #S {subs} #D {dels} #I {ins} N {length} rate {rate}")
    files = (out / "ref.trn", out / "hyp.trn", out / "alignments.pra")
    for path, lines in zip(files, (ref_lines, hyp_lines, pra)):
        write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return Written(files, len(utterances))
