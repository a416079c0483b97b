"""Alternatives in references (sclite's ``{ a / b / @ }``): the best form is scored, counts
follow sclite (checked against the real sclite of Debian's ``sctk``), malformed braces are
refused with the text quoted."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_asrbench import score
from pytest_asrbench.errors import InputError
from pytest_asrbench.scoring.alternatives import Alternation, best_reference, expansions, parse_reference
from pytest_asrbench.scoring.serialize import score_to_dict

DEBIAN_SCLITE = Path("/usr/lib/sctk/bin/sclite")


@pytest.fixture(scope="module")
def sclite_binary() -> str:
    found = shutil.which("sclite") or (str(DEBIAN_SCLITE) if os.access(DEBIAN_SCLITE, os.X_OK) else None)
    if found is None:
        pytest.skip("sclite (NIST SCTK) is not installed: apt-get install sctk (.ci/run does it as root)")
    return found


def counts(result) -> tuple[int, int, int, int]:
    return result.hits, result.substitutions, result.deletions, result.insertions


def test_the_hypothesis_matching_one_alternative_has_no_error():
    result = score("call { Jon / John } today", "call John today", "en")
    assert (result.rate, result.reference_length) == (0.0, 3)
    assert result.pairs[0].chosen_reference == "call John today"
    assert score("call { Jon / John } today", "call Jon today", "en").rate == 0.0


def test_an_empty_alternative_lets_the_words_be_absent_without_a_deletion():
    absent = score("so { um / @ } we left", "so we left", "en")
    assert counts(absent) == (3, 0, 0, 0) and absent.reference_length == 3
    present = score("so { you know / @ } we left", "so you know we left", "en")
    assert counts(present) == (5, 0, 0, 0) and present.reference_length == 5


def test_each_alternative_is_normalized_in_its_sentence():
    assert score("I paid { twenty / 20 } dollars", "I paid $20", "en").rate == 0.0
    assert score("it is { Dr. / doctor } Smith", "it is doctor smith", "en").rate == 0.0


def test_a_wrong_word_is_scored_against_the_closest_alternative():
    result = score("a { b / c d } e", "a c x e", "en")
    assert counts(result) == (3, 1, 0, 0)
    assert result.pairs[0].normalized_reference == "a c d e"


def test_ties_go_to_the_form_sclites_weights_make_cheapest():
    # one error either way: "a" is a substitution (4), "b c" a deletion (3)
    assert score("x { a / b c } y", "x b y", "en").reference_length == 4
    # one substitution plus one insertion (7) beats two substitutions (8)
    assert counts(score("a { b / c d } e", "a q r e", "en")) == (2, 1, 0, 1)
    # an insertion (3) beats a substitution (4)
    assert counts(score("x { @ / y } z", "x q z", "en")) == (2, 0, 0, 1)


def test_a_corpus_sums_the_chosen_forms():
    result = score(["call { Jon / John } today", "so { um / @ } we left"], ["call John today", "so we left"], "en")
    assert (result.errors, result.reference_length) == (0, 6)


def test_a_reference_without_alternatives_scores_as_before():
    result = score("hello {cough} there", "hello there", "en")
    assert result.rate == 0.0 and result.pairs[0].chosen_reference is None
    assert "chosen_reference" not in score_to_dict(result)["pairs"][0]
    assert parse_reference("{laughs} and/or") == ("{laughs} and/or",)


def test_the_chosen_form_is_in_the_recorded_pair():
    pair = score_to_dict(score("call { Jon / John } today", "call Jon today", "en"))["pairs"][0]
    assert pair["reference"] == "call { Jon / John } today" and pair["chosen_reference"] == "call Jon today"


def test_alternatives_work_in_a_character_scored_language():
    result = score("我{ 们 / 门 }好", "我门好", "zh")
    assert result.rate == 0.0


def test_parse_gives_the_forms_in_order():
    assert parse_reference("so { um / uh / @ } we") == ("so ", Alternation(("um", "uh", ""), "{ um / uh / @ }"), " we")
    assert expansions(parse_reference("{ a / b } { c / @ }")) == ["a c", "a ", "b c", "b "]


@pytest.mark.parametrize(
    ("reference", "quoted", "advice"),
    [
        ("a { b / } c", "'{ b / }' has an empty form", "write @"),
        ("a { / b } c", "'{ / b }' has an empty form", "write @"),
        ("a { b @ / c }", "mixes @ with words", "@ stands alone"),
        ("a { @ / @ }", "has no form with words", "at least one form"),
        ("a { b / c", "not closed or not opened", "close every {"),
        ("a } b { c / d }", "not closed or not opened", "close every {"),
        ("{ a / { b / c } }", "not closed or not opened", "do not nest"),
        ("a { 24/7 } x", "'{ 24/7 }' holds a / without spaces", "spaces around /"),
    ],
)
def test_a_malformed_alternative_is_refused_with_its_text(reference, quoted, advice):
    with pytest.raises(InputError) as raised:
        score(reference, "a b c", "en")
    message = str(raised.value)
    assert repr(reference) in message and quoted in message and advice in message


def test_too_many_expansions_are_refused():
    with pytest.raises(InputError, match="expansions, more than 4096"):
        score(" ".join(["{ a / b }"] * 13), "a", "en")


def test_best_reference_is_none_without_an_alternation():
    assert best_reference("call John today", "call john today", str.lower, "word") is None


# --- real sclite ---------------------------------------------------------------------------

_SUM = re.compile(r"Scores: \(#C #S #D #I\) (\d+) (\d+) (\d+) (\d+)")


def _sclite_counts(binary: str, folder: Path, refs: list[str], hyps: list[str]) -> list[tuple[int, int, int, int]]:
    (folder / "ref.trn").write_text("".join(f"{ref} (u{i:03d})\n" for i, ref in enumerate(refs)), encoding="utf-8")
    (folder / "hyp.trn").write_text("".join(f"{hyp} (u{i:03d})\n" for i, hyp in enumerate(hyps)), encoding="utf-8")
    done = subprocess.run([binary, "-r", "ref.trn", "trn", "-h", "hyp.trn", "trn", "-i", "rm", "-o", "pra", "stdout"],
                          cwd=folder, capture_output=True, text=True, check=True)
    found = [tuple(int(n) for n in match.groups()) for match in _SUM.finditer(done.stdout)]
    assert len(found) == len(refs), done.stdout[-2000:]
    return found


def _random_corpus(seed: int, size: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    words = ["ab", "cd", "ef", "gh", "ij"]
    refs, hyps = [], []
    while len(refs) < size:
        parts = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.4:
                forms = [" ".join(rng.choices(words, k=rng.randint(1, 2))) for _ in range(rng.randint(1, 2))]
                if rng.random() < 0.4:
                    forms.append("@")
                if len(forms) < 2:
                    forms.append("@")
                parts.append("{ " + " / ".join(forms) + " }")
            else:
                parts.append(rng.choice(words))
        refs.append(" ".join(parts))
        hyps.append(" ".join(rng.choices(words, k=rng.randint(1, 5))))
    return refs, hyps


def test_errors_and_reference_length_match_real_sclite(sclite_binary, tmp_path):
    # sclite weighs a substitution 4 and a deletion or insertion 3, so past two errors it may
    # prefer more errors of the cheaper kind; up to two errors both choose the same form.
    refs, hyps = _random_corpus(seed=22, size=400)
    theirs = _sclite_counts(sclite_binary, tmp_path, refs, hyps)
    compared = 0
    for ref, hyp, (hits, subs, dels, ins) in zip(refs, hyps, theirs):
        ours = score(ref, hyp, "en")
        if ours.errors > 2:
            continue
        compared += 1
        assert (ours.errors, ours.reference_length) == (subs + dels + ins, hits + subs + dels), (ref, hyp)
    assert compared >= 100


def test_the_score_command_takes_alternatives(capsys):
    from pytest_asrbench.cli import main

    assert main(["score", "-l", "en", "call { Jon / John } today", "call John today"]) == 0
    assert "WER 0.00%" in capsys.readouterr().out


def test_the_score_command_names_a_malformed_alternative(capsys):
    from pytest_asrbench.cli import main

    code = main(["score", "-l", "en", "call { Jon / } today", "call John today"])
    assert code != 0
    assert "'{ Jon / }' has an empty form" in capsys.readouterr().err
