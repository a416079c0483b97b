"""Transcript files read one way for ``asrbench score --references REF --hypotheses HYP``.

Four formats, each a list of ``(id, text)`` utterances in file order:

- ``plain``: one utterance per line; its id is its line number (``"1"``, ``"2"`` ...); an empty
  line is an empty utterance;
- ``kaldi``: ``<id> <text>`` (Kaldi's ``text`` file: the first whitespace-separated word is the
  id, the rest the text, possibly empty);
- ``trn``: ``<text> (<id>)`` (NIST sclite's ``trn``: the id in parentheses ends the line);
- ``jsonl``: one JSON object per line with string ``id`` and ``text`` (other keys ignored), read
  with the package's one JSONL reader (:mod:`pytest_asrbench._shared.jsonl`: no byte order
  mark, each key once per object).

Every file is UTF-8; ids are unique within a file. :func:`detect_format` picks a format from
the two files' lines when ``--format`` does not name one, and says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_asrbench._shared.jsonl import json_line, jsonl_lines
from pytest_asrbench.errors import InputError

#: The formats :func:`read_utterances` reads, in the order ``--format`` lists them.
FORMATS = ("plain", "kaldi", "trn", "jsonl")
_TRN_LINE = re.compile(r"^(?P<text>.*?)\s*\((?P<id>[^()\s]+)\)\s*$")
#: A Kaldi utterance id: a word holding a digit, ``_`` or ``-`` (``utt001``, ``spk1-0001``).
_KALDI_ID = re.compile(r"^\S*[\d_\-]\S*$")
#: A first word that is also a number of running text: digits, possibly grouped or split by
#: ``.``, ``,`` or ``:`` (``20``, ``0001``, ``1.000``, ``3,5``, ``12:30``).
_NUMERAL = re.compile(r"^\d+(?:[.,:]\d+)*$")


class TranscriptFormatError(InputError):
    """A transcript file cannot be read in its format (``file:line`` and what to fix)."""


@dataclass(frozen=True, slots=True)
class Utterance:
    """One utterance of a transcript file: its id, its text and its 1-based line."""

    id: str
    text: str
    line: int


def text_lines(data: bytes, name: str) -> list[str]:
    """The lines of a transcript file's bytes (UTF-8, no byte order mark; a final newline ends
    the last line, a ``\\r`` before it is dropped).

    Raises:
        TranscriptFormatError: a byte order mark, bytes that are not UTF-8, or a ``\\r`` inside a
            line (a file with old Mac line endings would otherwise read as one utterance).
    """
    lines = [line.removesuffix("\r") for line in jsonl_lines(data, name, TranscriptFormatError)]
    for number, line in enumerate(lines, 1):
        if "\r" in line:
            raise TranscriptFormatError(
                f"{name}:{number}: a carriage return (\\r) inside the line: lines end with \\n (or \\r\\n), so this "
                "would be one utterance; convert the line endings (e.g. tr '\\r' '\\n' < old.txt > new.txt)")
    return lines


def detect_format(references: list[str], hypotheses: list[str],
                  names: tuple[str, str] = ("the references", "the hypotheses"), *,
                  allow_extra: bool = False) -> tuple[str, str]:
    """``(format, reason)`` for the line lists of the reference and hypothesis files, each
    file judged on its own lines, then the two compared.

    A file is ``jsonl`` when every non-empty line starts with ``{``; ``trn`` when every
    non-empty line ends with ``(<id>)``; ``kaldi`` when every non-empty line's first word looks
    like an utterance id (holds a digit, ``_`` or ``-``) and those words are unique; else
    ``plain``. Two files read as ``kaldi`` none of whose hypothesis ids is a reference id are
    ``plain`` (their first words are text, not ids); when some are and some are not, the files
    are ambiguous and refused, unless ``allow_extra`` (``--allow-extra``: the user expects
    hypothesis ids without a reference, which only Kaldi ids can be) reads them as ``kaldi``. Two files read as ``kaldi`` whose every id on both sides is a
    number (``20 Euro bitte``, ``3 Kinder``) and whose hypothesis ids stand at the same line
    positions as the reference ids are refused too: they pair the same way whether the numbers
    are ids (``kaldi``, the numbers not scored) or words (``plain``, scored), so the rate depends
    on a reading only the user knows. sclite never guesses (its ``-i`` names the format) and
    jiwer reads plain lines, so neither reading is taken silently: ``--format`` names it.

    Raises:
        TranscriptFormatError: a file has no line at all (an empty file is never scored as all
            deletions or insertions; a plain file's empty line is an empty utterance); the two files read as different formats; a file whose
            every line starts with an utterance id repeats one (both lines named); two files
            read as ``kaldi`` share some ids but not all the hypothesis ids. Each names
            ``--format`` for a file that is meant otherwise; two files read as ``kaldi`` whose ids
            are all numbers at the same line positions (:data:`AMBIGUOUS_NUMBERS`), the first
            ones named, asking for ``--format plain`` or ``--format kaldi``.
    """
    found = [_file_format(lines, name) for lines, name in zip((references, hypotheses), names)]
    (ref_format, ref_ids), (hyp_format, hyp_ids) = found
    if ref_format != hyp_format:
        raise TranscriptFormatError(
            f"{names[0]} read as {ref_format} ({_WHY[ref_format]}) but {names[1]} as {hyp_format} "
            f"({_WHY[hyp_format]}): write both files in one format, or name it with --format "
            f"({', '.join(FORMATS)})")
    if ref_format == "kaldi" and not set(hyp_ids) <= set(ref_ids):
        unmatched = [ident for ident in hyp_ids if ident not in set(ref_ids)]
        if len(unmatched) < len(hyp_ids) and allow_extra:
            return "kaldi", (f"every line starts with a unique utterance id; {len(unmatched)} hypothesis id(s) "
                             "are not reference ids (--allow-extra)")
        if len(unmatched) < len(hyp_ids):
            # Some ids pair up and some do not: reading the files as plain text would score the
            # ids as words and pair lines by position, a quietly wrong rate. Ask which is meant.
            raise TranscriptFormatError(
                f"{names[0]} and {names[1]} both start every line with an utterance id and "
                f"{len(hyp_ids) - len(unmatched)} of the {len(hyp_ids)} hypothesis ids are reference ids, but "
                f"{len(unmatched)} are not ({', '.join(unmatched[:5])}{' ...' if len(unmatched) > 5 else ''}): "
                f"fix those ids, or name the format: --format kaldi (an unmatched hypothesis id is then an "
                f"error unless --allow-extra) or --format plain (the first words are text)")
        return "plain", ("first words look like ids but none of the hypotheses' is a reference id: one "
                         "utterance per line, numbered from 1")
    if ref_format == "kaldi" and _numbers_in_line_order(ref_ids, hyp_ids):
        shown = ", ".join(hyp_ids[:3]) + (" ..." if len(hyp_ids) > 3 else "")
        raise TranscriptFormatError(
            f"{names[0]} and {names[1]}: {AMBIGUOUS_NUMBERS} ({shown}), so they read both as Kaldi `id text` "
            "(the numbers are utterance ids, not scored) and as plain text (the numbers are words, scored), and "
            "the rates differ: name the format: --format plain (one utterance per line) or --format kaldi")
    return ref_format, _WHY[ref_format]


#: Why :func:`detect_format` refuses two Kaldi-looking files of numbers (its message says it).
AMBIGUOUS_NUMBERS = ("every line of both files starts with a number and the hypotheses' numbers stand on the "
                     "same lines as the references'")


def _numbers_in_line_order(ref_ids: list[str], hyp_ids: list[str]) -> bool:
    """True when every id of both files is a number (:data:`_NUMERAL`) and each hypothesis id is
    the reference id at its line position: pairing by id and by position agree."""
    return (all(_NUMERAL.match(ident) for ident in (*ref_ids, *hyp_ids))
            and hyp_ids == ref_ids[:len(hyp_ids)])


_WHY = {
    "jsonl": "every line is a JSON object",
    "trn": "every line ends with (<id>)",
    "kaldi": "every line starts with a unique utterance id",
    "plain": "no line format matched: one utterance per line, numbered from 1",
}


def _file_format(lines: list[str], name: str) -> tuple[str, list[str]]:
    """One file's format and, for ``kaldi``, its ids in order (see :func:`detect_format`)."""
    if not lines:
        raise TranscriptFormatError(f"{name}: no utterance (the file is empty): a file with nothing to score "
                                    "is never read as all deletions or insertions; give the transcripts (an "
                                    "empty line is an empty utterance in a plain file)")
    numbered = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    if not numbered:
        return "plain", []
    if all(line.lstrip().startswith("{") for _, line in numbered):
        return "jsonl", []
    if all(_TRN_LINE.match(line) for _, line in numbered):
        return "trn", []
    firsts = [(number, line.split()[0]) for number, line in numbered]
    if not all(_KALDI_ID.match(word) for _, word in firsts):
        return "plain", []
    seen: dict[str, int] = {}
    for number, word in firsts:
        if word in seen:
            raise TranscriptFormatError(
                f"{name}:{number}: repeated id {word!r} (first on line {seen[word]}): every line starts with an "
                "utterance id, so the file reads as Kaldi `id text`, where ids are unique; fix the id, or give "
                "--format plain if the first words are text")
        seen[word] = number
    return "kaldi", [word for _, word in firsts]


def read_utterances(lines: list[str], fmt: str, name: str) -> list[Utterance]:
    """The utterances of a transcript file's ``lines`` in format ``fmt`` (one of :data:`FORMATS`).

    Raises:
        TranscriptFormatError: a line that does not fit the format (named ``name:line``), an
            empty line in a format with ids, or a repeated id (both lines named).
        ValueError: ``fmt`` is not one of :data:`FORMATS`.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown transcript format {fmt!r}; known: {', '.join(FORMATS)}")
    if fmt == "plain":
        return [Utterance(str(number), line, number) for number, line in enumerate(lines, start=1)]
    found: list[Utterance] = []
    first: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        where = f"{name}:{number}"
        if not line.strip():
            raise TranscriptFormatError(f"{where}: an empty line; every {fmt} line is one utterance with its id "
                                        "(remove the line, or give the file as --format plain)")
        ident, text = _parse(line, fmt, where)
        if ident in first:
            raise TranscriptFormatError(f"{where}: id {ident!r} repeats line {first[ident]}; ids must be unique "
                                        "in a file")
        first[ident] = number
        found.append(Utterance(ident, text, number))
    return found


def _parse(line: str, fmt: str, where: str) -> tuple[str, str]:
    if fmt == "kaldi":
        parts = line.split(None, 1)
        return parts[0], parts[1].strip() if len(parts) > 1 else ""
    if fmt == "trn":
        match = _TRN_LINE.match(line)
        if match is None:
            raise TranscriptFormatError(f"{where}: not a trn line `<text> (<id>)`: {line[:60]!r}")
        return match["id"], match["text"].strip()
    value = json_line(line, where, TranscriptFormatError, 'one object {"id": ..., "text": ...}')
    if not isinstance(value, dict):
        raise TranscriptFormatError(f"{where}: a {type(value).__name__}, not a JSON object with id and text")
    for key in ("id", "text"):
        if key not in value:
            raise TranscriptFormatError(f"{where}: no {key!r} key (each jsonl line needs id and text, both strings)")
        if not isinstance(value.get(key), str):
            raise TranscriptFormatError(f"{where}: {key} must be a string (each jsonl line needs id and text), "
                                        f"got {value.get(key)!r}")
    if not value["id"].strip():
        raise TranscriptFormatError(f"{where}: empty id")
    return value["id"], value["text"]
