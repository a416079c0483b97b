"""The promotion and rejection decision of the Mandarin protocol, as a verdict with reasons.

docs/mandarin.md ("The decision, rule by rule") quotes each protocol sentence a rule here
implements. The routes to a win over the same-data baseline (any one; necessary, not
sufficient):

- *rate win*: relative reduction (base - candidate) / base >= 20% of the deciding view's
  rate (CER for zh; a language's own metric elsewhere) **and**, this project's stricter
  significance rule (the protocol asks for the 20% only), the 95% paired bootstrap interval
  of the difference lies below 0;
- *cost win*: p50 and p95 latency ratios both <= 0.70, or the core-seconds ratio <= 0.70,
  measured on the same host profile, at non-inferior rate (the interval's upper bound <= the
  margin, default 0.01 absolute: the protocol names no number, this harness's choice, recorded);
- *added capability*: a pre-registered capability slice (the threshold file) where the
  candidate meets the usability threshold the baseline misses, validated by that slice's
  paired interval lying below 0 (:class:`Capability`).

Verdicts, as the protocol writes them:

- ``reject``: a rate worse beyond the margin, or weight terms that forbid use (licence
  ``not-permissive`` or ``conflict``);
- ``promote``: a win that nothing blocks;
- ``research only``: arms that break hold-constant (they differ in a decode setting, the
  compute type or the device profile, not only in the model: whatever the figures, they
  compare no models), or a win that is blocked: a record not valid for a claim
  (pre-registration shortfall, pilot split, undeclared licence, a declared revision the weights
  do not match), a safety regression (text on silence, speech with
  no output, hallucination flags, failed critical tokens), a long-form regression, a memory
  regression, no offline model source, a candidate slower than real time (an opt-in quality
  preset at most), a candidate below the P1 threshold, or a winner that cannot be named by
  revision, corpus hash and host;
- ``stay with <baseline>``: no material improvement.

P1 (:class:`P1`) is judged on the baseline: when it misses the pre-registered minimum
usability threshold the decision says the language must not be labelled supported, whatever
the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RELATIVE_CER_REDUCTION = 0.20
COST_RATIO = 0.70
DEFAULT_MARGIN = 0.01
#: Peak RSS of the candidate over the base's above which memory blocks a win (the protocol
#: names memory as a blocker without a number: this harness's choice, recorded).
MEMORY_RATIO = 1.5
PROMOTE, RESEARCH_ONLY, REJECT = "promote", "research only", "reject"
STAY_WITH = "stay with"
#: The verdict names; ``stay with`` takes the baseline's name (``stay with base``).
VERDICTS = (PROMOTE, STAY_WITH, RESEARCH_ONLY, REJECT)
#: Licence verdicts that reject: the weight terms forbid the use (they take precedence).
REJECTING_LICENCES = frozenset({"not-permissive", "conflict"})
#: This project's stricter significance rule, named in every rate reason.
SIGNIFICANCE_RULE = "this project's stricter rule: the 95% paired interval below 0"


@dataclass(frozen=True)
class P1:
    """The P1 rule's outcome for the baseline (and the candidate) against the threshold file.

    ``evaluated`` False: no threshold file was given (nothing can be labelled supported)."""

    evaluated: bool
    baseline_failures: tuple[str, ...] = ()
    candidate_failures: tuple[str, ...] = ()
    source: str | None = None


@dataclass(frozen=True)
class Capability:
    """One pre-registered capability slice: whether each arm meets its threshold and the
    slice's paired interval (candidate - base)."""

    slice: str
    base_meets: bool
    candidate_meets: bool
    interval: tuple[float, float]
    base_rate: float | None
    candidate_rate: float | None

    @property
    def validated(self) -> bool:
        return self.candidate_meets and not self.base_meets and self.interval[1] < 0


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
    label: str = "CER"
    baseline: str = "base"
    hold_constant: tuple[str, ...] = ()
    longform_regressions: tuple[str, ...] = ()
    memory_ratio: float | None = None
    offline: tuple[str, ...] = ()
    p1: P1 = field(default_factory=lambda: P1(False))
    capabilities: tuple[Capability, ...] = ()


