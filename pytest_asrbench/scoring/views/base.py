"""Metric views: the protocol, the registry, and :func:`apply_views`, which ``score()`` calls.

A *view* is a named function of a strict score (its pairs, their alignments and counts)
and the language config that returns figures to add to :attr:`Score.details
<pytest_asrbench.scoring.result.Score.details>`; it may also give new headline counts (the
Hindi code-switch rescue turns the strict WER into the code-switch-aware one). A metric
declares the views it runs (``Metric.views`` in :mod:`pytest_asrbench.scoring.metrics`);
each view says for which languages and units it applies. So a new view is one module that
calls :func:`register_view`, plus its name in a metric's ``views``: ``score()`` never
branches on a language or a view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_asrbench.errors import ViewError
from pytest_asrbench.scoring.counts import EditCounts

if TYPE_CHECKING:
    from pytest_asrbench.normalize.config import LanguageConfig
    from pytest_asrbench.scoring.result import Score


@dataclass(frozen=True)
class ViewResult:
    """What one view adds: ``details`` (merged into ``Score.details`` in key order) and,
    optionally, new headline ``counts`` in the score's unit.

    ``counts`` replaces the score's hits, substitutions, deletions, insertions and
    reference length, and the rate is recomputed from them. Its ``reference_length`` is the
    score's, unless the view counts other tokens and says how many the reference has (the
    Korean CER without spaces counts no space).
    """

    details: Mapping[str, Any] = field(default_factory=dict)
    counts: EditCounts | None = None


@dataclass(frozen=True)
class MetricView:
    """A named view.

    Attributes:
        name: registry key, as metrics list it (``"code_switch"``).
        applies: ``(config, unit) -> bool``; ``False`` skips the view for that language/unit
            (``unit`` is ``"word"`` or ``"char"``, the score's).
        compute: ``(score, config) -> ViewResult``; ``score`` is the strict score with every
            earlier view already applied.
        sets_counts: the view may return ``counts``; at most one view of a metric may, unless
            the later one declares ``builds_on_counts``.
        builds_on_counts: the view's counts start from the score's current counts, whichever
            earlier view set them (the code-switch rescue removes its rescued errors from the
            counts the compounds view merged), so it may follow a view that set counts.
        profile: the normalizer profile the view reads the pairs with (``[profiles.<name>]``
            of the language config), ``None`` for the language's default steps; see
            :meth:`normalizer`. A view that feeds a recorded or frozen figure names a frozen
            profile, which is never edited in place (a change is a new profile name).
        rewrite: ``config -> ((raw reference, raw hypothesis, normalized reference, normalized
            hypothesis) -> (normalized reference, normalized hypothesis))`` or ``None``: a view that compares a pair in other forms than the
            normalizer wrote (the Japanese and Korean loanword rescue: the hypothesis writes a
            name as the reference does, Latin or katakana/Hangul) gives ``score()`` the rewrite to apply to
            each normalized pair before it is aligned; see :func:`pair_rewrites`.
        reads_spans: the view reads the alignment spans (``PairScore.spans``) of most pairs
            (the code-switch rescue's error regions): ``score()`` then keeps the spans of the
            alignment that gave the counts instead of aligning each pair again; see
            :func:`keeps_spans`. Only the cost moves, never a result.
    """

    name: str
    applies: Callable[[LanguageConfig, str], bool]
    compute: Callable[[Score, LanguageConfig], ViewResult]
    sets_counts: bool = False
    profile: str | None = None
    rewrite: Callable[[LanguageConfig], Callable[[str, str, str, str], tuple[str, str]]] | None = None
    builds_on_counts: bool = False
    reads_spans: bool = False

    def normalizer(self, language: str):
        """The normalizer this view uses in ``language``: its ``profile``, or the default.

        Raises:
            ConfigError: the language's config has no such profile (the message lists its profiles).
        """
        from pytest_asrbench.normalize.registry import get_normalizer

        return get_normalizer(language, self.profile)


_VIEWS: dict[str, MetricView] = {}


def register_view(view: MetricView) -> MetricView:
    """Add ``view`` to the registry and return it.

    Raises:
        ViewError: a different view is already registered under ``view.name``.
    """
    known = _VIEWS.get(view.name)
    if known is not None and known is not view:
        raise ViewError(f"a metric view named {view.name!r} is already registered; pick another name")
    _VIEWS[view.name] = view
    return view


def get_view(name: str) -> MetricView:
    """The registered view called ``name``.

    Raises:
        ViewError: (a ``ValueError``) no such view; the message lists the known ones.
    """
    try:
        return _VIEWS[name]
    except KeyError:
        raise ViewError(
            f"unknown metric view {name!r}; known views: {', '.join(sorted(_VIEWS)) or '(none)'}. "
            "Register it with pytest_asrbench.scoring.views.register_view."
        ) from None


def known_views() -> tuple[str, ...]:
    """Names of every registered view, sorted."""
    return tuple(sorted(_VIEWS))


def pair_rewrites(config: LanguageConfig, unit: str,
                  names: Sequence[str]) -> list[Callable[[str, str, str, str], tuple[str, str]]]:
    """The pair rewrites of the views ``names`` that apply to ``config`` and ``unit``, in order.

    Raises:
        ViewError: a name is not registered.
    """
    return [view.rewrite(config) for view in map(get_view, names)
            if view.rewrite is not None and view.applies(config, unit)]


def keeps_spans(config: LanguageConfig, unit: str, names: Sequence[str]) -> bool:
    """True when one of the views ``names`` that applies to ``config`` and ``unit`` declares
    ``reads_spans`` (``score()`` then keeps each pair's alignment spans).

    Raises:
        ViewError: a name is not registered.
    """
    return any(view.reads_spans and view.applies(config, unit) for view in map(get_view, names))


def apply_views(result: Score, config: LanguageConfig, names: Sequence[str]) -> Score:
    """Run the views ``names`` on ``result`` in order; return the final score (a new object).

    Raises:
        ViewError: a name is not registered; a view returned ``counts`` without
            declaring ``sets_counts``; two views set counts for one score (the later one
            not declaring ``builds_on_counts``); a view's
            details reuse a key already in ``details``.
    """
    counts_from: str | None = None
    for name in names:
        view = get_view(name)
        if not view.applies(config, result.unit):
            continue
        output = view.compute(result, config)
        clash = sorted(set(output.details) & set(result.details))
        if clash:
            raise ViewError(f"view {name!r} writes details {clash} that an earlier view already set")
        changes: dict[str, Any] = {"details": {**result.details, **output.details}}
        if output.counts is not None:
            if not view.sets_counts:
                raise ViewError(f"view {name!r} returned counts but does not declare sets_counts=True")
            if counts_from is not None and not view.builds_on_counts:
                raise ViewError(f"views {counts_from!r} and {name!r} both set the headline counts")
            counts_from = name
            changes.update(output.counts.to_dict())
        result = dataclasses.replace(result, **changes)
    return result
