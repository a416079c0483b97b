"""Per-slice statistics of a bench record: rates with speaker bootstrap intervals, medians,
S/D/I, latency percentiles, RTF, exact-match, critical-token, no-output and text-output rates."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from pytest_asrbench.bench.run.slices import slice_statistics  # noqa: E402


def _utterance(slice_name, speaker, s, d, i, length, latency, duration, no_output=False, critical=None):
    return {"slice": slice_name, "speaker": speaker, "latency_seconds": latency, "duration_seconds": duration,
            "no_output": no_output, "critical": critical or {},
            "views": {"stt_wer": {"substitutions": s, "deletions": d, "insertions": i, "reference_length": length}}}


UTTERANCES = [
    _utterance("short", "a", 0, 0, 0, 4, 1.0, 2.0),
    _utterance("short", "a", 1, 0, 0, 5, 2.0, 2.0),
    _utterance("short", "b", 0, 1, 1, 4, 3.0, 3.0),
    _utterance("numbers", "b", 1, 0, 0, 4, 1.0, 2.0, critical={"digits": {"total": 2, "failed": 1}}),
    _utterance("numbers", "c", 0, 0, 0, 4, 1.0, 2.0, critical={"digits": {"total": 1, "failed": 0}}),
    _utterance("silence", "n1", 0, 0, 0, 0, 0.5, 2.0, no_output=True),
    _utterance("silence", "n2", 0, 0, 1, 0, 0.5, 2.0),
]


def test_the_rates_medians_and_counts_of_each_slice():
    stats = slice_statistics(UTTERANCES, "stt_wer", seed=2026)
    assert list(stats) == ["numbers", "short", "silence"]
    short = stats["short"]
    assert (short["utterances"], short["speakers"]) == (3, 2)
    assert short["rate"] == pytest.approx(3 / 13, abs=1e-6)
    assert short["median_rate"] == pytest.approx(0.2)  # 0, 0.2, 0.5
    assert (short["substitutions"], short["deletions"], short["insertions"]) == (1, 1, 1)
    assert short["latency_p50_seconds"] == 2.0 and short["latency_p95_seconds"] == pytest.approx(2.9)
    assert short["real_time_factor"] == pytest.approx(6.0 / 7.0, abs=1e-4)
    assert short["not_exact"] == {"count": 2, "total": 3, "rate": pytest.approx(2 / 3, abs=1e-6),
                                  "interval": short["not_exact"]["interval"]}
    low, high = short["rate_interval"]
    assert 0 <= low <= short["rate"] <= high


def test_critical_token_failures_are_a_rate_with_an_interval():
    numbers = slice_statistics(UTTERANCES, "stt_wer", seed=2026)["numbers"]
    assert numbers["critical_failed"]["count"] == 1 and numbers["critical_failed"]["total"] == 3
    assert numbers["critical_failed"]["rate"] == pytest.approx(1 / 3, abs=1e-6)
    low, high = numbers["critical_failed"]["interval"]
    assert 0 <= low <= high <= 1


def test_the_silence_slice_gives_hallucination_and_no_output_rates_and_no_word_rate():
    silence = slice_statistics(UTTERANCES, "stt_wer", seed=2026)["silence"]
    assert silence["rate"] is None and silence["rate_interval"] == [None, None] and silence["median_rate"] is None
    assert silence["text_output"]["count"] == 1 and silence["text_output"]["rate"] == 0.5
    assert silence["no_output"]["rate"] == 0.5
    assert silence["not_exact"] == {"count": 0, "total": 0, "rate": None, "interval": [None, None]}


def test_the_same_seed_gives_the_same_intervals():
    assert slice_statistics(UTTERANCES, "stt_wer", 7) == slice_statistics(UTTERANCES, "stt_wer", 7)


def test_cached_utterances_count_in_rates_but_not_in_timings():
    cached = _utterance("short", "c", 0, 0, 0, 4, None, 5.0)  # from the hypothesis cache: no latency
    stats = slice_statistics([*UTTERANCES, cached], "stt_wer", seed=2026)["short"]
    assert stats["utterances"] == 4 and stats["rate"] == pytest.approx(3 / 17, abs=1e-6)
    assert stats["latency_p50_seconds"] == 2.0
    assert stats["real_time_factor"] == pytest.approx(6.0 / 7.0, abs=1e-4)
    only_cached = slice_statistics([cached], "stt_wer", seed=2026)["short"]
    assert (only_cached["latency_p50_seconds"], only_cached["real_time_factor"]) == (None, None)
