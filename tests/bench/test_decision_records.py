"""The decision read from two bench records: hold constant, a declared revision the weights do
not match, the pre-registered threshold file (P1 and the capability route), long-form
regressions and the offline model source."""

from __future__ import annotations

import copy
import json

import pytest

from pytest_asrbench.bench.compare.decision import decide_records, longform_regressions, offline_blockers
from pytest_asrbench.bench.compare.thresholds import read_thresholds, usability_failures
from pytest_asrbench.bench.errors import ComparisonError
from pytest_asrbench.bench.run.runner import validity
from pytest_asrbench.cli import main


def _decide(base, candidate, **options):
    values = dict(base_path="base.json", candidate_path="candidate.json", view=None, seed=2026, resamples=200,
                  margin=0.01)
    values.update(options)
    return decide_records(base, candidate, **values)


def test_the_same_model_at_another_beam_size_is_research_only_with_the_reason(pilot_runs):
    (_, base), (_, candidate) = pilot_runs[5], pilot_runs[1]
    cheap = copy.deepcopy(candidate)
    # make it a cost win at equal CER, so only the hold-constant violation can block it
    cheap["utterances"] = copy.deepcopy(base["utterances"])
    cheap["performance"]["cpu_core_seconds"] = base["performance"]["cpu_core_seconds"] * 0.5
    cheap["validity_reasons"], base = [], copy.deepcopy(base)
    base["validity_reasons"] = []
    decision = _decide(base, cheap)
    assert decision["verdict"] == "research only"
    assert any("hold constant: the arms differ in decode.beam_size 5 -> 1" in r for r in decision["reasons"])


def test_a_declared_revision_the_weights_do_not_match_invalidates_the_claim(pilot_runs):
    _, record = pilot_runs[5]
    wrong = copy.deepcopy(record)
    wrong["model"]["revision"].update(declared="deadbeef", matches_declared=False)
    assert any("the declared model revision 'deadbeef' does not match the weights'" in r for r in validity(wrong))


def test_a_missing_declared_licence_is_no_claim(pilot_runs):
    _, record = pilot_runs[5]
    undeclared = copy.deepcopy(record)
    undeclared["model"]["licence"]["verdict"] = "undeclared"
    assert "model licence verdict is undeclared" in validity(undeclared)


def _thresholds(tmp_path, record, **content):
    value = {"schema": "asrbench.thresholds/1", "registered": "2026-12-01",
             "manifest_sha256": record["corpus"]["manifest_sha256"]}
    value.update(content)
    path = tmp_path / "thresholds.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    return read_thresholds(path)


def test_p1_names_every_bound_the_baseline_misses(pilot_runs, tmp_path):
    _, record = pilot_runs[5]
    overall = record["metrics"]["overall"]["cer_normalized"]["rate"]
    strict = _thresholds(tmp_path, record, overall={"max_rate": overall / 2, "max_real_time_factor": 100.0},
                         slices={"short": {"max_rate": 1.0}})
    assert usability_failures(record, strict) == [f"cer_normalized overall {overall} > {overall / 2}"]
    decision = _decide(record, record, thresholds=strict)
    assert decision["p1"]["supported_label"] is False and decision["p1"]["thresholds"]["sha256"]
    assert any("do not label the language generally supported" in r for r in decision["reasons"])
    lenient = _thresholds(tmp_path, record, overall={"max_rate": 1.0})
    assert _decide(record, record, thresholds=lenient)["p1"]["supported_label"] is True


@pytest.mark.parametrize(("content", "message"), [
    ({"schema": "other"}, "schema must be"),
    ({"registered": "yesterday"}, "registered must be the date"),
    ({"overall": {"max_rate": "low"}}, "expected a finite number >= 0"),
    ({"overall": {"max_wer": 0.1}}, "unknown bound 'max_wer'"),
    ({"slices": {"short": {"max_real_time_factor": 1}}}, "unknown bound"),
    ({}, "give the minimum usability threshold"),
])
def test_a_bad_threshold_file_is_refused_saying_what_to_fix(tmp_path, content, message):
    value = {"schema": "asrbench.thresholds/1", "registered": "2026-12-01", "manifest_sha256": "a" * 64,
             "overall": {"max_rate": 0.1}}
    value.update(content)
    if not content:
        del value["overall"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    with pytest.raises(ComparisonError, match=message):
        read_thresholds(path)


def test_a_threshold_file_of_another_manifest_is_refused(pilot_runs, tmp_path):
    _, record = pilot_runs[5]
    other = copy.deepcopy(record)
    other["corpus"]["manifest_sha256"] = "b" * 64
    thresholds = _thresholds(tmp_path, other, overall={"max_rate": 1.0})
    with pytest.raises(ComparisonError, match="was registered for manifest b{64}"):
        usability_failures(record, thresholds)


def test_the_capability_route_reads_the_registered_slice(pilot_runs, tmp_path):
    _, record = pilot_runs[5]
    thresholds = _thresholds(tmp_path, record, overall={"max_rate": 1.0}, capabilities={"short": {"max_rate": 0.5}})
    decision = _decide(record, record, thresholds=thresholds)
    (capability,) = decision["capabilities"]
    assert capability["slice"] == "short" and capability["validated"] is False  # the same record: no gain


def test_more_errors_in_a_long_form_interval_is_a_regression(pilot_runs):
    _, record = pilot_runs[5]
    worse = copy.deepcopy(record)
    interval = worse["long_form"][0]["intervals"][0]
    interval["views"]["cer_normalized"]["errors"] += 2
    worse["long_form"][0]["unassigned_segments"] += 1
    found = longform_regressions(record, worse, "cer_normalized")
    assert len(found) == 2 and "interval 0" in found[0] and "segments outside every interval" in found[1]
    assert longform_regressions(record, record, "cer_normalized") == []


def test_a_model_source_that_is_not_offline_blocks_a_claim(pilot_runs):
    _, record = pilot_runs[5]
    assert offline_blockers(record) == []
    unknown = copy.deepcopy(record)
    unknown["model"]["source"] = None
    assert "offline cache" in offline_blockers(unknown)[0]


def test_compare_takes_the_threshold_file(pilot_runs, tmp_path, capsys):
    (base_path, base), (cand_path, _) = pilot_runs[5], pilot_runs[1]
    path = tmp_path / "thresholds.json"
    path.write_text(json.dumps({"schema": "asrbench.thresholds/1", "registered": "2026-12-01",
                                "manifest_sha256": base["corpus"]["manifest_sha256"],
                                "overall": {"max_rate": 1.0}}), encoding="utf-8")
    out = tmp_path / "decision.md"
    assert main(["bench", "compare", str(base_path), str(cand_path), "--out", str(out), "--thresholds", str(path)]) == 0
    assert "P1: the baseline base meets the pre-registered minimum usability threshold" in capsys.readouterr().out
