"""``asrbench bench compare``: refusals, the paired bootstrap, the rule, the decision record."""

from __future__ import annotations

import copy
import json

import pytest

from pytest_asrbench.bench.compare import rule
from pytest_asrbench.bench.compare.decision import decide_records
from pytest_asrbench.bench.errors import ComparisonError
from pytest_asrbench.cli import main


def test_compare_of_two_pilot_runs_writes_a_dated_decision_with_verdict_and_reasons(pilot_runs, tmp_path, capsys):
    (base_path, base), (cand_path, cand) = pilot_runs[5], pilot_runs[1]
    out = tmp_path / "decision.md"
    assert main(["bench", "compare", str(base_path), str(cand_path), "--out", str(out)]) == 0
    decision = json.loads((tmp_path / "decision.json").read_text(encoding="utf-8"))
    text = out.read_text(encoding="utf-8")
    assert decision["schema"] == "asrbench.decision/1"
    assert decision["verdict"].startswith(rule.VERDICTS) and decision["reasons"]
    assert text.startswith(f"# Decision {decision['date']}: {decision['verdict']}")
    for reason in decision["reasons"]:
        assert f"- {reason}" in text
    # the winner (if any) is named by model revision, corpus hash and host profile
    assert decision["corpus"]["manifest_sha256"] == base["corpus"]["manifest_sha256"] in text
    for arm in decision["arms"].values():
        assert arm["model"]["revision"] and arm["host_profile"]["cpu_model"] and arm["host_profile"]["label"]
    assert decision["arm_differences"] == {"decode.beam_size": [5, 1]}
    # a beam-size difference is no model comparison: at most research only, with the reason
    assert decision["hold_constant_violations"] == ["decode.beam_size 5 -> 1"]
    assert decision["verdict"] == "research only"
    assert decision["bootstrap"]["clusters"] == "speakers" and decision["bootstrap"]["count"] == 2
    assert decision["bootstrap"]["seed"] == 2026
    assert set(decision["cost"]["ratios"]) >= {"latency_p50", "latency_p95", "cpu_core_seconds"}
    # a pilot is not valid for a claim: it can never be promoted
    assert decision["verdict"] != "promote"
    assert f"verdict: {decision['verdict']}" in capsys.readouterr().out


def test_a_record_of_another_manifest_is_refused_naming_the_field(pilot_runs, tmp_path, capsys):
    (base_path, _), (_, cand) = pilot_runs[5], pilot_runs[1]
    other = copy.deepcopy(cand)
    other["corpus"]["manifest_sha256"] = "0" * 64
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other), encoding="utf-8")
    assert main(["bench", "compare", str(base_path), str(path), "--out", str(tmp_path / "d.md")]) == 2
    assert "corpus.manifest_sha256 differs" in capsys.readouterr().err
    assert not (tmp_path / "d.md").exists()


def test_records_of_another_manifest_than_the_registered_one_are_refused(pilot_runs, tmp_path, capsys):
    (base_path, _), (cand_path, _) = pilot_runs[5], pilot_runs[1]
    assert main(["bench", "compare", str(base_path), str(cand_path), "--out", str(tmp_path / "d.md"),
                 "--manifest-sha256", "f" * 64]) == 2
    assert "the base record ran manifest" in capsys.readouterr().err


def test_another_decode_policy_is_refused_naming_the_field(pilot_runs):
    (_, base), (_, cand) = pilot_runs[5], pilot_runs[1]
    other = copy.deepcopy(cand)
    other["decode_policy"]["condition_on_previous_text"] = True
    with pytest.raises(ComparisonError, match=r"decode_policy.condition_on_previous_text differs: base False, "
                                              r"candidate True"):
        decide_records(base, other, base_path="a", candidate_path="b", view="cer_normalized", seed=0,
                       resamples=100, margin=0.01)


def test_a_smoke_record_cannot_be_compared(tmp_path, capsys):
    smoke = tmp_path / "smoke.json"
    main(["bench", "run", "--smoke", "--out", str(smoke)])
    assert main(["bench", "compare", str(smoke), str(smoke), "--out", str(tmp_path / "d.md")]) == 2
    assert "smoke record" in capsys.readouterr().err


