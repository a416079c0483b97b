"""``asrbench export sclite`` read by real sclite (NIST SCTK, Debian's ``sctk``): its totals are
the run's for every shipped language, for the headline view and the second one; tokens its
trn reader misreads (a NUL, other control characters, sclite's own syntax) are refused with
the utterance and the file named, and nothing is written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_asrbench.export import sclite
from pytest_asrbench.export.sources import ExportError, Utterance, gather
from pytest_asrbench.export.streams import streams_of
from pytest_asrbench.export.trn import segments, token_problem
from pytest_asrbench.scoring import score

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("en", "hi", "de", "nl", "fr", "es", "it", "ja", "ko", "zh", "th")
# Languages whose word scores have a counting view with the strict alignment as second stream:
# the code-switch rescue (hi, de, nl, fr, es, it), and the merged compounds of English, German and Dutch.
STRICT_SECOND_STREAM = ("hi", "en", "de", "nl", "fr", "es", "it")
DEBIAN_SCLITE = Path("/usr/lib/sctk/bin/sclite")  # Debian's sctk puts it here, off PATH


@pytest.fixture(scope="module")
def sclite_binary() -> str:
    found = shutil.which("sclite") or (str(DEBIAN_SCLITE) if os.access(DEBIAN_SCLITE, os.X_OK) else None)
    if found is None:
        pytest.skip("sclite (NIST SCTK) is not installed: apt-get install sctk (.ci/run does it as root)")
    return found


def run_sclite(binary: str, folder: Path, ref: str, hyp: str) -> dict[str, int]:
    """sclite's totals over ``ref``/``hyp``: from its rsum table's Sum row, checked against
    the sum of its pralign ``Scores:`` lines."""
    done = subprocess.run([binary, "-r", ref, "trn", "-h", hyp, "trn", "-i", "rm", "-s", "-o", "rsum", "pralign",
                           "stdout"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Error" not in done.stdout + done.stderr, done.stdout + done.stderr
    row = re.search(r"\|\s*Sum\s*\|\s*(\d+)\s+(\d+)\s*\|\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", done.stdout)
    assert row, done.stdout
    segments_, words, hits, subs, dels, ins, errors = map(int, row.groups())
    scored = [tuple(map(int, m)) for m in re.findall(r"Scores: \(#C #S #D #I\) (\d+) (\d+) (\d+) (\d+)", done.stdout)]
    assert len(scored) == segments_
    assert tuple(map(sum, zip(*scored))) == (hits, subs, dels, ins)
    assert errors == subs + dels + ins and words == hits + subs + dels
    return {"hits": hits, "substitutions": subs, "deletions": dels, "insertions": ins, "reference_length": words}


def run_totals(utterances: list[Utterance]) -> dict[tuple[str, str, str], dict[str, int]]:
    """The run's totals per (language, metric, view), summed from ``score()`` itself: the
    headline counts, and the strict (Hindi) or spaced (Korean) counts its details give."""
    totals: dict[tuple[str, str, str], dict[str, int]] = {}

    def add(key, counts) -> None:
        into = totals.setdefault(key, dict.fromkeys(counts, 0))
        for name, value in counts.items():
            into[name] += value

    names = ("hits", "substitutions", "deletions", "insertions", "reference_length")
    for utterance in utterances:
        result = score(utterance.reference, utterance.hypothesis, utterance.language, utterance.metric)
        add((result.language, result.metric, "headline"), {name: getattr(result, name) for name in names})
        if "with_spaces" in result.details:
            add((result.language, result.metric, "spaced"), dict(result.details["with_spaces"]))
        if result.language in STRICT_SECOND_STREAM and result.unit == "word":
            pair = result.pairs[0]
            add((result.language, result.metric, "strict"), {name: getattr(pair, name) for name in names})
    return totals


def assert_sclite_counts_the_run(binary: str, utterances: list[Utterance], out: Path) -> dict:
    sclite.write(utterances, out, version="test")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    expected = run_totals(utterances)
    seen = {}
    for group in manifest["groups"]:
        for view in group["views"]:
            key = (group["language"], group["metric"], view["stream"])
            counted = run_sclite(binary, out, view["ref"], view["hyp"])
            assert counted == expected[key], key
            assert view["counts"] == expected[key], key
            run = expected[key]
            errors = run["substitutions"] + run["deletions"] + run["insertions"]
            assert view["rate"] == (errors / run["reference_length"] if run["reference_length"] else None)
            seen[key] = counted
    assert set(seen) == set(expected)
    return seen


@pytest.mark.parametrize("language", SHIPPED)
def test_sclite_totals_equal_the_runs_on_each_languages_cases(sclite_binary, language, tmp_path):
    utterances = gather([ROOT / "cases" / language], ROOT)
    assert utterances, f"cases/{language} has no score or asr case to export"
    seen = assert_sclite_counts_the_run(sclite_binary, utterances, tmp_path)
    views = {view for lang, _, view in seen if lang == language}
    second = {"ko": "spaced", **{tag: "strict" for tag in STRICT_SECOND_STREAM}}
    assert views == {"headline", second[language]} if language in second else views == {"headline"}


MADE_UP = [
    # ties: unit costs give two substitutions, sclite's own costs a deletion and an insertion
    Utterance("en_made-tie", "en", "stt_wer", "a b", "b c"),
    Utterance("en_made-sdi", "en", "stt_wer", "the cat sat on the mat today", "the bat sat on on mat"),
    Utterance("en_made-swap", "en", "stt_wer", "one two three four", "two one four three"),
    Utterance("en_made-empty", "en", "stt_wer", "", "uh"),
    Utterance("en_made-chars", "en", "cer", "the cat", "the bat sat"),  # spaces counted: <sp>
    Utterance("hi_made-rescued", "hi", "stt_wer", "मेरा नंबर बदल गया", "मेरा number बदल गया"),
    Utterance("hi_made-rescued_and_not", "hi", "stt_wer", "मेरा नेटवर्क धीमा है", "मेरा network बहुत धीरे"),
    Utterance("hi_made-latin", "hi", "stt_wer", "मुझे meeting में जाना है", "मुझे मीटिंग में जाना"),
    Utterance("ko_made-spacing", "ko", "stt_wer", "할 수 있다", "할수 있다"),
    Utterance("ko_made-both", "ko", "stt_wer", "3월 25일에 만나요", "3월25일 만나"),
    Utterance("ja_made-chars", "ja", "stt_wer", "ありがとうございます", "ありがとうござます"),
    Utterance("zh_made-chars", "zh", "stt_wer", "今天天气很好", "今天天很好啊"),
    Utterance("th_made-chars", "th", "stt_wer", "สวัสดีครับ", "สวัสดีค่ะ"),
]


def test_sclite_totals_equal_the_runs_on_made_up_errors_rescues_and_spacing(sclite_binary, tmp_path):
    seen = assert_sclite_counts_the_run(sclite_binary, MADE_UP, tmp_path)
    # the corpus holds what it is meant to: a rescue, a spacing difference, a tie
    assert seen[("hi", "stt_wer", "headline")] != seen[("hi", "stt_wer", "strict")]
    assert seen[("ko", "stt_wer", "headline")]["reference_length"] < seen[("ko", "stt_wer", "spaced")]["reference_length"]
    tie = score("a b", "b c", "en")
    assert (tie.substitutions, tie.deletions, tie.insertions) == (2, 0, 0)


def test_a_tie_is_cut_so_sclite_cannot_split_it_its_own_way():
    tie = score("a b", "b c", "en").pairs[0].alignment
    assert segments(tie) == [(("a",), ("b",)), (("b",), ("c",))]
    distinct = score("a b c", "x y z", "en").pairs[0].alignment
    assert segments(distinct) == [(("a", "b", "c"), ("x", "y", "z"))]


def test_hindi_headline_writes_the_rescued_words_as_the_reference_and_strict_as_written():
    headline, strict = streams_of(score("मेरा नंबर बदल गया", "मेरा number बदल गया", "hi"))
    assert headline.name == "headline" and strict.name == "strict"
    assert headline.alignment.hypothesis == ("मेरा", "नंबर", "बदल", "गया")
    assert strict.alignment.hypothesis == ("मेरा", "number", "बदल", "गया")


def test_korean_headline_has_no_space_token_and_the_spaced_view_writes_them(tmp_path):
    sclite.write([Utterance("ko_a-spacing", "ko", "stt_wer", "할 수 있다", "할수 있다")], tmp_path, version="test")
    folder = tmp_path / "ko" / "stt_wer"
    assert (folder / "ref.trn").read_text(encoding="utf-8") == "할 수 있 다 (ko_a-spacing.s1)\n"
    assert "<sp>" in (folder / "spaced.ref.trn").read_text(encoding="utf-8")
    readme = (tmp_path / "README.txt").read_text(encoding="utf-8")
    assert "ko stt_wer (char), headline: stt_wer: characters without spaces" in readme
    assert "ko stt_wer (char), spaced:" in readme and "N 4, rate 0.00%" in readme


@pytest.mark.parametrize("text, named", [
    ("hello\x00world", "U+0000 (NUL)"),
    ("hello \x01 world", "U+0001"),
    ("hello\x85world", "U+0085 (NEL)"),
    ("hello \x7f world", "U+007F (DEL)"),
    ("hello (laughs) world", "optionally deletable"),
    ("hello { a / b } world", "alternation"),
    ("hello @ world", "lone '@'"),
    (";;hello world", "comment"),
])
def test_raw_export_refuses_what_sclites_reader_misreads_naming_the_utterance(tmp_path, text, named):
    utterances = [Utterance("en_x-fine", "en", "stt_wer", "hello world", "hello world"),
                  Utterance("en_x-bad", "en", "stt_wer", "hello world", text)]
    out = tmp_path / "out"
    with pytest.raises(ExportError) as error:
        sclite.write(utterances, out, raw=True, version="test")
    message = str(error.value)
    assert "(en_x-bad)" in message and "en/stt_wer/hyp.trn" in message and named in message
    assert "raw hypothesis" in message and "without --raw" in message and "Nothing was written" in message
    assert not out.exists()


def test_token_problem_accepts_ordinary_words_and_characters():
    for token in ("hello", "नमस्ते", "あ", "<sp>", "3.5", "don't", "a/b", "*", "-ish"):
        assert token_problem(token) is None, token


def test_a_clean_raw_export_is_read_whole_by_sclite(sclite_binary, tmp_path):
    utterances = [Utterance("en_r-one", "en", "stt_wer", "Hello, World!", "hello world"),
                  Utterance("hi_r-two", "hi", "stt_wer", "मेरा नंबर बदल गया", "मेरा number बदल गया")]
    sclite.write(utterances, tmp_path, raw=True, version="test")
    for language, words in (("en", 2), ("hi", 4)):
        counted = run_sclite(sclite_binary, tmp_path, f"{language}/stt_wer/ref.trn", f"{language}/stt_wer/hyp.trn")
        assert counted["reference_length"] == words
    assert not (tmp_path / "hi/stt_wer/strict.ref.trn").exists()


def test_a_counting_view_without_a_stream_stops_the_export(monkeypatch, tmp_path):
    from pytest_asrbench.export import streams

    monkeypatch.setattr(streams, "_COUNTING_VIEWS", {})
    with pytest.raises(streams.StreamError, match="metric view 'spacing' sets the headline counts"):
        sclite.write([Utterance("ko_a-one", "ko", "stt_wer", "할 수 있다", "할수 있다")], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_headline_stream_that_disagrees_with_the_score_stops_the_export(monkeypatch, tmp_path):
    from pytest_asrbench.export import streams

    spacing = streams._COUNTING_VIEWS["spacing"]
    monkeypatch.setitem(streams._COUNTING_VIEWS, "spacing", (streams._strict, *spacing[1:]))
    with pytest.raises(streams.StreamError, match=r"counts \(C, S, D, I, N\) \(5, 0, 1, 0, 6\) but the score has "
                                                  r"\(4, 0, 0, 0, 4\)"):
        sclite.write([Utterance("ko_a-one", "ko", "stt_wer", "할 수 있다", "할수 있다")], tmp_path / "out")
