"""The decision record of ``asrbench bench compare``: JSON (schema ``asrbench.decision/1``)
and the Markdown a reviewer reads, both dated, both naming each arm by model revision,
corpus hash and host profile (the protocol: no winner without them).
"""

from __future__ import annotations

import datetime as _dt

from pytest_asrbench.asr.fingerprint import fingerprint_label
import pytest_asrbench.bench.compare.policy as policy
import pytest_asrbench.bench.compare.rule as rule
from pytest_asrbench.bench.compare.paired import cluster_table, paired_difference

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


#: Model sources that load with no network: the wheels' assembly, a folder, the local hub cache.
OFFLINE_SOURCES = frozenset({"wheels", "path", "hf-cache"})


def baseline_name(record: dict) -> str:
    """The baseline's short name for ``stay with <baseline>``: a pinned model's key (``base``,
    ``tiny.en``), else the artifact id, else what was requested."""
    from pytest_asrbench.asr.pinned_models import find_pinned

    requested = record["model"].get("requested")
    pinned = find_pinned(requested) if isinstance(requested, str) else None
    return pinned.key if pinned is not None else (record["model"].get("artifact_id") or str(requested))


def longform_regressions(base: dict, candidate: dict, view: str) -> list[str]:
    """Long-form rows where the candidate makes more errors than the base in an interval
    (omissions, repeats), or leaves more text outside every interval (repeats, hallucination)."""
    out = []
    others = {entry["id"]: entry for entry in candidate["long_form"]}
    for entry in base["long_form"]:
        other = others.get(entry["id"])
        if other is None:
            continue
        for index, (a, b) in enumerate(zip(entry["intervals"], other["intervals"])):
            va, vb = a["views"].get(view), b["views"].get(view)
            if va is not None and vb is not None and vb["errors"] > va["errors"]:
                out.append(f"long-form regression: {entry['id']} interval {index} ({a['start']}-{a['end']} s) "
                           f"{view} errors {va['errors']} -> {vb['errors']}")
        if other["unassigned_segments"] > entry["unassigned_segments"]:
            out.append(f"long-form regression: {entry['id']} segments outside every interval "
                       f"{entry['unassigned_segments']} -> {other['unassigned_segments']}")
    return out


def revision_mismatches(record: dict, name: str) -> list[str]:
    """A declared revision the loaded weights do not match invalidates the record's claim."""
    revision = record["model"]["revision"]
    if revision.get("matches_declared") is False:
        return [f"{name}: the declared model revision {revision['declared']!r} does not match the weights' "
                f"{revision['resolved']!r}"]
    return []


def offline_blockers(record: dict) -> list[str]:
    """The candidate must load from an offline cache: a model source the record cannot place is a blocker."""
    source = (record["model"].get("source") or {}).get("kind")
    if source not in OFFLINE_SOURCES:
        return [f"offline cache: the candidate's model source {source!r} is not one that loads without network "
                f"({', '.join(sorted(OFFLINE_SOURCES))})"]
    return []


def _p1(base: dict, candidate: dict, thresholds) -> rule.P1:
    from pytest_asrbench.bench.compare.thresholds import usability_failures

    if thresholds is None:
        return rule.P1(False)
    return rule.P1(True, tuple(usability_failures(base, thresholds)), tuple(usability_failures(candidate, thresholds)),
                   thresholds.path)


def _capabilities(base: dict, candidate: dict, thresholds, seed: int, resamples: int) -> list[rule.Capability]:
    from pytest_asrbench.bench.compare.thresholds import slice_rate

    if thresholds is None:
        return []
    view = thresholds.view or base["metrics"]["primary_view"]
    out = []
    for slice_name, bounds in thresholds.capabilities.items():
        if slice_name not in base["metrics"]["slices"]:
            from pytest_asrbench.bench.errors import ComparisonError

            raise ComparisonError(f"--thresholds {thresholds.path}: capability slice {slice_name!r} is not in the "
                                  f"records ({', '.join(base['metrics']['slices'])})")
        rate_a, rate_b = slice_rate(base, thresholds, slice_name), slice_rate(candidate, thresholds, slice_name)
        paired = paired_difference(cluster_table(base, candidate, view, slice_name), seed, resamples)
        out.append(rule.Capability(slice_name, rate_a is not None and rate_a <= bounds["max_rate"],
                                   rate_b is not None and rate_b <= bounds["max_rate"],
                                   tuple(paired.interval.as_list()), rate_a, rate_b))
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


