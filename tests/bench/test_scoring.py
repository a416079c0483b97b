"""bench score: counts, missing/extra/empty rules, JSONL errors at file:line, the bootstrap,
the paired comparison, the CLI's table/JSON/Markdown."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from pytest_asrbench.bench.errors import HypothesesError, JsonlFormatError, UnknownSetError
from pytest_asrbench.bench.scoring.corpus import clean_for_scoring, score_benchmark
from pytest_asrbench.cli import main
from pytest_asrbench.errors import InputError
from pytest_asrbench.scoring.alignment import align
from pytest_asrbench.scoring.alignment import char_counts
from pytest_asrbench.stats.bootstrap import (cluster_interval, compare_systems, generator, percentile_interval,
                                              rates, resampled_sums)

SHIPPED = Path(__file__).resolve().parents[2] / "cases/th/benchmark"


def write(path: Path, rows) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


@pytest.fixture
def bench(tmp_path):
    write(tmp_path / "refs/s1.jsonl", [{"id": "a", "text": "สวัสดี ครับ", "cluster": "c1"},
                                       {"id": "b", "text": "ราคา 22.00 บาท", "cluster": "c2"},
                                       {"id": "c", "text": "วันนี้", "cluster": "c2"}])
    write(tmp_path / "hyps/s1.jsonl", [{"id": "a", "text": "สวัสดีคับ"}, {"id": "b", "text": "ราคา 2200 บาท!"}])
    return tmp_path


def test_char_counts_equal_the_alignment_layer_on_random_and_thai_pairs():
    r = random.Random(3)
    alphabet = "กขคงจฉัาิีึื่้๊๋ab"  # no spaces: jiwer strips the ends, the metric removes them all
    for _ in range(2000):
        ref = "".join(r.choice(alphabet) for _ in range(r.randint(0, 25)))
        hyp = "".join(r.choice(alphabet) for _ in range(r.randint(0, 25)))
        counts, alignment = char_counts(ref, hyp), align(ref, hyp, "char")
        assert (counts.hits, counts.substitutions, counts.deletions, counts.insertions) == (
            alignment.count("equal"), alignment.count("substitute"), alignment.count("delete"),
            alignment.count("insert")), (ref, hyp)
        assert counts.reference_length == len(ref)


def test_cleaning_then_spaces_removed_and_a_missing_hypothesis_counts_as_deletions(bench):
    assert clean_for_scoring("ราคา 22.00 บาท!") == "ราคา2200บาท!"
    scores = score_benchmark(bench / "refs", bench / "hyps", seed=1, resamples=200)
    (s1,) = scores.sets
    # a: สวัสดีครับ -> สวัสดีคับ (1 D); b: ราคา2200บาท vs ราคา2200บาท! (1 I); c missing: 6 D
    assert (s1.system.counts.substitutions, s1.system.counts.deletions, s1.system.counts.insertions) == (0, 7, 1)
    assert s1.system.counts.reference_length == 10 + 11 + 6
    assert s1.system.counts.rate == pytest.approx(8 / 27)
    assert s1.system.missing == ("c",)
    assert scores.overall.system.missing == ("s1/c",)
    assert s1.ci95.low <= s1.system.counts.rate <= s1.ci95.high


def test_extra_ids_are_an_error_listing_them_unless_allowed(bench):
    write(bench / "hyps/s1.jsonl", [{"id": "a", "text": "x"}, {"id": "zz ", "text": "y"}, {"id": "yy", "text": "z"}])
    with pytest.raises(HypothesesError, match=r"2 hypothesis id\(s\) have no reference .*: 'zz ', 'yy'; .*--allow-extra"):
        score_benchmark(bench / "refs", bench / "hyps", resamples=10)
    scores = score_benchmark(bench / "refs", bench / "hyps", resamples=10, allow_extra=True)
    assert scores.sets[0].system.extra == ("zz ", "yy")


def test_an_empty_or_absent_hypothesis_file_is_an_error(bench):
    (bench / "hyps/s1.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(HypothesesError, match="the hypothesis file is empty"):
        score_benchmark(bench / "refs", bench / "hyps", resamples=10)
    (bench / "hyps/s1.jsonl").unlink()
    with pytest.raises(HypothesesError, match="no hypothesis file for set 's1'"):
        score_benchmark(bench / "refs", bench / "hyps", resamples=10)


@pytest.mark.parametrize("lines, message", [
    (['{"id": "a", "text": "x"}', "not json"], r"s1\.jsonl:2: not JSON"),
    (['{"id": "a"}'], r"s1\.jsonl:1: no 'text' field"),
    (['{"id": 3, "text": "x"}'], r"s1\.jsonl:1: id must be a string"),
    (['{"id": "a", "text": "x"}', "", '{"id": "b", "text": "y"}'], r"s1\.jsonl:2: not JSON"),
    (['{"id": "a", "text": "x"}', '{"id": "a", "text": "y"}'], r"s1\.jsonl:2: id 'a' repeats line 1"),
    (['["a", "x"]'], r"s1\.jsonl:1: a list, not a JSON object"),
    (['{"id": "a", "text": "x"}', '{"id": "b", "text": "x", "text": "y"}'],
     r"s1\.jsonl:2: the key 'text' appears twice in this line; keep one"),
    (['{"id": "a ", "text": "x"}', '{"id": "a ", "text": "y"}'], r"s1\.jsonl:2: id 'a ' repeats line 1"),
    (['\ufeff{"id": "a", "text": "x"}'],
     r"s1\.jsonl:1: the file starts with a UTF-8 byte order mark: save it without one$"),
])
def test_bad_jsonl_names_file_and_line(bench, lines, message):
    write(bench / "hyps/s1.jsonl", lines)
    with pytest.raises(JsonlFormatError, match=message):
        score_benchmark(bench / "refs", bench / "hyps", resamples=10)


def test_unknown_set_lists_the_available_ones(bench):
    with pytest.raises(UnknownSetError, match="no reference file for set.* nope.*available: s1"):
        score_benchmark(bench / "refs", bench / "hyps", ["nope"], resamples=10)


def _loop_interval(errors, lengths, seed, resamples):
    """The plain-Python bootstrap: same draws, Python sums, numpy's linear percentile by hand."""
    rng, k, values = generator(seed, "s"), len(errors), []
    for _ in range(resamples):
        index = rng.integers(0, k, size=k).tolist()
        values.append(sum(errors[i] for i in index) / sum(lengths[i] for i in index))
    values.sort()

    def pct(q):
        pos = q / 100 * (len(values) - 1)
        low = int(pos)
        return values[low] + (values[min(low + 1, len(values) - 1)] - values[low]) * (pos - low)
    return pct(2.5), pct(97.5)


