"""The patch-bump deferral's decisions and its xdist channel (signatures/patch_deferrals.py)."""

from __future__ import annotations

import json

from pytest_asrbench.signatures.patch_deferrals import Deferrals, PendingRewrite


def pending(language: str = "en", text: str | None = '{"kind": "signature"}') -> PendingRewrite:
    return PendingRewrite("stt_wer", language, f"/p/cases/{language}/signature.yaml", "stt_wer-signature",
                          f"/p/cases/{language}/signature.yaml:4", f"cases/{language}", ("config en.toml 1.6.0→1.6.1",),
                          None if text is None else f"/p/snapshots/{language}/signature/stt_wer-signature.json", text)


def test_a_pair_with_a_refusal_is_kept_with_the_count_of_its_refused_cases():
    deferrals = Deferrals()
    deferrals.defer(pending("en"))
    deferrals.defer(pending("de"))
    deferrals.refuse("stt_wer", "en", "/p/cases/en/a.yaml:3")
    deferrals.refuse("stt_wer", "en", "/p/cases/en/a.yaml:9")
    deferrals.refuse("stt_wer", "en", "/p/cases/en/a.yaml:9")  # the same case twice (a rerun) counts once
    deferrals.refuse("cer", "de", "/p/cases/de/a.yaml:3")  # another metric's refusal does not keep stt_wer
    decisions = deferrals.decide(lambda pair: None)
    assert [(d.pending.language, d.action) for d in decisions] == [("de", "rewrite"), ("en", "keep")]
    assert decisions[1].message == (
        "signature of (stt_wer, en) kept as recorded (/p/cases/en/signature.yaml:4): 2 case(s) would change "
        "under a patch bump (config en.toml 1.6.0→1.6.1); make it at least a minor bump (x.Y.0) of the metric "
        "or the config, then re-run `pytest --asrbench cases/en --snapshot-update`")


def test_a_pair_the_run_did_not_fully_see_is_kept_with_the_reason():
    deferrals = Deferrals()
    deferrals.defer(pending("en"))
    [decision] = deferrals.decide(lambda pair: "1 of 3 case(s) of (stt_wer, en) did not run" if pair[1] == "en" else None)
    assert decision.action == "keep"
    assert decision.message.endswith(
        "a patch bump (config en.toml 1.6.0→1.6.1) is re-recorded only by a run that saw every case of the pair, "
        "and 1 of 3 case(s) of (stt_wer, en) did not run; re-run `pytest --asrbench cases/en --snapshot-update` "
        "without a selection")


def test_worker_payloads_merge_on_the_controller():
    """What workers send is plain data (JSON round trip here, execnet in a run); refusals
    seen by one worker keep a pair whose signature case ran on another."""
    first, second, controller = Deferrals(), Deferrals(), Deferrals()
    first.defer(pending("en"))
    second.defer(pending("en", text=None))  # a rerun elsewhere that found the snapshot already matching
    second.refuse("stt_wer", "en", "/p/cases/en/a.yaml:3")
    for worker in (first, second):
        controller.merge(json.loads(json.dumps(worker.payload(), ensure_ascii=False)))
    assert controller.pending[("stt_wer", "en")] == pending("en")
    assert controller.refused == {("stt_wer", "en"): {"/p/cases/en/a.yaml:3"}}
    assert [d.action for d in controller.decide(lambda pair: None)] == ["keep"]