def test_a_file_that_is_not_a_record_is_refused(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text('{"schema": "asrbench.run/1"}', encoding="utf-8")
    assert main(["bench", "compare", str(bad), str(bad), "--out", str(tmp_path / "d.md")]) == 2
    assert "schema 'asrbench.run/1', not asrbench.bench/1" in capsys.readouterr().err


def _evidence(**changes) -> rule.Evidence:
    values = dict(base_rate=0.20, candidate_rate=0.20, interval=(-0.01, 0.01), latency_p50_ratio=1.0,
                  latency_p95_ratio=1.0, core_ratio=1.0, same_host=True, candidate_licence="permissive")
    values.update(changes)
    return rule.Evidence(**values)


@pytest.mark.parametrize(("changes", "verdict", "reason"), [
    ({}, "stay with base", "no material improvement"),
    ({"candidate_rate": 0.15, "interval": (-0.08, -0.02)}, "promote", "a CER win"),
    # 25% lower CER but the interval crosses 0: not a win
    ({"candidate_rate": 0.15, "interval": (-0.08, 0.005)}, "stay with base", "no material improvement"),
    # 15% lower CER only: below the 20% rule
    ({"candidate_rate": 0.17, "interval": (-0.05, -0.01)}, "stay with base", "no material improvement"),
    ({"latency_p50_ratio": 0.6, "latency_p95_ratio": 0.65}, "promote", "a cost win at non-inferior CER"),
    ({"core_ratio": 0.7}, "promote", "a cost win at non-inferior CER"),
    # cheaper, but the hosts differ: cost is not compared
    ({"core_ratio": 0.5, "same_host": False}, "stay with base", "the hosts differ"),
    # cheaper, but CER may be worse by more than the margin: not non-inferior
    ({"core_ratio": 0.5, "interval": (-0.01, 0.02)}, "stay with base", "no material improvement"),
    ({"candidate_rate": 0.25, "interval": (0.02, 0.08)}, "reject", "worse beyond the margin"),
    ({"candidate_licence": "not-permissive", "core_ratio": 0.5}, "reject", "licence verdict: not-permissive"),
    ({"core_ratio": 0.5, "invalid": ("base: a pilot split",)}, "research only", "not valid for a claim"),
    ({"core_ratio": 0.5, "safety_regressions": ("safety regression: text on silence 0 -> 1",)},
     "research only", "text on silence"),
    ({"candidate_rate": 0.1, "interval": (-0.12, -0.08), "candidate_rtf": 1.4}, "research only",
     "slower than real time"),
    ({"core_ratio": 0.5, "unnamed": ("model revision",)}, "research only", "cannot name the winner: no model revision"),
    # an undeclared licence blocks a claim; a licence that forbids the use rejects
    ({"candidate_licence": "undeclared", "core_ratio": 0.5}, "research only", "a claim needs a declared"),
    ({"candidate_licence": "conflict", "core_ratio": 0.5}, "reject", "licence verdict: conflict"),
    ({"core_ratio": 0.5, "hold_constant": ("decode.beam_size 5 -> 1",)}, "research only",
     "hold constant: the arms differ in decode.beam_size 5 -> 1"),
    # no win, even a worse rate: arms that break hold-constant compare no models
    ({"hold_constant": ("host.compute_type 'int8' -> 'float32'",)}, "research only", "hold constant"),
    ({"candidate_rate": 0.25, "interval": (0.02, 0.08), "hold_constant": ("decode.beam_size 5 -> 1",)},
     "research only", "hold constant"),
    ({"core_ratio": 0.5, "longform_regressions": ("long-form regression: x interval 0",)}, "research only",
     "long-form regression"),
    ({"core_ratio": 0.5, "memory_ratio": 1.6}, "research only", "memory: candidate peak RSS is 1.60 x"),
    ({"core_ratio": 0.5, "memory_ratio": 1.4}, "promote", "a cost win"),
    ({"core_ratio": 0.5, "offline": ("offline cache: the candidate's model source None",)}, "research only",
     "offline cache"),
    ({"core_ratio": 0.5, "p1": rule.P1(True, (), ("stt_wer overall 0.3 > 0.2",))}, "research only",
     "the candidate misses the P1 threshold"),
    # the added-capability route: validated only when the candidate meets a threshold the base misses
    # and the slice's interval lies below 0
    ({"capabilities": (rule.Capability("numbers", False, True, (-0.3, -0.1), 0.5, 0.2),)}, "promote",
     "a validated added capability"),
    ({"capabilities": (rule.Capability("numbers", False, True, (-0.3, 0.1), 0.5, 0.2),)}, "stay with base",
     "not validated"),
    ({"capabilities": (rule.Capability("numbers", True, True, (-0.3, -0.1), 0.2, 0.1),)}, "stay with base",
     "not validated"),
    ({"baseline": "small"}, "stay with small", "no material improvement"),
    ({"label": "WER", "candidate_rate": 0.15, "interval": (-0.08, -0.02)}, "promote", "a WER win"),
])
def test_the_rule(changes, verdict, reason):
    decided = rule.decide(_evidence(**changes))
    assert decided.verdict == verdict
    assert any(reason in r for r in decided.reasons), decided.reasons


def test_a_rate_win_names_the_projects_stricter_interval_rule():
    decided = rule.decide(_evidence(candidate_rate=0.15, interval=(-0.08, 0.005)))
    assert "this project's stricter rule: the 95% paired interval below 0" in decided.reasons[0]
    assert not decided.cer_win


@pytest.mark.parametrize(("p1", "supported", "reason"), [
    (rule.P1(False), None, "P1 not evaluated: no pre-registered threshold file"),
    (rule.P1(True), True, "P1: the baseline base meets the pre-registered minimum usability threshold"),
    (rule.P1(True, ("stt_wer overall 0.3 > 0.2",)), False, "do not label the language generally supported"),
])
def test_p1_judges_the_baseline_against_the_registered_threshold(p1, supported, reason):
    decided = rule.decide(_evidence(p1=p1))
    assert decided.supported_label is supported
    assert any(reason in r for r in decided.reasons), decided.reasons


def test_a_decision_named_after_an_input_record_is_refused_and_the_record_kept(tmp_path, capsys):
    smoke = tmp_path / "base.json"
    main(["bench", "run", "--smoke", "--out", str(smoke)])
    before = smoke.read_bytes()
    # --out base.md would write its JSON to base.json, the base record itself.
    assert main(["bench", "compare", str(smoke), str(smoke), "--out", str(tmp_path / "base.md")]) == 2
    assert "is one of the records being compared" in capsys.readouterr().err
    assert smoke.read_bytes() == before


def test_arms_decoded_by_different_executors_are_no_cost_comparison(pilot_runs):
    from pytest_asrbench.bench.compare.policy import arm_differences, hold_constant_violations

    _, base = pilot_runs[5]
    candidate = copy.deepcopy(base)
    candidate["executor"] = {**base["executor"], "name": "ray", "workers": 2, "threads_per_worker": 1}
    differences = arm_differences(base, candidate)
    assert differences == {"executor.name": ("local", "ray"), "executor.threads_per_worker":
                           (base["executor"]["threads_per_worker"], 1), "executor.workers": (1, 2)}
    assert "executor.name 'local' -> 'ray'" in hold_constant_violations(differences)
