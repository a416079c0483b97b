"""bench score and the benchmark case kind in every shipped language: the language from
--language or the sets' sidecars, the language's metric through score(), the rate equal to
score()'s corpus rate and to asrbench score on the same files; Thai keeps th_bench_cer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_asrbench.bench.errors import SetLanguageError
from pytest_asrbench.bench.scoring.corpus import score_benchmark
from pytest_asrbench.bench.scoring.language import benchmark_language, measure_for
from pytest_asrbench.bench.scoring.measure import THAI_BENCHMARK
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.registry import RUNNERS, RunContext
from pytest_asrbench.cases.version_gate_session import gated_metric
from pytest_asrbench.cli import main
from pytest_asrbench.errors import UnknownLanguageError, UnknownMetricError
from pytest_asrbench.scoring import score

SHIPPED = Path(__file__).resolve().parents[2] / "cases/th/benchmark"
NAMESPACE = "test corpus speaker"

#: Two sets per language in one cluster namespace (the same speakers), hypotheses with
#: numbers, case and punctuation the normalizer folds, and one clip of set "a" left out.
BENCHMARKS = {
    "en": {
        "a": [("a1", "spk1", "The meeting starts at 10 am.", "the meeting starts at ten a m"),
              ("a2", "spk1", "I paid $5 for two coffees", "I paid five dollars for too coffees"),
              ("a3", "spk2", "Dr. Smith lives on Oak Street", None),
              ("a4", "spk3", "She's twenty-one years old", "she is 21 year old today")],
        "b": [("b1", "spk2", "Call me at 555 0100", "call me at five five five oh one oh oh"),
              ("b2", "spk3", "It is 3.5 kilometers away", "it's three point five km away"),
              ("b3", "spk4", "Thanks, see you tomorrow!", "thanks see you to morrow")],
    },
    "de": {
        "a": [("a1", "spk1", "Das Treffen beginnt um 10 Uhr.", "das treffen beginnt um zehn uhr"),
              ("a2", "spk1", "Ich habe 5 Euro bezahlt", "ich habe fünf euro bezahlt"),
              ("a3", "spk2", "Er wohnt in der Hauptstraße 12", None),
              ("a4", "spk3", "Sie ist einundzwanzig Jahre alt", "sie ist 21 jahr alt")],
        "b": [("b1", "spk2", "Die Straße ist sehr lang", "die strasse ist lang"),
              ("b2", "spk3", "Es sind 3,5 Kilometer", "es sind drei komma fünf kilometer"),
              ("b3", "spk4", "Danke, bis morgen!", "danke bis morgen")],
    },
}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def make_benchmark(root: Path, language: str, *, sidecar_language: str | None = "same") -> Path:
    """``root/refs`` and ``root/hyps`` for ``language``; sidecars name the language (or
    ``sidecar_language``; ``None``: none) and the shared namespace."""
    for name, rows in BENCHMARKS[language].items():
        write_jsonl(root / f"refs/{name}.jsonl", [{"id": i, "text": r, "cluster": c} for i, c, r, _ in rows])
        write_jsonl(root / f"hyps/{name}.jsonl", [{"id": i, "text": h} for i, _, _, h in rows if h is not None])
        meta = {"schema": "asrbench.refs/1", "cluster_namespace": NAMESPACE}
        if sidecar_language is not None:
            meta["language"] = language if sidecar_language == "same" else sidecar_language
        (root / f"refs/{name}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return root


def corpus_score(language: str, names=("a", "b"), metric: str = "stt_wer"):
    """score() on the pairs of ``names``, a missing hypothesis as "" (as bench score counts it)."""
    rows = [row for name in names for row in BENCHMARKS[language][name]]
    return score([r for *_, r, _ in rows], [h or "" for *_, h in rows], language, metric)


def counts(entry: dict) -> tuple:
    return tuple(entry[k] for k in ("rate", "substitutions", "deletions", "insertions", "reference_length"))


def score_counts(result) -> tuple:
    return (result.rate, result.substitutions, result.deletions, result.insertions, result.reference_length)


@pytest.mark.parametrize("language", ["en", "de"])
def test_each_set_and_the_overall_equal_score_corpus_rates(tmp_path, language):
    root = make_benchmark(tmp_path, language)
    measure = measure_for(benchmark_language(root / "refs", ["a", "b"], None))
    assert (measure.metric, measure.language, measure.unit, measure.label) == ("stt_wer", language, "word", "WER")
    scores = score_benchmark(root / "refs", root / "hyps", seed=3, resamples=200, measure=measure)
    by_set = {result.name: result for result in scores.sets}
    for name in ("a", "b"):
        expected = corpus_score(language, [name])
        got = by_set[name].system.counts
        assert (got.rate, got.substitutions, got.deletions, got.insertions, got.reference_length) == score_counts(expected)
    overall = scores.overall.system.counts
    assert (overall.rate, overall.substitutions, overall.deletions, overall.insertions,
            overall.reference_length) == score_counts(corpus_score(language))
    assert overall.rate > 0 and by_set["a"].system.missing == ("a3",)
    # the two sets share their speakers: the overall resamples them jointly
    assert scores.shared == ({"namespace": NAMESPACE, "sets": ["a", "b"], "clusters": 4},)
    low, high = scores.overall.ci95.low, scores.overall.ci95.high
    assert low <= overall.rate <= high


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_cli_rate_equals_asrbench_score_on_the_same_files(tmp_path, capsys, language):
    root = make_benchmark(tmp_path, language)
    out = tmp_path / "scores.json"
    code = main(["bench", "score", "--refs", str(root / "refs"), "--hyps", str(root / "hyps"), "--resamples", "50",
                 "--json", str(out), "--markdown", str(tmp_path / "scores.md")])
    printed = capsys.readouterr().out
    assert code == 0
    assert printed.splitlines()[0].split()[3:5] == ["WER", "%"]
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["metric"]["name"] == "stt_wer" and record["metric"]["language"] == language
    assert record["metric"]["unit"] == "word" and record["metric"]["version"] == score("a", "a", language).version
    assert "| WER % |" in (tmp_path / "scores.md").read_text(encoding="utf-8")
    for entry in record["sets"]:
        name = entry["set"]
        assert main(["score", "-l", language, "--references", str(root / f"refs/{name}.jsonl"),
                     "--hypotheses", str(root / f"hyps/{name}.jsonl"), "--json"]) == 0
        by_file = json.loads(capsys.readouterr().out)
        assert counts(entry) == counts(by_file)


def test_the_language_option_wins_over_sidecars_without_one_and_names_the_metric(tmp_path, capsys):
    root = make_benchmark(tmp_path, "en", sidecar_language=None)
    out = tmp_path / "scores.json"
    assert main(["bench", "score", "--refs", str(root / "refs"), "--hyps", str(root / "hyps"), "--resamples", "20",
                 "--language", "en", "--metric", "cer", "--json", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0].split()[3:5] == ["CER", "%"]
    record = json.loads(out.read_text(encoding="utf-8"))
    assert (record["metric"]["name"], record["metric"]["unit"]) == ("cer", "char")
    assert record["overall"]["rate"] == corpus_score("en", metric="cer").rate


def test_a_set_without_a_language_is_one_clear_error(tmp_path, capsys):
    root = make_benchmark(tmp_path, "en", sidecar_language=None)
    assert main(["bench", "score", "--refs", str(root / "refs"), "--hyps", str(root / "hyps")]) == 2
    err = capsys.readouterr().err
    assert "name no language: pass --language LANG or write \"language\"" in err and len(err.splitlines()) == 1


def test_an_unknown_language_is_one_clear_error(tmp_path, capsys):
    root = make_benchmark(tmp_path, "en")
    assert main(["bench", "score", "--refs", str(root / "refs"), "--hyps", str(root / "hyps"), "--language", "xx"]) == 2
    err = capsys.readouterr().err
    assert "'xx'" in err and "en" in err and len(err.splitlines()) == 1
    unknown = make_benchmark(tmp_path / "sidecar", "en", sidecar_language="xx")
    with pytest.raises(UnknownLanguageError, match="'xx'"):
        benchmark_language(unknown / "refs", ["a", "b"], None)


def test_sets_in_different_languages_or_a_conflicting_option_are_refused(tmp_path):
    root = make_benchmark(tmp_path, "en")
    (root / "refs/b.meta.json").write_text(json.dumps({"language": "de"}), encoding="utf-8")
    with pytest.raises(SetLanguageError, match=r"different languages: a \(en\), b \(de\)"):
        benchmark_language(root / "refs", ["a", "b"], None)
    with pytest.raises(SetLanguageError, match=r"--language en but the sidecar of b \(de\)"):
        benchmark_language(root / "refs", ["a", "b"], "en")
    (root / "refs/b.meta.json").write_text(json.dumps({"language": 7}), encoding="utf-8")
    with pytest.raises(SetLanguageError, match="language must be a language tag"):
        benchmark_language(root / "refs", ["a", "b"], None)


def test_th_bench_cer_is_thai_only_and_metrics_are_checked():
    with pytest.raises(SetLanguageError, match="th_bench_cer scores Thai only"):
        measure_for("en", "th_bench_cer")
    with pytest.raises(UnknownMetricError, match="known metrics"):
        measure_for("en", "bleu")
    assert measure_for("th") is THAI_BENCHMARK
    assert measure_for("th", "cer").metric == "cer"
    assert measure_for("ja").unit == "char" and measure_for("ja").label == "CER"


def test_thai_is_scored_with_th_bench_cer_from_the_sidecar_language(tmp_path, capsys):
    out = tmp_path / "scores.json"
    assert main(["bench", "score", "--refs", str(SHIPPED / "refs"), "--hyps", str(SHIPPED / "hyps_a"),
                 "--resamples", "30", "--json", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0].split()[3:5] == ["CER", "%"]
    record = json.loads(out.read_text(encoding="utf-8"))
    assert (record["metric"]["name"], record["metric"]["language"]) == ("th_bench_cer", "th")
    assert record["metric"]["cleaning"] == "th-bench-v1"
    default = score_benchmark(SHIPPED / "refs", SHIPPED / "hyps_a", resamples=30)
    assert record["overall"]["rate"] == default.overall.system.counts.rate


def _case_file(tmp_path: Path, language: str, entry: str = "") -> Path:
    path = tmp_path / "bench.yaml"
    path.write_text(f"language: {language}\ncases:\n  - id: two-sets\n    kind: benchmark\n"
                    f"    references: refs\n    hypotheses: hyps\n    resamples: 100\n{entry}", encoding="utf-8")
    return path


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_benchmark_case_kind_scores_with_the_case_language(tmp_path, language):
    make_benchmark(tmp_path, language)
    loaded = load_case_file(_case_file(tmp_path, language))
    assert not loaded.errors, loaded.errors
    case = loaded.cases[0]
    result = RUNNERS["benchmark"].run(case, RunContext(rootpath=tmp_path))
    assert not result.failures
    assert (result.output["metric"], result.output["language"]) == ("stt_wer", language)
    assert counts(result.output["overall"]) == score_counts(corpus_score(language))
    assert gated_metric(case) == "stt_wer"


def test_a_benchmark_case_whose_sets_are_in_another_language_fails_clearly(tmp_path):
    make_benchmark(tmp_path, "en")
    case = load_case_file(_case_file(tmp_path, "de")).cases[0]
    with pytest.raises(SetLanguageError, match="--language de but the sidecar of a \\(en\\), b \\(en\\)"):
        RUNNERS["benchmark"].run(case, RunContext(rootpath=tmp_path))


def test_a_thai_benchmark_case_keeps_th_bench_cer_unless_it_names_a_metric(tmp_path):
    shipped = load_case_file(SHIPPED.parent / "benchmark.yaml").cases[0]
    result = RUNNERS["benchmark"].run(shipped, RunContext(rootpath=SHIPPED.parent))
    assert result.output["metric"] == "th_bench_cer" and "language" not in result.output
    assert gated_metric(shipped) == "th_bench_cer"
    (tmp_path / "refs").symlink_to(SHIPPED / "refs")
    (tmp_path / "hyps").symlink_to(SHIPPED / "hyps_a")
    case = load_case_file(_case_file(tmp_path, "th", "    metric: cer\n    sets: [synthetic_long]\n")).cases[0]
    named = RUNNERS["benchmark"].run(case, RunContext(rootpath=tmp_path))
    assert (named.output["metric"], named.output["language"]) == ("cer", "th")
    assert gated_metric(case) == "cer"


@pytest.mark.parametrize("language, references, hypotheses", [
    ("ko", ["오늘 날씨가 좋네요", "삼만 원입니다", "회의는 세 시에 시작해요"],
     ["오늘날씨가 좋네요", "3만원 입니다", "회의는 3시에 시작해"]),
    ("hi", ["मेरे लैपटॉप में नेटवर्क प्रॉब्लम है", "मेरी flight कल है", "कल मिलते हैं"],
     ["मेरे लैपटॉप में network problem है", "मेरी fight कल है", "कल मिलेंगे"]),
    ("ja", ["今日は良い天気です", "三時に会いましょう"], ["今日はいい天気です", "3時に会いましょう"]),
    ("zh", ["今天天气很好", "我有三本书"], ["今天天气很好啊", "我有3本书"]),
])
def test_pairs_summed_equal_score_where_a_view_sets_the_headline(tmp_path, language, references, hypotheses):
    # Korean's CER without spaces and Hindi's code-switch rescue replace the strict counts:
    # the benchmark sums each pair's headline counts, which is score()'s corpus figure
    write_jsonl(tmp_path / "refs/s.jsonl", [{"id": str(i), "text": t, "cluster": str(i)} for i, t in enumerate(references)])
    write_jsonl(tmp_path / "hyps/s.jsonl", [{"id": str(i), "text": t} for i, t in enumerate(hypotheses)])
    scores = score_benchmark(tmp_path / "refs", tmp_path / "hyps", resamples=20, measure=measure_for(language))
    got = scores.overall.system.counts
    expected = score(references, hypotheses, language)
    assert (got.rate, got.substitutions, got.deletions, got.insertions, got.reference_length) == score_counts(expected)
    assert got.rate > 0


def test_an_english_set_with_only_empty_references_has_no_rate_and_counts_insertions(tmp_path, capsys):
    write_jsonl(tmp_path / "refs/e.jsonl", [{"id": "1", "text": "", "cluster": "c"}, {"id": "2", "text": " . ", "cluster": "c"}])
    write_jsonl(tmp_path / "hyps/e.jsonl", [{"id": "1", "text": "hello there"}, {"id": "2", "text": ""}])
    out = tmp_path / "scores.json"
    assert main(["bench", "score", "--refs", str(tmp_path / "refs"), "--hyps", str(tmp_path / "hyps"), "-l", "en",
                 "--resamples", "20", "--json", str(out)]) == 0
    entry = json.loads(out.read_text(encoding="utf-8"))["sets"][0]
    assert (entry["rate"], entry["insertions"], entry["reference_length"], entry["ci95"]) == (None, 2, 0, [None, None])


def test_bench_score_names_the_clip_that_drives_a_set_s_rate_above_100_percent(tmp_path, capsys):
    """The table's rate above 100% points at the clip holding it, as the run summary points at
    cases: one hypothesis in a repetition loop among nineteen clean ones."""
    refs = [{"id": f"c{index:02d}", "text": "please open the door", "cluster": f"spk{index % 4}"} for index in range(20)]
    hyps = [{"id": row["id"], "text": row["text"]} for row in refs]
    hyps[7]["text"] = "please open the door " + "the door " * 50  # 100 inserted words
    write_jsonl(tmp_path / "refs/loop.jsonl", refs)
    write_jsonl(tmp_path / "hyps/loop.jsonl", hyps)
    assert main(["bench", "score", "--refs", str(tmp_path / "refs"), "--hyps", str(tmp_path / "hyps"), "-l", "en",
                 "--resamples", "50"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("loop WER 125.00% is above 100% and driven by 1 of 20 clip(s), holding 100 of 100 errors "
                        "(100%); 0.00% without it:")
    assert lines[start + 1] == ("  c07: 100 error(s) over 4 reference words, 100 insertion(s) > 2x its reference "
                                "length: the hypothesis is much longer (a hallucination or repetition loop?)")
    assert lines[start + 3].startswith("overall WER 125.00% is above 100% and driven by 1 of 20 clip(s)")
    assert lines[start + 4].startswith("  loop/c07: 100 error(s)")
    assert lines[-1] == "(each named clip's texts: <folder>/<set>.jsonl, by id)"


def test_bench_score_prints_no_pointer_when_errors_are_spread(tmp_path, capsys):
    make_benchmark(tmp_path, "en")
    assert main(["bench", "score", "--refs", str(tmp_path / "refs"), "--hyps", str(tmp_path / "hyps"),
                 "--resamples", "50"]) == 0
    assert "driven by" not in capsys.readouterr().out


def test_bench_score_warns_of_a_hypothesis_file_no_reference_set_has(tmp_path, capsys):
    make_benchmark(tmp_path, "en")
    (tmp_path / "hyps/a.jsonl").rename(tmp_path / "hyps/a_v2.jsonl")
    write_jsonl(tmp_path / "hyps/a.jsonl", [{"id": "a1", "text": "the meeting starts at ten a m"}])
    assert main(["bench", "score", "--refs", str(tmp_path / "refs"), "--hyps", str(tmp_path / "hyps"),
                 "--resamples", "20"]) == 0
    assert (f"asrbench bench score: warning: --hyps {tmp_path / 'hyps'}: 1 hypothesis file(s) with no reference set, "
            "not scored: a_v2.jsonl (the reference sets: a, b; rename the file to its set's name)"
            in capsys.readouterr().err.splitlines())
    assert main(["bench", "score", "--refs", str(tmp_path / "refs"), "--hyps", str(tmp_path / "hyps"),
                 "--resamples", "20", "--sets", "a"]) == 0
    assert "no reference set" not in capsys.readouterr().err  # a selection leaves the other files out on purpose
