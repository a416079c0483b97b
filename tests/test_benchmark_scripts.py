"""The throughput scripts run end to end on a tiny corpus (they are not timed here: a refactor of
one script's helpers once broke the other's import, unnoticed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize("argv", [["normalize_throughput.py", "--count", "60", "--repeat", "1"],
                                  ["normalize_languages.py", "--count", "60", "--repeat", "1", "--languages", "de", "ko"]])
def test_throughput_script_prints_its_ratios(argv):
    pytest.importorskip("whisper_normalizer")
    done = subprocess.run([sys.executable, str(BENCHMARKS / argv[0]), *argv[1:]], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "x" in done.stdout.splitlines()[-1] and "Traceback" not in done.stderr
    if argv[0] == "normalize_languages.py":
        assert [line.split(" | ")[0] for line in done.stdout.splitlines() if line.startswith("| de") or line.startswith("| ko")] == ["| de", "| ko"]



def test_language_throughput_script_prints_each_step_s_cpu_per_text_with_steps():
    pytest.importorskip("whisper_normalizer")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "normalize_languages.py"), "--count", "40", "--repeat", "1",
                           "--languages", "de", "--steps"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("de: CPU per text, whole pipeline") for line in lines)
    rows = [line.split(" | ")[0] for line in lines if line.startswith("| ") and line.endswith("% |")]
    assert "| spoken_numbers" in rows and "| punctuation (again)" in rows


def test_language_throughput_script_prints_each_corpus_s_share_of_distinct_texts():
    pytest.importorskip("whisper_normalizer")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "normalize_languages.py"), "--count", "40", "--repeat", "2",
                           "--languages", "zh", "th"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "| distinct texts |" in done.stdout and "a new corpus each pass" in done.stdout


def test_each_timed_normalizer_pass_runs_texts_of_its_own():
    """No timed pass re-runs the warm-up corpus or an earlier pass's corpus, so a normalizer
    that kept outputs per text could not time look-ups."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import corpora
        from normalize_throughput import make_corpus, pass_corpora
    finally:
        sys.path.remove(str(BENCHMARKS))
    for make in (make_corpus, corpora.load("zh"), corpora.load("th"), corpora.load("de")):
        warm_up = make(2000, 7)
        passes = pass_corpora(make, 2000, 7, 3)
        seen = set(warm_up)
        for corpus in passes:
            assert len(set(corpus) & seen) <= 0.1 * len(corpus)
            seen |= set(corpus)