def test_vectorized_bootstrap_equals_a_plain_loop_and_is_seeded():
    r = random.Random(5)
    lengths = [r.randint(20, 200) for _ in range(50)]
    errors = [r.randint(0, n // 3) for n in lengths]
    got = cluster_interval(errors, lengths, generator(11, "s"), resamples=300)
    assert (got.low, got.high) == pytest.approx(_loop_interval(errors, lengths, 11, 300), abs=1e-12)
    again = cluster_interval(errors, lengths, generator(11, "s"), resamples=300)
    assert again == got
    assert cluster_interval(errors, lengths, generator(12, "s"), resamples=300) != got


def test_bootstrap_resamples_clusters_not_clips():
    # one cluster of two clips: every resample draws both together, so the rate never moves
    interval = cluster_interval([3], [10], generator(0), resamples=50)
    assert (interval.low, interval.high) == (0.3, 0.3)


def test_block_size_does_not_change_the_draws(monkeypatch):
    lengths, errors = [10, 20, 30, 40], [1, 2, 3, 4]
    whole = resampled_sums([errors, lengths], generator(4), 100)
    monkeypatch.setattr("pytest_asrbench.stats.bootstrap.BLOCK_ENTRIES", 8)
    seen = []
    blocked = resampled_sums([errors, lengths], generator(4), 100, seen.append)
    assert (whole == blocked).all() and seen[-1] == 100 and len(seen) == 50


def test_paired_comparison_difference_interval_and_share():
    lengths = [100] * 40
    a = [10] * 40
    b = [5] * 40
    result = compare_systems(a, b, lengths, generator(0), resamples=200)
    assert result.difference == pytest.approx(-0.05)
    assert (result.interval.low, result.interval.high) == pytest.approx((-0.05, -0.05))
    assert result.b_better == 1.0
    tie = compare_systems(a, a, lengths, generator(0), resamples=200)
    assert tie.b_better == 0.0 and tie.difference == 0.0


def test_bad_bootstrap_arguments_are_input_errors():
    with pytest.raises(InputError, match="seed must be a non-negative integer"):
        generator(-1)
    with pytest.raises(InputError, match="resamples must be an integer >= 1"):
        cluster_interval([1], [2], generator(0), resamples=0)
    with pytest.raises(InputError, match="one value per cluster"):
        resampled_sums([[1, 2], [3]], generator(0), 5)
    assert np.isnan(rates([1], [0])[0])
    with pytest.raises(InputError, match="no resample has a reference length"):
        percentile_interval([float("nan")])


def test_cli_table_json_and_markdown_on_the_shipped_benchmark(tmp_path, capsys, monkeypatch):
    out_json, out_md = tmp_path / "s.json", tmp_path / "s.md"
    monkeypatch.chdir(tmp_path)  # the outputs, given absolute, lie in the current folder
    code = main(["bench", "score", "--refs", str(SHIPPED / "refs"), "--hyps", str(SHIPPED / "hyps_a"),
                 "--compare", str(SHIPPED / "hyps_b"), "--json", str(out_json), "--markdown", str(out_md),
                 "--seed", "3", "--resamples", "200"])
    captured = capsys.readouterr()
    assert code == 0
    assert "synthetic_long" in captured.out and "overall" in captured.out and "B better" in captured.out
    assert "synthetic: 2 reference id(s) without a hypothesis, scored as deletions: spk00-07, spk15-01" in captured.err
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["metric"]["name"] == "th_bench_cer" and len(data["metric"]["signature"]) == 16
    assert data["bootstrap"] == {"seed": 3, "resamples": 200, "confidence": 0.95, "unit": "cluster",
                                 "shared_clusters": [{"namespace": "asrbench synthetic Thai speaker",
                                                      "sets": ["synthetic", "synthetic_long"], "clusters": 32}]}
    first = data["sets"][0]
    for key in ("set", "clips", "rate", "substitutions", "deletions", "insertions", "reference_length", "ci95",
                "ci95_mc_se", "missing", "extra"):
        assert key in first
    assert first["set"] == "synthetic" and first["clips"] == 320 and first["missing"] == ["spk00-07", "spk15-01"]
    assert first["rate"] == (first["substitutions"] + first["deletions"] + first["insertions"]) / first["reference_length"]
    assert data["overall"]["clips"] == 352 and data["overall"]["clusters"] == 32  # the same 32 speakers
    assert "synthetic + synthetic_long share clusters" in captured.out and "MC se" in captured.out
    assert -1 < data["overall"]["compare"]["difference"] < 0
    assert out_md.read_text(encoding="utf-8").startswith("| set | clips |")
    assert captured.out.splitlines()[-2:] == ["scores -> s.json", "table -> s.md"]


def test_cli_errors_exit_2_with_the_message(bench, capsys):
    write(bench / "hyps/s1.jsonl", ["{oops"])
    assert main(["bench", "score", "--refs", str(bench / "refs"), "--hyps", str(bench / "hyps"), "--language", "th"]) == 2
    assert "s1.jsonl:1: not JSON" in capsys.readouterr().err


def test_a_reference_with_alternatives_is_refused_with_its_id_and_text(bench):
    write(bench / "refs/s1.jsonl", [{"id": "a", "text": "สวัสดี { ครับ / ค่ะ }", "cluster": "c1"}])
    with pytest.raises(HypothesesError, match=r"reference 'a' \('สวัสดี \{ ครับ / ค่ะ \}'\) holds alternatives"):
        score_benchmark(bench / "refs", bench / "hyps", resamples=10)
