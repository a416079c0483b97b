"""``asrbench score --references REF --hypotheses HYP``: transcript files scored as a corpus."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pytest_asrbench.cli import main
from pytest_asrbench.filescore.formats import TranscriptFormatError, detect_format, read_utterances, text_lines


def files(tmp_path: Path, ref: str, hyp: str, suffix: str = ".txt") -> tuple[str, str]:
    (tmp_path / f"r{suffix}").write_text(ref, encoding="utf-8")
    (tmp_path / f"h{suffix}").write_text(hyp, encoding="utf-8")
    return str(tmp_path / f"r{suffix}"), str(tmp_path / f"h{suffix}")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# the same three utterances in every format: 1 substitution and 1 deletion over 9 words
REFS = {"a1": "the cat sat", "a2": "on the mat", "a3": "it was warm"}
HYPS = {"a1": "the bat sat", "a2": "on the mat", "a3": "it warm"}
WRITERS = {
    "plain": lambda texts: "".join(f"{text}\n" for text in texts.values()),
    "kaldi": lambda texts: "".join(f"{ident} {text}\n" for ident, text in texts.items()),
    "trn": lambda texts: "".join(f"{text} ({ident})\n" for ident, text in texts.items()),
    "jsonl": lambda texts: "".join(json.dumps({"id": ident, "text": text}) + "\n" for ident, text in texts.items()),
}


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_every_format_is_detected_and_gives_the_corpus_rate(tmp_path, capsys, fmt):
    ref, hyp = files(tmp_path, WRITERS[fmt](REFS), WRITERS[fmt](HYPS))
    code, out, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("WER 22.22% over 3 utterance(s)  (stt_wer ")
    assert lines[1] == "hits 7  substitutions 1  deletions 1  insertions 0  reference length 9 word(s)"
    assert lines[2].startswith(f"format: {fmt} (")
    ident = "1" if fmt == "plain" else "a1"
    assert f"{ident}: WER 33.33% (1 S, 0 D, 0 I over 3 word(s))" in lines
    assert "  normalized reference:  the cat sat" in lines and "  normalized hypothesis: the bat sat" in lines


def test_a_named_format_wins_over_detection(tmp_path, capsys):
    ref, hyp = files(tmp_path, "u-1 the cat\n", "u-1 the cat\n")
    code, out, _ = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp, "--format", "plain")
    assert code == 0 and "reference length 3 word(s)" in out and "format: plain (named by --format)" in out


def test_plain_text_whose_lines_start_alike_is_not_taken_for_kaldi():
    assert detect_format(["the cat sat", "the dog ran"], ["the bat sat", "the dog ran"])[0] == "plain"
    assert detect_format(["utt1 the cat", "utt2 a dog"], ["utt2 a dog"])[0] == "kaldi"


def test_a_missing_hypothesis_is_all_deletions_and_listed(tmp_path, capsys):
    ref, hyp = files(tmp_path, WRITERS["kaldi"](REFS), "a1 the cat sat\na2 on the mat\n")
    code, out, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp)
    assert code == 0
    assert "1 reference id(s) without a hypothesis, scored as deletions: a3" in err
    assert "deletions 3" in out and "a3: WER 100.00% (0 S, 3 D, 0 I over 3 word(s))  [no hypothesis" in out


def test_a_shorter_plain_hypothesis_file_is_named_with_both_line_counts_and_how_to_pair_it(tmp_path, capsys):
    """Plain lines pair by position: the warning says so, not only which line numbers are missing."""
    ref, hyp = files(tmp_path, WRITERS["plain"](REFS), "the cat sat\n")
    code, out, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp)
    assert code == 0 and "deletions 6" in out
    assert (f"asrbench score: warning: {hyp} has 1 line(s), {ref} 3: plain lines pair by position, so reference "
            "line(s) 2, 3 have no hypothesis and are scored as deletions (a line missing in between would pair every "
            "later line with the wrong reference): write one hypothesis line per reference line, an empty line where "
            "there is no transcript, or give ids (kaldi, trn, jsonl)") in err.splitlines()


def test_an_extra_hypothesis_is_an_error_unless_allowed(tmp_path, capsys):
    ref, hyp = files(tmp_path, "a1 the cat\n", "a1 the cat\nzz9 more\n", ".ark")
    code, _, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp, "--format", "kaldi")
    assert code == 2 and "1 hypothesis id(s) have no reference: zz9" in err and "--allow-extra" in err
    code, out, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp, "--format", "kaldi",
                         "--allow-extra")
    assert code == 0 and "WER 0.00%" in out and "1 hypothesis id(s) without a reference, skipped: zz9" in err


def test_a_plain_hypothesis_file_with_fewer_lines_lists_the_missing_line_numbers(tmp_path, capsys):
    ref, hyp = files(tmp_path, "one two\nthree four\n", "one two\n")
    code, out, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp)
    assert code == 0 and "reference line(s) 2 have no hypothesis" in err and "WER 50.00%" in out


def test_standard_input_is_read_for_a_dash(tmp_path, capsys, monkeypatch):
    ref, _ = files(tmp_path, "the cat sat\n", "")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("the bat sat\n".encode())))
    code, out, _ = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", "-", "--json")
    data = json.loads(out)
    assert code == 0 and data["rate"] == pytest.approx(1 / 3) and data["hypotheses"] == "<stdin>"
    assert data["pairs"][0]["id"] == "1" and data["format"] == "plain" and data["missing"] == []


def test_json_gives_each_pair_its_id_and_the_lists(tmp_path, capsys):
    ref, hyp = files(tmp_path, WRITERS["jsonl"](REFS), WRITERS["jsonl"]({"a1": "the cat sat"}))
    code, out, _ = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp, "--json")
    data = json.loads(out)
    assert code == 0 and [pair["id"] for pair in data["pairs"]] == ["a1", "a2", "a3"]
    assert data["missing"] == ["a2", "a3"] and data["extra"] == [] and data["utterances"] == 3
    assert data["deletions"] == 6 and data["reference_length"] == 9


def test_a_character_language_says_cer(tmp_path, capsys):
    ref, hyp = files(tmp_path, "สวัสดีครับ\n", "สวัสดีคะ\n")
    code, out, _ = run(capsys, "score", "-l", "th", "--references", ref, "--hypotheses", hyp)
    assert code == 0 and out.startswith("CER ") and "character(s)" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["--references", "r.txt", "--hypotheses", "-", "a", "b"], "either two texts"),
    (["--references", "-", "--hypotheses", "-"], "only one of --references and --hypotheses can be -"),
    (["--references", "r.txt"], "give both --references REF and --hypotheses HYP"),
    (["--references", "nowhere.txt", "--hypotheses", "h.txt"], "--references nowhere.txt: no such file"),
    (["a"], "give a reference and a hypothesis text"),
])
def test_usage_errors_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    files(tmp_path, "a\n", "a\n")
    code, _, err = run(capsys, "score", "-l", "en", *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_bad_lines_name_the_file_and_line():
    with pytest.raises(TranscriptFormatError, match=r"^h.ark:2: id 'u1' repeats line 1"):
        read_utterances(["u1 a", "u1 b"], "kaldi", "h.ark")
    with pytest.raises(TranscriptFormatError, match=r"^r.trn:1: not a trn line"):
        read_utterances(["no id here"], "trn", "r.trn")
    with pytest.raises(TranscriptFormatError, match=r"^r.jsonl:1: the key 'id' appears twice"):
        read_utterances(['{"id": "a", "id": "b", "text": "x"}'], "jsonl", "r.jsonl")
    with pytest.raises(TranscriptFormatError, match=r"^r.jsonl:1: no 'text' key \(each jsonl line needs id and text"):
        read_utterances(['{"id": "a"}'], "jsonl", "r.jsonl")
    with pytest.raises(TranscriptFormatError, match=r"^r.jsonl:1: text must be a string .*got 3"):
        read_utterances(['{"id": "a", "text": 3}'], "jsonl", "r.jsonl")
    with pytest.raises(TranscriptFormatError, match=r"^r.ark:2: an empty line"):
        read_utterances(["u1 a", ""], "kaldi", "r.ark")
    with pytest.raises(TranscriptFormatError, match=r"byte order mark"):
        text_lines("\ufeffa\n".encode(), "r.txt")


def test_plain_keeps_empty_lines_as_empty_utterances_and_drops_carriage_returns():
    lines = text_lines(b"a b\r\n\r\nc\r\n", "r.txt")
    assert [(u.id, u.text) for u in read_utterances(lines, "plain", "r.txt")] == [("1", "a b"), ("2", ""), ("3", "c")]


@pytest.mark.parametrize("data, line", [(b"hello world\rthe cat\r", 1), (b"a\r\nb\rc\n", 2)])
def test_a_carriage_return_inside_a_line_is_refused_not_read_as_one_utterance(data, line):
    with pytest.raises(TranscriptFormatError, match=rf"r\.txt:{line}: a carriage return \(\\r\) inside the line"):
        text_lines(data, "r.txt")


def test_two_texts_label_the_normalized_forms(capsys):
    code, out, _ = run(capsys, "score", "-l", "en", "The cat.", "the bat")
    assert code == 0
    assert "normalized reference:  the cat" in out.splitlines() and "normalized hypothesis: the bat" in out.splitlines()


def test_files_that_read_as_two_formats_are_refused_with_both_named(tmp_path, capsys):
    ref, hyp = files(tmp_path, "ich wohne in Berlin\nguten Morgen\n", "u1 ich wohne in Berlin\nu2 guten Morgen\n")
    code, _, err = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp)
    assert code == 2
    assert "read as plain" in err and "as kaldi" in err and "--format" in err


def test_a_jsonl_reference_against_a_plain_hypothesis_is_refused(tmp_path, capsys):
    ref, hyp = files(tmp_path, '{"id": "u1", "text": "the cat sat"}\n', "the cat sat\n")
    code, _, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp)
    assert code == 2 and "read as jsonl" in err and "as plain" in err


def test_a_repeated_kaldi_id_is_refused_at_its_line():
    with pytest.raises(TranscriptFormatError, match=r"refs:2: repeated id 'u1' \(first on line 1\)"):
        detect_format(["u1 the cat", "u1 the dog"], ["u1 the cat"], ("refs", "hyps"))


def test_an_empty_hypothesis_file_is_refused_not_scored_as_deletions(tmp_path, capsys):
    ref, hyp = files(tmp_path, "the cat sat\n", "")
    code, out, err = run(capsys, "score", "-l", "en", "--references", ref, "--hypotheses", hyp)
    assert code == 2 and "no utterance (the file is empty)" in err and "WER" not in out


def test_files_that_share_some_ids_but_not_all_are_refused_not_read_as_plain_text(tmp_path, capsys):
    # One mistyped id (d4 for d3) must not turn the ids into words and pair lines by position.
    ref, hyp = files(tmp_path, "d1 ich habe drei Hunde\nd2 wir gehen heim\nd3 das ist gut\n",
                     "d1 ich habe drei Hunde\nd2 wir gehen heim\nd4 das ist gut\n")
    code, out, err = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp)
    assert code == 2 and out == ""
    assert "2 of the 3 hypothesis ids are reference ids, but 1 are not (d4)" in err
    assert "--format kaldi" in err and "--format plain" in err
    with pytest.raises(TranscriptFormatError, match=r"1 are not \(d4\)"):
        detect_format(["d1 a", "d2 b", "d3 c"], ["d1 a", "d2 b", "d4 c"])
    # Named, each reading does what it says: kaldi refuses the stray id, plain scores the lines.
    code, _, err = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp, "--format", "kaldi")
    assert code == 2 and "1 hypothesis id(s) have no reference: d4" in err
    code, out, _ = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp, "--format", "plain")
    assert code == 0 and "format: plain (named by --format)" in out


def test_allow_extra_reads_files_that_share_some_ids_as_kaldi_and_skips_the_stray_ones(tmp_path, capsys):
    # --allow-extra says some hypothesis ids have no reference: only Kaldi ids can be that.
    ref, hyp = files(tmp_path, "d1 ich habe drei Hunde\nd2 wir gehen heim\nd3 das ist gut\n",
                     "d1 ich habe drei Hunde\nd2 wir gehen heim\nd4 das ist gut\n")
    code, out, err = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp, "--allow-extra")
    assert code == 0, err
    assert "format: kaldi (every line starts with a unique utterance id; 1 hypothesis id(s) are not reference ids" in out
    # d3 has no hypothesis: its 3 words are deletions; d4 is listed and skipped.
    assert "deletions 3" in out and "d4" in err


def test_files_whose_first_words_never_pair_up_are_read_as_plain_text():
    fmt, why = detect_format(["x1 the cat", "x2 a dog"], ["y1 the cat", "y2 a dog"])
    assert fmt == "plain" and "none of the hypotheses' is a reference id" in why


def test_numbered_lines_that_pair_by_id_and_by_position_are_refused_asking_for_the_format(tmp_path, capsys):
    # "20 Euro bitte" is text to a jiwer user and utterance 20 to a Kaldi user: the rate differs
    # (the numbers scored or not), so neither reading is taken without --format.
    ref, hyp = files(tmp_path, "20 Euro bitte\n3 Kinder\n", "20 Euro bitte\n3 Kinder spielen\n")
    code, out, err = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "starts with a number" in err and "(20, 3)" in err
    assert "--format plain" in err and "--format kaldi" in err
    code, out, _ = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp, "--format", "plain")
    assert code == 0 and "hits 4  substitutions 0  deletions 0  insertions 1  reference length 4 word(s)" in out
    code, out, _ = run(capsys, "score", "-l", "de", "--references", ref, "--hypotheses", hyp, "--format", "kaldi")
    assert code == 0 and "hits 3  substitutions 0  deletions 0  insertions 1  reference length 3 word(s)" in out


@pytest.mark.parametrize(("ref", "hyp"), [
    (["0001 the cat", "0002 a dog"], ["0001 the cat"]),  # a shorter hypothesis file, in line order
    (["1.000 Euro", "12:30 Uhr", "3,5 Kilo"], ["1.000 Euro", "12:30 Uhr", "3,5 Kilo"]),
])
def test_every_number_id_in_line_order_is_ambiguous(ref, hyp):
    with pytest.raises(TranscriptFormatError, match="--format plain .* or --format kaldi"):
        detect_format(ref, hyp)


@pytest.mark.parametrize(("ref", "hyp"), [
    (["20 Euro bitte", "3 Kinder"], ["3 Kinder", "20 Euro bitte"]),  # numbers in another order: ids
    (["utt1 the cat", "utt2 a dog"], ["utt1 the cat", "utt2 a dog"]),  # ids that are no numbers
    (["1 the cat", "utt2 a dog"], ["1 the cat", "utt2 a dog"]),  # one id is no number
])
def test_ids_that_cannot_be_words_of_the_text_still_read_as_kaldi(ref, hyp):
    assert detect_format(ref, hyp) == ("kaldi", "every line starts with a unique utterance id")


def test_numbers_none_of_which_is_a_reference_id_read_as_plain_text():
    assert detect_format(["20 Euro bitte", "3 Kinder"], ["25 Euro bitte", "4 Kinder"])[0] == "plain"