def test_the_cjk_and_thai_benchmark_corpora_are_nine_tenths_distinct_texts():
    """A corpus that repeats its texts rewards remembering them; real test sets barely repeat."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import corpora
    finally:
        sys.path.remove(str(BENCHMARKS))
    for tag in ("zh", "th", "ko"):
        corpus = corpora.load(tag)(20_000, 20261201)
        assert len(set(corpus)) >= 0.9 * len(corpus), tag


def test_bootstrap_script_checks_equal_intervals_and_prints_its_ratios():
    pytest.importorskip("numpy")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bootstrap.py"), "--clips", "300", "--clusters", "30",
                           "--resamples", "50", "--repeat", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("same intervals: True") for line in lines)
    assert "ratio" in lines[-3] and "ratio" in lines[-1]


def test_monte_carlo_error_script_prints_measured_and_reported_errors():
    pytest.importorskip("numpy")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bootstrap_mc_error.py"), "--resamples", "100",
                           "--seeds", "5"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [line.split(" | ")[0] for line in done.stdout.splitlines()[-2:]] == ["| synthetic", "| overall (joint)"]


def test_alignment_benchmark_prints_every_figure_with_identical_totals():
    pytest.importorskip("whisper_normalizer")
    argv = ["--pairs", "300", "--large", "400", "--small", "100", "--repeat", "1"]
    done = subprocess.run([sys.executable, str(BENCHMARKS / "alignment.py"), *argv], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "corpus totals identical" in done.stdout
    for heading in ("[align]", "[end-to-end]", "[scaling]", "peak memory"):
        assert heading in done.stdout, heading


@pytest.mark.asr
@pytest.mark.slow
def test_batched_decoding_script_prints_both_arms_for_short_clips_and_a_long_recording():
    pytest.importorskip("faster_whisper")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "batched_decoding.py"), "--rounds", "1", "--repeat", "1",
                           "--languages", "en"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines if not line.startswith(" ")][1:] == ["short", "long"]
    ratios = [line for line in lines if "speed ratio sequential/batched" in line]
    assert len(ratios) == 2 and all("transcripts differing:" in line for line in ratios)


def test_loanword_benchmark_prints_both_languages_and_never_a_raised_rate():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "loanwords.py"), "--turns", "60", "--repeat", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    ratios = [line for line in done.stdout.splitlines() if "ratio rescued/plain" in line]
    assert len(ratios) == 2 and done.stdout.startswith("ja:") and "\nko:" in done.stdout


@pytest.mark.parametrize("script", ["normalize_languages.py", "normalize_throughput.py"])
@pytest.mark.parametrize("option, value", [("--count", "0"), ("--repeat", "0"), ("--count", "-5"), ("--repeat", "x")])
def test_a_normalizer_benchmark_refuses_a_count_or_repeat_below_one(script, option, value):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), option, value], capture_output=True, text=True)
    assert done.returncode == 2 and f"argument {option}:" in done.stderr and "Traceback" not in done.stderr


def test_the_ab_script_times_two_checkouts_in_one_process_and_prints_a_row_per_language(tmp_path):
    pytest.importorskip("whisper_normalizer")
    root = BENCHMARKS.parent
    done = subprocess.run([sys.executable, str(BENCHMARKS / "normalize_ab.py"), "--base", str(root), "--languages",
                           "en", "de", "--rounds", "2", "--count", "30"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [line.split(" | ")[0] for line in done.stdout.splitlines() if line.startswith("| ") and "x |" in line] == [
        "| en", "| de"]
    refused = subprocess.run([sys.executable, str(BENCHMARKS / "normalize_ab.py"), "--base", str(tmp_path)],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "no pytest_asrbench package there" in refused.stderr


def test_collect_run_arms_share_one_bytecode_cache_and_never_run_without_one(tmp_path, monkeypatch):
    """Without a bytecode cache every pytest process compiles each module it imports again,
    a fixed cost that swamps the per-item figures; the arms share one cache in the project."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import collect_run
    finally:
        sys.path.remove(str(BENCHMARKS))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    plain = collect_run.child_environment(tmp_path)
    before = collect_run.child_environment(tmp_path, pythonpath="/elsewhere/checkout")
    assert "PYTHONDONTWRITEBYTECODE" not in plain and "PYTHONDONTWRITEBYTECODE" not in before
    assert plain["PYTHONPYCACHEPREFIX"] == before["PYTHONPYCACHEPREFIX"] == str(tmp_path.resolve() / ".pycache")
    assert before["PYTHONPATH"] == "/elsewhere/checkout" and "PYTHONPATH" not in plain


def test_the_ab_script_times_each_listed_step_at_each_place_and_refuses_an_unknown_step():
    pytest.importorskip("whisper_normalizer")
    root = BENCHMARKS.parent
    command = [sys.executable, str(BENCHMARKS / "normalize_ab.py"), "--base", str(root), "--languages", "en", "de",
               "--rounds", "2", "--count", "30", "--steps"]
    done = subprocess.run([*command, "collapse_whitespace", "units"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ")[:2] for line in done.stdout.splitlines()
            if line.startswith("| ") and " (" in line and not line.startswith("| language")]
    assert rows == [["| en", "collapse_whitespace (12)"], ["| en", "units (13)"], ["| en", "collapse_whitespace (30)"],
                    ["| de", "collapse_whitespace (24)"], ["| de", "units (29)"]]
    refused = subprocess.run([*command, "units", "no_such_step"], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "--steps no_such_step: listed by none of the en de normalizers" in refused.stderr


@pytest.mark.parametrize("arm", ["none", "plain", "rescued"])
def test_code_switch_script_runs_one_arm_silently_for_instruction_counts(arm):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "codeswitch.py"), "--languages", "fr", "--turns", "30",
                           "--arm", arm], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
