"""The decision record of ``asrbench bench compare``: JSON (schema ``asrbench.decision/1``)
and the Markdown a reviewer reads, both dated, both naming each arm by model revision,
corpus hash and host profile (the protocol: no winner without them).
"""

from __future__ import annotations

import datetime as _dt

from pytest_asrbench.asr.fingerprint import fingerprint_label
from pytest_asrbench.bench.compare import policy, rule
from pytest_asrbench.bench.compare.paired import cluster_table, paired_difference
from pytest_asrbench.bench.run.views import VIEWS

SCHEMA = "asrbench.decision/1"


def _ratio(candidate, base) -> float | None:
    return None if candidate is None or not base else candidate / base


def _arm(record: dict, path: str) -> dict:
    model, host = record["model"], record["host"]
    return {
        "record": path,
        "created": record["created"],
        "model": {"artifact_id": model["artifact_id"], "model_sha256": model["model_sha256"],
                  "revision": model["revision"]["resolved"] or model["revision"]["declared"],
                  "revision_verified": model["revision"]["resolved"] is not None,
                  "licence": model["licence"]["verdict"]},
        "decode": record["engine"]["identity"].get("decode"),
        "host_profile": {**policy.host_profile(record), "compute_type": host["compute_type"],
                         "label": fingerprint_label(host["kernels"]) if host.get("kernels", {}).get("arch") else None},
        "git_commit": record["tool"]["git"]["commit"],
        "valid_for_claim": record["valid_for_claim"],
        "validity_reasons": record["validity_reasons"],
    }


def _safety_regressions(base: dict, candidate: dict) -> list[str]:
    out = []
    for key, words in (("silence_hallucinations", "text on silence"), ("speech_no_output", "speech with no output"),
                       ("hallucination_flags", "utterances with hallucination flags")):
        a, b = base["safety"][key], candidate["safety"][key]
        if b > a:
            out.append(f"safety regression: {words} {a} -> {b}")
    for category in base["critical_tokens"]:
        a, b = base["critical_tokens"][category]["failed"], candidate["critical_tokens"][category]["failed"]
        if b > a:
            out.append(f"critical tokens ({category}) failed {a} -> {b}")
    return out


def _unnamed(record: dict) -> list[str]:
    missing = []
    if not (record["model"]["revision"]["resolved"] or record["model"]["revision"]["declared"]):
        missing.append("model revision")
    if not record["corpus"]["manifest_sha256"]:
        missing.append("corpus hash")
    if not record["host"].get("cpu_model"):
        missing.append("host profile (CPU model)")
    return missing


def decide_records(base: dict, candidate: dict, *, base_path: str, candidate_path: str, view: str, seed: int,
                   resamples: int, margin: float, now: _dt.datetime | None = None) -> dict:
    """The decision record of ``candidate`` against ``base``.

    Raises:
        ComparisonError: the records cannot be compared (:func:`policy.check_comparable`), or
            ``view`` is not a CER view or has no figures.
    """
    from pytest_asrbench.bench.errors import ComparisonError

    if view not in VIEWS:
        raise ComparisonError(f"--view {view!r}: use one of {', '.join(VIEWS)}")
    policy.check_comparable(base, candidate)
    table = cluster_table(base, candidate, view)
    paired = paired_difference(table, seed, resamples)
    if paired.rate_a is None:
        raise ComparisonError(f"the references have no characters under {view}: there is no CER to compare")
    same_host = policy.host_profile(base) == policy.host_profile(candidate)
    perf_a, perf_b = base["performance"], candidate["performance"]
    ratios = {"latency_p50": _ratio(perf_b["latency_p50_seconds"], perf_a["latency_p50_seconds"]),
              "latency_p95": _ratio(perf_b["latency_p95_seconds"], perf_a["latency_p95_seconds"]),
              "cpu_core_seconds": _ratio(perf_b["cpu_core_seconds"], perf_a["cpu_core_seconds"]),
              "real_time_factor": _ratio(perf_b["real_time_factor"], perf_a["real_time_factor"]),
              "peak_rss": _ratio(perf_b["peak_rss_bytes"], perf_a["peak_rss_bytes"])}
    invalid = [f"base: {r}" for r in base["validity_reasons"]] + [f"candidate: {r}" for r in candidate["validity_reasons"]]
    evidence = rule.Evidence(
        base_rate=paired.rate_a, candidate_rate=paired.rate_b, interval=tuple(paired.interval.as_list()),
        latency_p50_ratio=ratios["latency_p50"], latency_p95_ratio=ratios["latency_p95"],
        core_ratio=ratios["cpu_core_seconds"], same_host=same_host,
        candidate_licence=candidate["model"]["licence"]["verdict"], invalid=tuple(invalid),
        safety_regressions=tuple(_safety_regressions(base, candidate)),
        candidate_rtf=perf_b["real_time_factor"], unnamed=tuple(_unnamed(base) + _unnamed(candidate)), margin=margin)
    verdict = rule.decide(evidence)
    when = now or _dt.datetime.now(_dt.timezone.utc)
    return {
        "schema": SCHEMA,
        "date": when.date().isoformat(),
        "created": when.isoformat(timespec="seconds"),
        "verdict": verdict.verdict,
        "reasons": list(verdict.reasons),
        "corpus": {"manifest_sha256": base["corpus"]["manifest_sha256"], "corpus": base["corpus"]["corpus"],
                   "revision": base["corpus"]["revision"], "split": base["corpus"]["split"],
                   "rows": base["corpus"]["rows"]["included"], "speakers": len(table.speakers)},
        "decode_policy": base["decode_policy"],
        "arms": {"base": _arm(base, base_path), "candidate": _arm(candidate, candidate_path)},
        "arm_differences": {k: list(v) for k, v in policy.arm_differences(base, candidate).items()},
        "view": view,
        "views": {name: {"base": base["metrics"]["overall"][name], "candidate": candidate["metrics"]["overall"][name]}
                  for name in VIEWS},
        "bootstrap": {"clusters": "speakers", "count": len(table.speakers), "resamples": paired.interval.resamples,
                      "seed": seed, "confidence": paired.interval.confidence, "difference": paired.difference,
                      "interval": paired.interval.as_list(), "candidate_better_share": paired.b_better},
        "cost": {"same_host": same_host, "ratios": ratios,
                 "base": {k: perf_a[k] for k in ("latency_p50_seconds", "latency_p95_seconds", "real_time_factor",
                                                 "cpu_core_seconds", "peak_rss_bytes")},
                 "candidate": {k: perf_b[k] for k in ("latency_p50_seconds", "latency_p95_seconds",
                                                      "real_time_factor", "cpu_core_seconds", "peak_rss_bytes")}},
        "rule": {"relative_cer_reduction": rule.RELATIVE_CER_REDUCTION, "cost_ratio": rule.COST_RATIO,
                 "non_inferiority_margin": margin, "cer_win": verdict.cer_win, "cost_win": verdict.cost_win,
                 "non_inferior": verdict.non_inferior},
    }


