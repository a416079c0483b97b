"""Parity of two engine setting sets: does batching (or another thread count, another compute
type) change what the engine writes, and how much does it change the error rate?

Each clip is decoded under arm A (default: the sequential path, ``batch_size`` 1) and arm B
(default: ``batch_size`` 8), each arm's settings laid over the clip's own engine settings.
Per clip: whether the two transcripts are identical, each arm's rate against the reference
(the clip's metric: WER or CER by the language config), the delta (B - A), and the
hallucination flags B has that A has not, and those B cleared
(:data:`~pytest_asrbench.asr.engine.HALLUCINATION_FLAGS`, set by
:func:`~pytest_asrbench.asr.engine.transcript_flags`). In aggregate, per unit (word,
character): the share of identical transcripts, the corpus-level rate of each arm
(micro-averaged: summed errors over summed reference length), their difference with a paired
cluster bootstrap interval (:func:`pytest_asrbench.stats.bootstrap.compare_systems`: both arms
resampled on the same clusters, a clip's cluster being its speaker or recording when known, else
the clip itself), and the counts of new and cleared hallucination flags.

The determinism check decodes every clip a second time under each arm, in the same process
with the same engine, and compares the transcripts: temperature 0 and beam search draw nothing,
so any difference is nondeterminism in the decoder (threads, batching) and fails the report.

Decodes never use the hypothesis cache: parity is about what the engine does now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pytest_asrbench.asr.cache import transcribe_with_cache
from pytest_asrbench.asr.engine import HALLUCINATION_FLAGS, SttEngine, Transcript
from pytest_asrbench.scoring import score
from pytest_asrbench.stats.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, compare_systems, generator

SCHEMA = "asrbench.parity/1"
#: Arm B's settings when none are given: faster-whisper's batched pipeline, 8 chunks per call.
DEFAULT_ARM_B = {"batch_size": 8}
#: The unit names of a rate (``Score.unit``) in reports.
RATE_NAMES = {"word": "WER", "char": "CER"}


@dataclass(frozen=True)
class ParityClip:
    """One clip to compare: ``audio`` a file, ``language`` any tag, ``settings`` the clip's own
    engine settings (an ``asr`` case's ``engine`` block; ``name`` selects the engine),
    ``cluster`` the unit the bootstrap resamples (speaker, recording; ``None``: the clip)."""

    id: str
    audio: Path
    language: str
    reference: str
    metric: str = "stt_wer"
    settings: Mapping[str, Any] = field(default_factory=dict)
    cluster: str | None = None


@dataclass(frozen=True)
class Arm:
    """One side of the comparison: a label and the settings laid over each clip's own."""

    label: str
    settings: Mapping[str, Any]

    def settings_for(self, clip: ParityClip) -> dict[str, Any]:
        return {**clip.settings, **self.settings}


@dataclass(frozen=True)
class ArmScore:
    """An arm's transcript of a clip and its score: ``rate`` (``None`` on an empty reference),
    ``errors`` (S + D + I), ``reference_length`` in ``unit``; ``repeat`` the transcript of the
    determinism check's second decode (``None`` when not checked)."""

    transcript: str
    flags: tuple[str, ...]
    rate: float | None
    errors: int
    reference_length: int
    unit: str
    repeat: str | None = None

    @property
    def deterministic(self) -> bool | None:
        return None if self.repeat is None else self.repeat == self.transcript


@dataclass(frozen=True)
class ClipParity:
    """Both arms on one clip. ``delta`` is ``b.rate - a.rate`` (``None`` without a rate)."""

    id: str
    cluster: str
    a: ArmScore
    b: ArmScore

    @property
    def identical(self) -> bool:
        return self.a.transcript == self.b.transcript

    @property
    def delta(self) -> float | None:
        if self.a.rate is None or self.b.rate is None:
            return None
        return self.b.rate - self.a.rate

    @property
    def new_hallucination_flags(self) -> tuple[str, ...]:
        """Hallucination flags B's transcript has and A's has not."""
        return tuple(sorted((set(self.b.flags) - set(self.a.flags)) & HALLUCINATION_FLAGS))

    @property
    def cleared_hallucination_flags(self) -> tuple[str, ...]:
        """Hallucination flags A's transcript has and B's has not."""
        return tuple(sorted((set(self.a.flags) - set(self.b.flags)) & HALLUCINATION_FLAGS))


def arm_score(reference: str, transcript: Transcript, language: str, metric: str,
              repeat: Transcript | None = None) -> ArmScore:
    """Score ``transcript`` against ``reference`` (:func:`~pytest_asrbench.scoring.score`)."""
    found = score(reference, transcript.text, language, metric)
    return ArmScore(transcript.text, tuple(transcript.flags), found.rate,
                    found.substitutions + found.deletions + found.insertions, found.reference_length, found.unit,
                    None if repeat is None else repeat.text)


def delta_failure(parity: ClipParity, max_delta: float, labels: tuple[str, str] = ("A", "B")) -> str | None:
    """The failure line when the clip's absolute rate delta exceeds ``max_delta`` (``None``:
    within the bound). A clip whose reference is empty has no rate: its transcripts must then
    be identical."""
    name = RATE_NAMES.get(parity.a.unit, parity.a.unit)
    a, b = parity.a, parity.b
    if parity.delta is None:
        if parity.identical:
            return None
        return (f"parity: {labels[1]} wrote {b.transcript!r}, {labels[0]} wrote {a.transcript!r} on a clip with no "
                f"reference length (no {name} to bound)")
    if abs(parity.delta) <= max_delta + 1e-12:
        return None
    return (f"parity: {labels[0]} {a.transcript!r} ({name} {a.rate:.4g}) vs {labels[1]} {b.transcript!r} "
            f"({name} {b.rate:.4g}): delta {parity.delta:+.4g} exceeds max_delta {max_delta:g}")


@dataclass(frozen=True)
class Aggregate:
    """The clips of one unit together: ``rate_a``/``rate_b`` corpus-level rates, ``difference``
    ``rate_b - rate_a`` with its paired cluster bootstrap ``interval`` (``[low, high]``) and
    ``b_better`` (share of resamples where B's rate is lower)."""

    unit: str
    clips: int
    clusters: int
    identical: int
    rate_a: float | None
    rate_b: float | None
    difference: float | None
    interval: list[float | None]
    confidence: float
    resamples: int
    b_better: float | None
    new_hallucination_flags: int
    cleared_hallucination_flags: int

    @property
    def identical_share(self) -> float:
        return self.identical / self.clips if self.clips else 0.0


@dataclass
class ParityReport:
    """What :func:`run_parity` found. ``ok`` is false when a clip's second decode differed
    (:attr:`nondeterministic`) or, with ``max_delta``, a clip's delta exceeded it."""

    arms: tuple[Arm, Arm]
    clips: list[ClipParity]
    aggregates: list[Aggregate]
    determinism_checked: bool
    max_delta: float | None = None
    seed: int = 0

    @property
    def nondeterministic(self) -> list[tuple[str, str]]:
        """``(clip id, arm label)`` of every clip whose second decode differed."""
        return [(clip.id, arm.label) for clip in self.clips
                for arm, result in zip(self.arms, (clip.a, clip.b)) if result.deterministic is False]

    @property
    def over_bound(self) -> list[str]:
        """Failure lines of the clips whose delta exceeds :attr:`max_delta`."""
        if self.max_delta is None:
            return []
        labels = (self.arms[0].label, self.arms[1].label)
        return [f"{clip.id}: {line}" for clip in self.clips
                if (line := delta_failure(clip, self.max_delta, labels)) is not None]

    @property
    def ok(self) -> bool:
        return not self.nondeterministic and not self.over_bound

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``schema`` :data:`SCHEMA`)."""
        return {
            "schema": SCHEMA,
            "arms": [{"label": arm.label, "settings": dict(arm.settings)} for arm in self.arms],
            "seed": self.seed,
            "determinism_checked": self.determinism_checked,
            "max_delta": self.max_delta,
            "ok": self.ok,
            "nondeterministic": [{"clip": clip, "arm": arm} for clip, arm in self.nondeterministic],
            "over_bound": self.over_bound,
            "aggregates": [{**asdict(found), "identical_share": found.identical_share} for found in self.aggregates],
            "clips": [{"id": clip.id, "cluster": clip.cluster, "identical": clip.identical, "delta": clip.delta,
                       "new_hallucination_flags": list(clip.new_hallucination_flags),
                       "cleared_hallucination_flags": list(clip.cleared_hallucination_flags),
                       "a": {**asdict(clip.a), "deterministic": clip.a.deterministic},
                       "b": {**asdict(clip.b), "deterministic": clip.b.deterministic}} for clip in self.clips],
        }

    def lines(self) -> list[str]:
        """The text report: one line per clip, one per unit, then the verdict."""
        a, b = self.arms
        out = [_arm_line("A", a), _arm_line("B", b), ""]
        for clip in self.clips:
            name = RATE_NAMES.get(clip.a.unit, clip.a.unit)
            same = "identical" if clip.identical else "DIFFERENT"
            line = (f"{clip.id}: {same}  {name} A {_figure(clip.a.rate)}  B {_figure(clip.b.rate)}  "
                    f"delta {_signed(clip.delta)}")
            if clip.new_hallucination_flags:
                line += "  new flags: " + ", ".join(clip.new_hallucination_flags)
            if clip.cleared_hallucination_flags:
                line += "  cleared flags: " + ", ".join(clip.cleared_hallucination_flags)
            out.append(line)
            if not clip.identical:
                out += [f"    A: {clip.a.transcript!r}", f"    B: {clip.b.transcript!r}"]
        out.append("")
        for found in self.aggregates:
            name = RATE_NAMES.get(found.unit, found.unit)
            low, high = found.interval
            out.append(
                f"{name} over {found.clips} clips ({found.clusters} clusters): identical {found.identical}/"
                f"{found.clips} ({found.identical_share:.0%}); corpus {name} A {_figure(found.rate_a)}  B "
                f"{_figure(found.rate_b)}  delta {_signed(found.difference)}  {found.confidence:.0%} interval "
                f"[{_signed(low)}, {_signed(high)}] ({found.resamples} cluster resamples, seed {self.seed}); "
                f"hallucination flags new in B {found.new_hallucination_flags}, cleared in B "
                f"{found.cleared_hallucination_flags}")
        if not self.determinism_checked:
            out.append("determinism: not checked (--no-determinism)")
        elif self.nondeterministic:
            out.append("determinism: FAILED, a second decode in the same run differed: "
                       + ", ".join(f"{clip} ({arm})" for clip, arm in self.nondeterministic))
        else:
            out.append(f"determinism: every clip decoded twice per arm gave the same transcript "
                       f"({len(self.clips)} clips x 2 arms)")
        for line in self.over_bound:
            out.append("FAILED " + line)
        out.append("parity ok" if self.ok else "parity FAILED")
        return out


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.4f}"


def _arm_line(name: str, arm) -> str:
    """``A: settings``, or ``A = label: settings`` when the arm has a label of its own."""
    named = name if arm.label == name else f"{name} = {arm.label}"
    return f"{named}: {_settings_text(arm.settings)}"


def _settings_text(settings: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in sorted(settings.items())) or "the clips' own settings"


def _aggregate(unit: str, clips: list[ClipParity], seed: int, resamples: int, confidence: float) -> Aggregate:
    clusters: dict[str, list[int]] = {}
    for clip in clips:
        sums = clusters.setdefault(clip.cluster, [0, 0, 0])
        sums[0] += clip.a.errors
        sums[1] += clip.b.errors
        sums[2] += clip.a.reference_length
    errors_a, errors_b, lengths = (list(column) for column in zip(*clusters.values()))
    if sum(lengths):
        found = compare_systems(errors_a, errors_b, lengths, generator(seed, f"parity-{unit}"), resamples, confidence)
        rate_a, rate_b, difference, interval, better = (found.rate_a, found.rate_b, found.difference,
                                                        found.interval.as_list(), found.b_better)
    else:  # every reference empty: no rate to compare
        rate_a = rate_b = difference = better = None
        interval = [None, None]
    return Aggregate(unit, len(clips), len(clusters), sum(clip.identical for clip in clips), rate_a, rate_b,
                     difference, interval, confidence, resamples, better,
                     sum(len(clip.new_hallucination_flags) for clip in clips),
                     sum(len(clip.cleared_hallucination_flags) for clip in clips))


def run_parity(clips: Sequence[ParityClip], arm_a: Arm, arm_b: Arm, *,
               engine_for: Callable[[dict[str, Any]], SttEngine],
               determinism: bool = True, max_delta: float | None = None, seed: int = 0,
               resamples: int = DEFAULT_RESAMPLES, confidence: float = DEFAULT_CONFIDENCE,
               progress: Callable[[int, int, str], None] | None = None) -> ParityReport:
    """Decode every clip under both arms (twice each with ``determinism``) and compare.

    Args:
        clips: at least one.
        arm_a, arm_b: the two setting sets.
        engine_for: the engine of a settings mapping (``name`` selects it), e.g.
            :meth:`~pytest_asrbench.asr.session.AsrSession.engine_for`, which makes each once.
        determinism: decode each clip a second time per arm and compare.
        max_delta: a bound on each clip's absolute rate delta (``None``: report only).
        seed, resamples, confidence: of the cluster bootstrap.
        progress: called with ``(done, total, clip id)`` after each clip.

    Raises:
        InputError: no clips, a negative ``max_delta``, or a clip both arms would decode with
            the same settings (as written, or as ``engine_for`` resolves them: one engine).
        AsrError subclasses: a bad setting, unusable audio, a language the engine lacks.
    """
    from pytest_asrbench.errors import InputError

    if not clips:
        raise InputError("parity needs at least one clip with audio and a reference")
    if max_delta is not None and not max_delta >= 0:
        raise InputError(f"max_delta must be a number >= 0, got {max_delta!r}")
    same = [clip.id for clip in clips if arm_a.settings_for(clip) == arm_b.settings_for(clip)]
    if same:
        raise InputError(f"arms {arm_a.label} and {arm_b.label} give the same engine settings for {', '.join(same)}: "
                         "nothing to compare; give arm B a setting that differs (e.g. batch_size=8)")
    # every engine made (and every setting checked) before the first decode
    planned = [(clip, [engine_for(arm.settings_for(clip)) for arm in (arm_a, arm_b)]) for clip in clips]
    same = [clip.id for clip, (engine_a, engine_b) in planned if engine_a is engine_b]
    if same:  # written apart, resolved alike: {model: base} is the default engine
        raise InputError(f"arms {arm_a.label} and {arm_b.label} give one engine for {', '.join(same)} once their "
                         "settings are resolved (defaults applied, model aliases read): nothing to compare; give "
                         "arm B a setting that differs (e.g. batch_size=8)")
    results: list[ClipParity] = []
    for done, (clip, engines) in enumerate(planned, start=1):
        scored = []
        for engine in engines:
            first = transcribe_with_cache(engine, clip.audio, clip.language, None).transcript
            repeat = transcribe_with_cache(engine, clip.audio, clip.language, None).transcript if determinism else None
            scored.append(arm_score(clip.reference, first, clip.language, clip.metric, repeat))
        results.append(ClipParity(clip.id, clip.cluster or clip.id, scored[0], scored[1]))
        if progress is not None:
            progress(done, len(clips), clip.id)
    units = sorted({clip.a.unit for clip in results})
    aggregates = [_aggregate(unit, [clip for clip in results if clip.a.unit == unit], seed, resamples, confidence)
                  for unit in units]
    return ParityReport((arm_a, arm_b), results, aggregates, determinism, max_delta, seed)
