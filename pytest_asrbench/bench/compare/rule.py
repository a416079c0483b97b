"""The pre-registered promotion rule of the Mandarin protocol, as a verdict with reasons.

The protocol's rule of thumb for a new model or setting over the same-data baseline: a
material measured improvement, that is **at least 20% relative CER reduction**, or **at
least 30% lower latency or core cost at non-inferior CER**; necessary, not sufficient.
Here (constants below, recorded in every decision):

- *CER win*: relative reduction (base - candidate) / base >= 20% **and** the 95% paired
  bootstrap interval of the difference lies below 0 (the reduction is not resampling noise);
- *non-inferior*: the interval's upper bound <= the margin (default 0.01 CER, absolute; the
  protocol names no number: this harness's choice, recorded, changeable with ``--margin``);
- *cost win*: p50 and p95 latency ratios both <= 0.70, or the core-seconds ratio <= 0.70, on
  the same host profile, at non-inferior CER;
- *inferior*: the interval's lower bound > the margin.

Verdicts:

- ``reject``: inferior CER, or the candidate's weights licence is not permissive (weight terms
  take precedence);
- ``promote``: a CER or cost win and nothing below blocks it;
- ``research only``: a win that is blocked: a record not valid for a claim (pre-registration
  shortfall, pilot, licence undeclared), a safety regression (more text on silence, more
  speech with no output, more hallucination flags), a candidate slower than real time (an
  opt-in quality preset at most, not a default), or no model revision, corpus hash or host
  profile to name the winner by;
- ``stay``: no material improvement (the baseline stays).
"""

from __future__ import annotations

from dataclasses import dataclass, field

RELATIVE_CER_REDUCTION = 0.20
COST_RATIO = 0.70
DEFAULT_MARGIN = 0.01
VERDICTS = ("promote", "stay", "research only", "reject")


@dataclass(frozen=True)
class Evidence:
    """The figures the rule reads (rates are fractions; ratios are candidate / base)."""

    base_rate: float
    candidate_rate: float
    interval: tuple[float, float]
    latency_p50_ratio: float | None
    latency_p95_ratio: float | None
    core_ratio: float | None
    same_host: bool
    candidate_licence: str
    invalid: tuple[str, ...] = ()
    safety_regressions: tuple[str, ...] = ()
    candidate_rtf: float | None = None
    unnamed: tuple[str, ...] = ()
    margin: float = DEFAULT_MARGIN


@dataclass(frozen=True)
class Verdict:
    verdict: str
    reasons: tuple[str, ...] = field(default=())
    cer_win: bool = False
    cost_win: bool = False
    non_inferior: bool = False


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def decide(evidence: Evidence) -> Verdict:
    """The verdict of the rule (module docstring) with every reason that led to it."""
    e = evidence
    low, high = e.interval
    reduction = (e.base_rate - e.candidate_rate) / e.base_rate if e.base_rate > 0 else 0.0
    non_inferior = high <= e.margin
    inferior = low > e.margin
    cer_win = reduction >= RELATIVE_CER_REDUCTION and high < 0
    latency_win = (e.latency_p50_ratio is not None and e.latency_p95_ratio is not None
                   and e.latency_p50_ratio <= COST_RATIO and e.latency_p95_ratio <= COST_RATIO)
    core_win = e.core_ratio is not None and e.core_ratio <= COST_RATIO
    cost_win = e.same_host and non_inferior and (latency_win or core_win)
    reasons = [f"CER {e.base_rate:.4f} -> {e.candidate_rate:.4f}: relative reduction {_pct(reduction)} "
               f"(rule: >= {_pct(RELATIVE_CER_REDUCTION)}), 95% paired interval of the difference "
               f"[{low:+.4f}, {high:+.4f}]"]
    if e.same_host:
        shown = ", ".join(f"{name} {value:.2f}" for name, value in (
            ("latency p50 ratio", e.latency_p50_ratio), ("p95 ratio", e.latency_p95_ratio),
            ("core-seconds ratio", e.core_ratio)) if value is not None)
        reasons.append(f"cost on the same host: {shown} (rule: <= {COST_RATIO:.2f} at non-inferior CER, "
                       f"margin {e.margin})")
    else:
        reasons.append("the hosts differ: latency and core cost are not compared")
    if e.candidate_licence != "permissive":
        return Verdict("reject", (*reasons, f"candidate model licence verdict: {e.candidate_licence} "
                                            "(weight terms take precedence)"), cer_win, cost_win, non_inferior)
    if inferior:
        return Verdict("reject", (*reasons, f"CER is worse beyond the margin {e.margin} (interval above it)"),
                       cer_win, cost_win, non_inferior)
    if not (cer_win or cost_win):
        why = "no material improvement: neither a CER win nor a cost win at non-inferior CER"
        return Verdict("stay", (*reasons, why), cer_win, cost_win, non_inferior)
    reasons.append("a CER win" if cer_win else "a cost win at non-inferior CER")
    blockers = [*(f"not valid for a claim: {r}" for r in e.invalid), *e.safety_regressions,
                *(f"cannot name the winner: no {what}" for what in e.unnamed)]
    if e.candidate_rtf is not None and e.candidate_rtf >= 1.0:
        blockers.append(f"the candidate is slower than real time (RTF {e.candidate_rtf:.2f}): an opt-in quality "
                        "preset on supported hardware at most, not a default")
    if blockers:
        return Verdict("research only", (*reasons, *blockers), cer_win, cost_win, non_inferior)
    return Verdict("promote", tuple(reasons), cer_win, cost_win, non_inferior)