def _fmt(value, digits: int = 4) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def markdown(decision: dict) -> str:
    """The decision as Markdown: verdict and reasons first, then the evidence."""
    arms, corpus, boot, cost = decision["arms"], decision["corpus"], decision["bootstrap"], decision["cost"]
    lines = [f"# Decision {decision['date']}: {decision['verdict']}", "",
             f"Candidate `{arms['candidate']['record']}` against base `{arms['base']['record']}` on corpus "
             f"{corpus['corpus']} (split {corpus['split']}, revision {corpus['revision']}), manifest SHA-256 "
             f"`{corpus['manifest_sha256']}`, {corpus['rows']} rows, {corpus['speakers']} speakers.", "",
             "## Reasons", ""]
    lines += [f"- {reason}" for reason in decision["reasons"]]
    lines += ["", "## Arms", "", "| | base | candidate |", "| --- | --- | --- |"]
    for label, key in (("model", "artifact_id"), ("model SHA-256", "model_sha256"), ("revision", "revision"),
                       ("licence", "licence")):
        lines.append(f"| {label} | {arms['base']['model'][key]} | {arms['candidate']['model'][key]} |")
    for label, key in (("host", "cpu_model"), ("kernels", "label"), ("threads", "threads"),
                       ("compute type", "compute_type")):
        lines.append(f"| {label} | {arms['base']['host_profile'][key]} | {arms['candidate']['host_profile'][key]} |")
    lines.append(f"| git commit | {arms['base']['git_commit']} | {arms['candidate']['git_commit']} |")
    lines.append(f"| valid for a claim | {arms['base']['valid_for_claim']} | {arms['candidate']['valid_for_claim']} |")
    if decision["arm_differences"]:
        lines += ["", "The arms differ in: " + ", ".join(f"{k} {a!r} -> {b!r}"
                                                       for k, (a, b) in decision["arm_differences"].items()) + "."]
    lines += ["", "## CER (corpus, micro-averaged)", "", "| view | base | candidate |", "| --- | --- | --- |"]
    for name, pair in decision["views"].items():
        marker = " (decides)" if name == decision["view"] else ""
        lines.append(f"| {name}{marker} | {_fmt(pair['base'] and pair['base']['rate'])} | "
                     f"{_fmt(pair['candidate'] and pair['candidate']['rate'])} |")
    low, high = boot["interval"]
    lines += ["", f"Paired cluster bootstrap over {boot['count']} {boot['clusters']}, {boot['resamples']} resamples, "
                  f"seed {boot['seed']}: difference (candidate - base) {boot['difference']:+.4f}, "
                  f"{boot['confidence']:.0%} interval [{low:+.4f}, {high:+.4f}], candidate better in "
                  f"{boot['candidate_better_share']:.1%} of resamples.", "",
              "## Cost", "", "| figure | base | candidate | ratio |", "| --- | --- | --- | --- |"]
    for label, key, ratio in (("latency p50 (s)", "latency_p50_seconds", "latency_p50"),
                              ("latency p95 (s)", "latency_p95_seconds", "latency_p95"),
                              ("real-time factor", "real_time_factor", "real_time_factor"),
                              ("CPU core-seconds", "cpu_core_seconds", "cpu_core_seconds"),
                              ("peak RSS (bytes)", "peak_rss_bytes", "peak_rss")):
        lines.append(f"| {label} | {_fmt(cost['base'][key])} | {_fmt(cost['candidate'][key])} | "
                     f"{_fmt(cost['ratios'][ratio], 2)} |")
    lines += ["", "Same host profile: " + ("yes" if cost["same_host"] else "no (cost not compared)") + ".", "",
              "## Rule", "",
              f"Promote on a relative CER reduction of at least {decision['rule']['relative_cer_reduction']:.0%} "
              f"(interval below 0), or latency/core cost at most {decision['rule']['cost_ratio']:.0%} of the base "
              f"at non-inferior CER (interval's upper bound <= {decision['rule']['non_inferiority_margin']}); "
              "a win is blocked (research only) by a record not valid for a claim, a safety regression or a "
              "winner that cannot be named by revision, corpus hash and host.", ""]
    return "\n".join(lines)
