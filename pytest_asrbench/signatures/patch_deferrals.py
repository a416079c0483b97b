"""Patch-bump signature rewrites held back until the whole run has been seen.

A patch bump (x.y.Z) promises that no recorded case output of its (metric, language) moves
(Semantic Versioning 2.0.0 as this project applies it to metrics). Under ``--snapshot-update``
that promise can only be checked once every case of the pair has run, so the signature
case of a patch-only pair does not rewrite its YAML (nor its snapshot) while the run is
going: it leaves a :class:`PendingRewrite`, and every case refused by the patch rule leaves
its (metric, language) (:meth:`Deferrals.refuse`). At the end of the run,
:meth:`Deferrals.decide` says, per pending pair, whether to rewrite it (no refusal, every
case of the pair seen), or to keep the recorded signature and why. Keeping it is what closes
the loophole: the next ``--snapshot-update`` still sees the patch bump pending, so it still
refuses the cases whose output would change.

Pure: no pytest, no case files. The cases layer records the pending rewrites and refusals
(:mod:`pytest_asrbench.cases.version_gate_session`); the plugin layer merges what xdist workers
send (:meth:`Deferrals.payload`, :meth:`Deferrals.merge`) and carries out the decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

from pytest_asrbench.signatures.version_gate import record_command

Pair = tuple[str, str]


@dataclass(frozen=True)
class PendingRewrite:
    """A signature case whose re-recording waits for the end of the run.

    ``path`` and ``case_id`` name the case (its YAML file, absolute); ``where`` is its
    ``path:line`` for messages; ``cases`` the case folder of the re-record command; ``moves``
    the version moves (``["config en.toml 1.6.0→1.6.1"]``, all patch-level). ``snapshot_location``
    and ``snapshot_text`` are the signature case's snapshot file and the JSON text to write
    there (``None``: the recorded snapshot already matches).
    """

    metric: str
    language: str
    path: str
    case_id: str
    where: str
    cases: str
    moves: tuple[str, ...]
    snapshot_location: str | None = None
    snapshot_text: str | None = None

    @property
    def pair(self) -> Pair:
        return (self.metric, self.language)


@dataclass(frozen=True)
class Decision:
    """What to do with one pending rewrite: ``action`` is ``"rewrite"`` or ``"keep"``;
    ``message`` (for ``keep``) is the line the run's summary prints, once per pair."""

    pending: PendingRewrite
    action: str
    message: str = ""


@dataclass
class Deferrals:
    """The pending rewrites and patch-rule refusals of one process (or, merged, of a run)."""

    pending: dict[Pair, PendingRewrite] = field(default_factory=dict)
    #: (metric, language) -> the ``path:line`` of each case refused by the patch rule.
    refused: dict[Pair, set[str]] = field(default_factory=dict)

    def defer(self, pending: PendingRewrite) -> None:
        self.pending[pending.pair] = pending

    def refuse(self, metric: str, language: str, where: str) -> None:
        self.refused.setdefault((metric, language), set()).add(where)

    def payload(self) -> dict:
        """Plain data (builtins only, as execnet sends) for the xdist controller."""
        return {
            "pending": [asdict(pending) for pending in self.pending.values()],
            "refused": [[metric, language, where] for (metric, language), wheres in self.refused.items()
                        for where in sorted(wheres)],
        }

    def merge(self, payload: dict) -> None:
        """Add one worker's :meth:`payload`. Two workers that both ran the pair's signature
        case (a rerun) describe the same rewrite; a snapshot text known to either is kept."""
        for data in payload["pending"]:
            pending = PendingRewrite(**{**data, "moves": tuple(data["moves"])})
            known = self.pending.get(pending.pair)
            if known is not None and pending.snapshot_text is None:
                pending = replace(pending, snapshot_location=known.snapshot_location,
                                  snapshot_text=known.snapshot_text)
            self.pending[pending.pair] = pending
        for metric, language, where in payload["refused"]:
            self.refuse(metric, language, where)

    def decide(self, unseen: Callable[[Pair], "str | None"]) -> list[Decision]:
        """One :class:`Decision` per pending pair, in (metric, language) order.

        ``unseen(pair)`` says why the run did not see every case of ``pair`` (an
        interruption, a selection, a case file not collected), or ``None`` when it did. A
        pair is rewritten only when none of its cases was refused and every one was seen.
        """
        decisions = []
        for pair in sorted(self.pending):
            pending = self.pending[pair]
            refused = self.refused.get(pair)
            if refused:
                decisions.append(Decision(pending, "keep", kept_message(pending, len(refused))))
                continue
            reason = unseen(pair)
            if reason:
                decisions.append(Decision(pending, "keep", unseen_message(pending, reason)))
                continue
            decisions.append(Decision(pending, "rewrite"))
        return decisions


def _command(pending: PendingRewrite) -> str:
    return record_command(pending.cases)


def kept_message(pending: PendingRewrite, count: int) -> str:
    """Why a patch-bumped pair's signature was not re-recorded: ``count`` of its cases would
    change, which a patch bump does not allow."""
    return (f"signature of ({pending.metric}, {pending.language}) kept as recorded ({pending.where}): "
            f"{count} case(s) would change under a patch bump ({'; '.join(pending.moves)}); make it at "
            f"least a minor bump (x.Y.0) of the metric or the config, then re-run `{_command(pending)}`")


def unseen_message(pending: PendingRewrite, reason: str) -> str:
    """Why a patch-bumped pair's signature was not re-recorded: the run could not show that
    none of its cases changes."""
    return (f"signature of ({pending.metric}, {pending.language}) kept as recorded ({pending.where}): "
            f"a patch bump ({'; '.join(pending.moves)}) is re-recorded only by a run that saw every case "
            f"of the pair, and {reason}; re-run `{_command(pending)}` without a selection")