def decide_records(base: dict, candidate: dict, *, base_path: str, candidate_path: str, view: str | None,
                   seed: int, resamples: int, margin: float, now: _dt.datetime | None = None,
                   thresholds=None) -> dict:
    """The decision record of ``candidate`` against ``base``.

    Args:
        view: the deciding view (``None``: the records' primary view).
        thresholds: the pre-registered :class:`~.thresholds.Thresholds` (P1 and the
            capability route), or ``None`` (P1 is then reported as not evaluated).

    Raises:
        ComparisonError: the records cannot be compared (:func:`policy.check_comparable`),
            ``view`` is not one of the records' views or has no figures, or the threshold file
            does not fit the records.
    """
    from pytest_asrbench.bench.errors import ComparisonError

    names = base["metrics"]["views"]
    if view is None:
        view = base["metrics"]["primary_view"]
    if view not in names:
        raise ComparisonError(f"--view {view!r}: use one of {', '.join(names)}")
    policy.check_comparable(base, candidate)
    table = cluster_table(base, candidate, view)
    paired = paired_difference(table, seed, resamples)
    if paired.rate_a is None:
        raise ComparisonError(f"the references are empty under {view}: there is no rate to compare")
    same_host = policy.host_profile(base) == policy.host_profile(candidate)
    perf_a, perf_b = base["performance"], candidate["performance"]
    ratios = {"latency_p50": _ratio(perf_b["latency_p50_seconds"], perf_a["latency_p50_seconds"]),
              "latency_p95": _ratio(perf_b["latency_p95_seconds"], perf_a["latency_p95_seconds"]),
              "cpu_core_seconds": _ratio(perf_b["cpu_core_seconds"], perf_a["cpu_core_seconds"]),
              "real_time_factor": _ratio(perf_b["real_time_factor"], perf_a["real_time_factor"]),
              "peak_rss": _ratio(perf_b["peak_rss_bytes"], perf_a["peak_rss_bytes"])}
    invalid = [f"base: {r}" for r in base["validity_reasons"]] + [f"candidate: {r}" for r in candidate["validity_reasons"]]
    for reason in revision_mismatches(base, "base") + revision_mismatches(candidate, "candidate"):
        if reason not in invalid:
            invalid.append(reason)
    differences = policy.arm_differences(base, candidate)
    unit = base["metrics"].get("unit", "char")
    # the rate's name: the primary view's by the language's unit; a second view by its name (cer)
    label = ("WER" if unit == "word" else "CER") if view == base["metrics"]["primary_view"] else \
        ("CER" if "cer" in view else view)
    p1 = _p1(base, candidate, thresholds)
    capabilities = _capabilities(base, candidate, thresholds, seed, resamples)
    evidence = rule.Evidence(
        base_rate=paired.rate_a, candidate_rate=paired.rate_b, interval=tuple(paired.interval.as_list()),
        latency_p50_ratio=ratios["latency_p50"], latency_p95_ratio=ratios["latency_p95"],
        core_ratio=ratios["cpu_core_seconds"], same_host=same_host,
        candidate_licence=candidate["model"]["licence"]["verdict"], invalid=tuple(invalid),
        safety_regressions=tuple(_safety_regressions(base, candidate)),
        candidate_rtf=perf_b["real_time_factor"], unnamed=tuple(_unnamed(base) + _unnamed(candidate)), margin=margin,
        label=label, baseline=baseline_name(base), hold_constant=tuple(policy.hold_constant_violations(differences)),
        longform_regressions=tuple(longform_regressions(base, candidate, view)), memory_ratio=ratios["peak_rss"],
        offline=tuple(offline_blockers(candidate)), p1=p1, capabilities=tuple(capabilities))
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
        "arm_differences": {k: list(v) for k, v in differences.items()},
        "hold_constant_violations": list(evidence.hold_constant),
        "view": view,
        "views": {name: {"base": base["metrics"]["overall"][name], "candidate": candidate["metrics"]["overall"][name]}
                  for name in names},
        "bootstrap": {"clusters": "speakers", "count": len(table.speakers), "resamples": paired.interval.resamples,
                      "seed": seed, "confidence": paired.interval.confidence, "difference": paired.difference,
                      "interval": paired.interval.as_list(), "candidate_better_share": paired.b_better},
        "cost": {"same_host": same_host, "ratios": ratios,
                 "base": {k: perf_a[k] for k in ("latency_p50_seconds", "latency_p95_seconds", "real_time_factor",
                                                 "cpu_core_seconds", "peak_rss_bytes")},
                 "candidate": {k: perf_b[k] for k in ("latency_p50_seconds", "latency_p95_seconds",
                                                      "real_time_factor", "cpu_core_seconds", "peak_rss_bytes")}},
        "rule": {"relative_cer_reduction": rule.RELATIVE_CER_REDUCTION, "cost_ratio": rule.COST_RATIO,
                 "non_inferiority_margin": margin, "memory_ratio": rule.MEMORY_RATIO,
                 "significance": rule.SIGNIFICANCE_RULE, "rate_label": label, "baseline": evidence.baseline,
                 "cer_win": verdict.cer_win, "cost_win": verdict.cost_win, "capability_win": verdict.capability_win,
                 "non_inferior": verdict.non_inferior},
        "p1": {"evaluated": p1.evaluated, "thresholds": None if thresholds is None else
               {"path": thresholds.path, "sha256": thresholds.sha256, "registered": thresholds.registered},
               "baseline_failures": list(p1.baseline_failures), "candidate_failures": list(p1.candidate_failures),
               "supported_label": verdict.supported_label},
        "capabilities": [{"slice": c.slice, "base_meets": c.base_meets, "candidate_meets": c.candidate_meets,
                          "base_rate": c.base_rate, "candidate_rate": c.candidate_rate, "interval": list(c.interval),
                          "validated": c.validated} for c in capabilities],
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
    lines += ["", "## Rates (corpus, micro-averaged)", "", "| view | base | candidate |", "| --- | --- | --- |"]
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
    r = decision["rule"]
    lines += ["", "Same host profile: " + ("yes" if cost["same_host"] else "no (cost not compared)") + ".", "",
              "## Rule", "",
              f"Promote on a relative {r['rate_label']} reduction of at least {r['relative_cer_reduction']:.0%} "
              f"({r['significance']}), on latency/core cost at most {r['cost_ratio']:.0%} of the base at "
              f"non-inferior {r['rate_label']} (interval's upper bound <= {r['non_inferiority_margin']}), or on a "
              "validated added capability (a pre-registered slice threshold the candidate meets and the baseline "
              "misses, its interval below 0); a win is blocked (research only) by a record not valid for a claim "
              "(a declared revision the weights do not match, an undeclared licence included), a hold-constant "
              f"violation, a safety, critical-token or long-form regression, peak RSS above {r['memory_ratio']} x "
              "the base's, no offline model source, a candidate slower than real time or below P1, or a winner "
              f"that cannot be named by revision, corpus hash and host. No win: stay with {r['baseline']}.", ""]
    return "\n".join(lines)
