"""The four CER views of an evaluation protocol (zh-eval-v1): one pair or a corpus, four rates.

Source: the Mandarin evaluation protocol ("Scorer and dataset contract"). A language
takes part by registering a frozen protocol (:mod:`pytest_asrbench.normalize.protocols`; zh-eval-v1
in ``normalize/languages/zh/eval_v1.py``) whose profiles its config defines (``configs/zh.toml``);
the views are, for every pair, character (code point) edit counts of:

- ``cer_raw``: the texts exactly as given: punctuation, spaces, width and script all count;
- ``cer_punct``: both sides through profile ``eval_v1_punct`` (the folds, punctuation kept);
- ``cer_normalized``: both sides through profile ``eval_v1`` (punctuation removed too);
- ``cer_script_normalized``: the reference through ``eval_v1``, the hypothesis through
  ``eval_v1_script_<script>``, where ``<script>`` is the reference's script: given, or
  detected per pair as the script whose profile changes the fewest characters of the
  (normalized) reference (Levenshtein distance between it and its conversion; a tie, when no
  character tells the scripts apart, goes to the protocol's first script: Simplified).
  ``None`` (never a copied number) when the converter is not installed or did not load.

Corpus figures are micro-averaged (errors summed over pairs / summed reference length); an
empty reference gives ``rate=None`` with its insertions.

The contract other stages rely on (``bench/`` records, ``score()`` details)::

    score(refs, hyps, "zh").details == {
        "cer_protocol": "zh-eval-v1",
        "cer_raw": {"rate": 0.25, "hits": 3, "substitutions": 1, "deletions": 0,
                    "insertions": 0, "reference_length": 4},
        "cer_punct": {...}, "cer_normalized": {...},
        "cer_script_normalized": {...} or None,
        "script_conversion": {"ran": True, "source": "detected", "scripts": {"simplified": 1},
                              "libraries": {"opencc": "1.4.2"}, "reason": None},
    }

and :func:`cer_views` gives the same figures with the per-pair counts and forms, and takes a
given script (``script="traditional"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rapidfuzz.distance import Levenshtein

from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.errors import ConverterUnavailableError, InputError, InputTypeError
from pytest_asrbench.normalize.protocols import EvalProtocol, checked_protocol, current_protocol
from pytest_asrbench.scoring.alignment import char_counts
from pytest_asrbench.scoring.counts import EditCounts
from pytest_asrbench.scoring.views.base import MetricView, ViewResult, register_view

if TYPE_CHECKING:
    from pytest_asrbench.normalize.config import LanguageConfig
    from pytest_asrbench.normalize.pipeline import Pipeline
    from pytest_asrbench.scoring.result import Score

#: The views, in the protocol's order: the keys of ``details`` and of :attr:`CerViews.views`.
VIEW_NAMES: tuple[str, ...] = ("cer_raw", "cer_punct", "cer_normalized", "cer_script_normalized")
#: The view that needs a script converter (``None`` when it is unavailable).
SCRIPT_VIEW = "cer_script_normalized"


@dataclass(frozen=True)
class ScriptConversion:
    """Whether the script view ran, and how.

    Attributes:
        ran: the converter loaded and every hypothesis went through it.
        source: ``"given"`` (the caller named the script) or ``"detected"`` (per pair).
        scripts: ``{script: number of pairs converted to it}`` (empty when it did not run).
        libraries: ``{distribution: version}`` of the libraries the protocol's steps declare
            (``{"opencc": "1.4.2"}``); a missing one is ``None``.
        reason: why it did not run (the converter's error message), else ``None``.
    """

    ran: bool
    source: str
    scripts: dict[str, int]
    libraries: dict[str, str | None]
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"ran": self.ran, "source": self.source, "scripts": dict(self.scripts),
                "libraries": dict(self.libraries), "reason": self.reason}


@dataclass(frozen=True)
class PairViews:
    """One pair under the four views: the compared forms and the edit counts of each view.

    ``forms[view]`` is ``(reference form, hypothesis form)``; ``counts[view]`` an
    :class:`~pytest_asrbench.scoring.counts.EditCounts`. Both are ``None`` for the script view
    when the converter is unavailable; ``script`` is the target script of the hypothesis.
    """

    reference: str
    hypothesis: str
    forms: dict[str, tuple[str, str] | None]
    counts: dict[str, EditCounts | None]
    script: str | None


@dataclass(frozen=True)
class CerViews:
    """The four views of a corpus (one pair is a corpus of one).

    Attributes:
        protocol: its name (``"zh-eval-v1"``).
        views: ``{view name: summed EditCounts or None}`` in :data:`VIEW_NAMES` order.
        script_conversion: see :class:`ScriptConversion`.
        pairs: per-pair forms and counts, in input order (for clusters and exemplars).
    """

    protocol: str
    views: dict[str, EditCounts | None]
    script_conversion: ScriptConversion
    pairs: tuple[PairViews, ...]

    def details(self) -> dict[str, Any]:
        """The plain-data figures ``score()`` puts in ``Score.details`` (see the module docstring)."""
        return {"cer_protocol": self.protocol,
                **{name: None if value is None else value.to_dict() for name, value in self.views.items()},
                "script_conversion": self.script_conversion.as_dict()}


def _libraries(chosen: EvalProtocol) -> dict[str, str | None]:
    """``{distribution: installed version}`` of the libraries the protocol's steps declare
    (``@step(..., libraries=...)``: the one source of a language's libraries)."""
    from pytest_asrbench.normalize.steps.registry import libraries_of

    return {dist: installed_version(dist) for dist in libraries_of(
        name for names in chosen.steps.values() for name in names)}


def _continuation(base: Pipeline, pipeline: Pipeline) -> Callable[[str, str], str]:
    """``run(text, base_output) -> pipeline(text)``: when ``pipeline``'s steps start with all of
    ``base``'s, only the remaining steps run on ``base``'s output (same result, less work)."""
    size = len(base.steps)
    if tuple(s.name for s in pipeline.steps[:size]) != tuple(s.name for s in base.steps):
        return lambda text, base_output: pipeline(text)
    tail = [s.function for s in pipeline.steps[size:]]

    def run(text: str, base_output: str) -> str:
        for function in tail:
            base_output = function(base_output)
        return base_output

    return run


def _as_lists(references, hypotheses) -> tuple[list[str], list[str]]:
    if isinstance(references, str) and isinstance(hypotheses, str):
        return [references], [hypotheses]
    if isinstance(references, str) or isinstance(hypotheses, str) or not (
            isinstance(references, Sequence) and isinstance(hypotheses, Sequence)):
        raise InputTypeError("cer_views() takes two strings or two equal-length lists of strings")
    if len(references) != len(hypotheses):
        raise InputError(f"cer_views() got {len(references)} references and {len(hypotheses)} hypotheses; "
                         "pass one hypothesis per reference")
    for index, (ref, hyp) in enumerate(zip(references, hypotheses)):
        if not isinstance(ref, str) or not isinstance(hyp, str):
            raise InputTypeError(f"cer_views(): pair {index} is not two strings "
                                 f"({type(ref).__name__}, {type(hyp).__name__})")
    return list(references), list(hypotheses)


def cer_views(references: str | Sequence[str], hypotheses: str | Sequence[str], language: str = "zh", *,
              script: str | None = None, protocol: str | None = None) -> CerViews:
    """The four CER views of one pair (two strings) or a corpus (two equal-length lists).

    Args:
        language: a language with a registered protocol (``zh``).
        script: the reference script for every pair (``"simplified"``, ``"traditional"``: the
            protocol's scripts); ``None`` detects it per pair.
        protocol: the protocol's name (``"zh-eval-v1"``); ``None`` is the language's current one.

    Returns:
        :class:`CerViews`; its ``script_normalized`` view is ``None`` when the converter is
        not installed or did not load (``script_conversion.reason`` says why).

    Raises:
        TypeError: inputs are not two strings or two lists of strings.
        ValueError: lists of different lengths; unknown language; a script the protocol does
            not have (the message lists them).
        ConfigError: (a ``ValueError``) the language has no such protocol, or its config's
            profiles differ from the protocol's frozen step lists
            (:func:`~pytest_asrbench.normalize.protocols.checked_protocol`).
    """
    from pytest_asrbench.normalize.registry import get_config, get_normalizer, resolve_language

    refs, hyps = _as_lists(references, hypotheses)
    tag = resolve_language(language)
    chosen = checked_protocol(get_config(tag), protocol)
    if script is not None and script not in chosen.scripts:
        raise InputError(f"cer_views(): {chosen.name} has no script {script!r}; its scripts: "
                         f"{', '.join(chosen.scripts) or 'none'}")
    punct = get_normalizer(tag, chosen.punct_profile)
    normalized = get_normalizer(tag, chosen.normalized_profile)
    finish = _continuation(punct, normalized)
    converters, reason = _converters(tag, chosen, normalized)
    targets = ((script,) if script else chosen.scripts) if converters else ()
    pairs = []
    for ref, hyp in zip(refs, hyps):
        punct_pair = (punct(ref), punct(hyp))
        norm_pair = (finish(ref, punct_pair[0]), finish(hyp, punct_pair[1]))
        target, script_pair = _script_forms(ref, hyp, norm_pair, targets, converters)
        forms = {"cer_raw": (ref, hyp), "cer_punct": punct_pair, "cer_normalized": norm_pair,
                 SCRIPT_VIEW: script_pair}
        counts = {name: None if pair is None else char_counts(*pair) for name, pair in forms.items()}
        pairs.append(PairViews(ref, hyp, forms, counts, target))
    views = {name: None if name == SCRIPT_VIEW and not converters else
             EditCounts.total(pair.counts[name] for pair in pairs) for name in VIEW_NAMES}
    used: dict[str, int] = {}
    for pair in pairs:
        if pair.script is not None:
            used[pair.script] = used.get(pair.script, 0) + 1
    conversion = ScriptConversion(bool(converters), "given" if script else "detected", used,
                                  _libraries(chosen), reason)
    return CerViews(chosen.name, views, conversion, tuple(pairs))


def _converters(tag: str, chosen: EvalProtocol,
                normalized: Pipeline) -> tuple[dict[str, Callable[[str, str], str]], str | None]:
    """``({script: run(text, normalized form)}, None)``, or ``({}, reason)`` when a converter is
    unavailable (not installed, or did not load): the script view is then ``None``."""
    from pytest_asrbench.normalize.registry import get_normalizer

    if not chosen.script_profiles:
        return {}, f"{chosen.name} converts no scripts"
    try:
        return {name: _continuation(normalized, get_normalizer(tag, profile))
                for name, profile in chosen.script_profiles}, None
    except ConverterUnavailableError as exc:
        return {}, str(exc)


def _script_forms(ref: str, hyp: str, norm_pair: tuple[str, str], targets: tuple[str, ...],
                  converters: dict[str, Callable[[str, str], str]]) -> tuple[str | None, tuple[str, str] | None]:
    """The target script of one pair and its (reference, converted hypothesis) forms."""
    if not targets:
        return None, None
    norm_ref, norm_hyp = norm_pair
    target = targets[0]
    if len(targets) > 1:
        changed = {name: Levenshtein.distance(norm_ref, converters[name](ref, norm_ref)) for name in targets}
        target = min(targets, key=changed.__getitem__)  # min keeps the first of equals: the config's order
    return target, (norm_ref, converters[target](hyp, norm_hyp))


def _compute(result: Score, config: LanguageConfig) -> ViewResult:
    views = cer_views([pair.scored_reference for pair in result.pairs], [pair.hypothesis for pair in result.pairs],
                      result.language)
    return ViewResult(details=views.details())


def _applies(config: LanguageConfig, unit: str) -> bool:
    """The views run for every language that registers a protocol (its config is checked then)."""
    return current_protocol(config.language) is not None


#: The registered view ``cer_views`` (metrics ``stt_wer`` and ``cer``).
CER_VIEWS = register_view(MetricView("cer_views", _applies, _compute))