@dataclass(frozen=True)
class Verdict:
    verdict: str
    reasons: tuple[str, ...] = field(default=())
    cer_win: bool = False
    cost_win: bool = False
    non_inferior: bool = False
    capability_win: bool = False
    supported_label: bool | None = None


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _p1_reasons(e: Evidence) -> tuple[list[str], bool | None]:
    if not e.p1.evaluated:
        return ([f"P1 not evaluated: no pre-registered threshold file; {e.baseline} cannot be labelled supported "
                 "from this decision"], None)
    if e.p1.baseline_failures:
        return ([f"P1: the baseline {e.baseline} misses the pre-registered minimum usability threshold "
                 f"({'; '.join(e.p1.baseline_failures)}): do not label the language generally supported; narrow "
                 "the supported hardware/surfaces or reconsider the model through review"], False)
    return [f"P1: the baseline {e.baseline} meets the pre-registered minimum usability threshold"], True


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
    capability_win = non_inferior and any(c.validated for c in e.capabilities)
    reasons = [f"{e.label} {e.base_rate:.4f} -> {e.candidate_rate:.4f}: relative reduction {_pct(reduction)} "
               f"(rule: >= {_pct(RELATIVE_CER_REDUCTION)}, and {SIGNIFICANCE_RULE}), 95% paired interval of the "
               f"difference [{low:+.4f}, {high:+.4f}]"]
    if e.same_host:
        shown = ", ".join(f"{name} {value:.2f}" for name, value in (
            ("latency p50 ratio", e.latency_p50_ratio), ("p95 ratio", e.latency_p95_ratio),
            ("core-seconds ratio", e.core_ratio)) if value is not None)
        reasons.append(f"cost on the same host: {shown} (rule: <= {COST_RATIO:.2f} at non-inferior {e.label}, "
                       f"margin {e.margin})")
    else:
        reasons.append("the hosts differ: latency and core cost are not compared (the same hardware is required)")
    for capability in e.capabilities:
        rates = f"{_fmt(capability.base_rate)} -> {_fmt(capability.candidate_rate)}"
        state = "validated" if capability.validated else "not validated"
        reasons.append(f"added capability on slice {capability.slice!r}: {rates}, threshold met by base "
                       f"{capability.base_meets}, by candidate {capability.candidate_meets}, interval "
                       f"[{capability.interval[0]:+.4f}, {capability.interval[1]:+.4f}]: {state}")
    p1_reasons, supported = _p1_reasons(e)
    reasons += p1_reasons

    def verdict(name: str, extra: list[str]) -> Verdict:
        return Verdict(name, (*reasons, *extra), cer_win, cost_win, non_inferior, capability_win, supported)

    if e.hold_constant:
        # not a comparison of models: whatever the figures say, no claim follows from them
        return verdict(RESEARCH_ONLY, [f"hold constant: the arms differ in {d} (the protocol compares models under "
                                       "the same decode settings, compute type and device profile)"
                                       for d in e.hold_constant])
    if e.candidate_licence in REJECTING_LICENCES:
        return verdict(REJECT, [f"candidate model licence verdict: {e.candidate_licence} (weight terms take "
                                "precedence)"])
    if inferior:
        return verdict(REJECT, [f"{e.label} is worse beyond the margin {e.margin} (interval above it)"])
    if not (cer_win or cost_win or capability_win):
        return verdict(f"{STAY_WITH} {e.baseline}",
                       [f"no material improvement: neither a {e.label} win, a cost win at non-inferior {e.label} "
                        "nor a validated added capability"])
    wins = [name for name, won in ((f"a {e.label} win", cer_win), (f"a cost win at non-inferior {e.label}", cost_win),
                                   ("a validated added capability", capability_win)) if won]
    reasons.append(" and ".join(wins))
    blockers = [*(f"not valid for a claim: {r}" for r in e.invalid),
                *e.safety_regressions, *e.longform_regressions, *e.offline,
                *(f"cannot name the winner: no {what}" for what in e.unnamed)]
    if e.candidate_licence != "permissive":
        blockers.append(f"candidate model licence verdict: {e.candidate_licence}: a claim needs a declared, "
                        "permissive weight licence")
    if e.memory_ratio is not None and e.memory_ratio > MEMORY_RATIO:
        blockers.append(f"memory: candidate peak RSS is {e.memory_ratio:.2f} x the base's (limit {MEMORY_RATIO})")
    if e.candidate_rtf is not None and e.candidate_rtf >= 1.0:
        blockers.append(f"the candidate is slower than real time (RTF {e.candidate_rtf:.2f}): an opt-in quality "
                        "preset on supported hardware at most, not a default")
    if e.p1.evaluated and e.p1.candidate_failures:
        blockers.append(f"the candidate misses the P1 threshold: {'; '.join(e.p1.candidate_failures)}")
    if blockers:
        return verdict(RESEARCH_ONLY, blockers)
    return verdict(PROMOTE, [])


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
