"""The ``signature`` kind: the recorded signature of a (metric, language) against the current one.

Fields: ``metric`` (case or file default), ``version`` (the metric's version), ``config_version``,
``signature`` and ``components`` (one hash, or library version, per input). The case fails
when the signature changed and neither version moved ("metric changed without a version
bump"), and when a version moved but the case was not re-recorded. Under
``--snapshot-update`` a bumped case is re-recorded in place (only its signature lines are
edited): at once after a minor or major bump; after a patch-only bump at the end of the run,
and only if no case of the pair was refused by the patch rule and the run saw every one
(:mod:`pytest_asrbench.signatures.patch_deferrals`). The snapshot holds the versions only: the hashes live in the YAML, where review
sees them.
"""

from __future__ import annotations

from pytest_asrbench.cases.model import Case, CaseResult
from typing import Any

from pytest_asrbench.cases.registry import RunContext, SnapshotRules, register
from pytest_asrbench.cases.signature_files import rewrite_case
from pytest_asrbench.cases.version_gate_session import session_gate, update_refusal
from pytest_asrbench.signatures.patch_deferrals import PendingRewrite
from pytest_asrbench.signatures.version_gate import Recorded, judge, patch_only_moves, record_command


SCHEMA: dict = {
    "description": "The recorded signature of (metric, language); re-recorded by "
                   "`pytest --asrbench cases --snapshot-update` after a version bump.",
    "properties": {
        "version": {"type": "string", "minLength": 1,
                    "description": "The metric's version when the signature was recorded."},
        "config_version": {"type": "string", "minLength": 1,
                           "description": "The language config's version when the signature was recorded."},
        "signature": {"type": "string", "pattern": "^[0-9a-f]{8,64}$",
                      "description": "Hash over every component (asrbench signature)."},
        "components": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Per input: 'module <path>', 'config <lang>.toml', 'lexicon <path>', "
                           "'library <name>' -> hash or version.",
        },
    },
    "required": ["version", "config_version", "signature", "components"],
}


@register
class SignatureRunner:
    kind = "signature"
    #: The pair's signature case explains a refusal in full; its own re-recording is the
    #: version gate's (a patch bump is decided at the end of the run), written over the
    #: recording even in pending mode.
    snapshot_rules = SnapshotRules(explains_refusal=True, patch_rule=False, reviewable=False,
                                   records_signature=True)

    @staticmethod
    def snapshot_view(output: dict[str, Any]) -> dict[str, Any]:
        """All of the output: the versions are what a signature case records."""
        return output

    def run(self, case: Case, context: RunContext) -> CaseResult:
        config = context.pytest_config
        gate = session_gate(config)
        current = gate.current(case.metric, case.language)
        recorded = Recorded.from_case(case, context.rootpath)
        # The session's verdict also names the languages reading this config (hi reads en.toml).
        verdict = (gate.verdict(case.metric, case.language) if (case.metric, case.language) in gate.recorded()
                   else judge(recorded, current, gate.locate))
        failures = []
        rewritten = []
        pending = None
        if verdict.state == "bumped" and context.updating:
            moves = patch_only_moves(recorded, current)
            if update_refusal(case, config, full=True) is not None:
                pass  # the gate refuses the pair (unreadable signatures): the item says why, nothing is written
            elif moves:
                # A patch bump promises no recorded output moves: only the end of the run knows.
                pending = PendingRewrite(case.metric, case.language, str(case.file), case.id, case.where(),
                                         recorded.cases, tuple(moves))
            elif rewrite_case(case.file, case.id, current):
                rewritten.append(str(case.file))
        elif verdict.state in ("bumped", "changed"):
            failures.append(verdict.message)
        output = {
            "kind": case.kind,
            "metric": current.metric,
            "language": current.language,
            "version": current.version,
            "config_version": current.config_version,
        }
        # The snapshot holds the versions: after a bump it differs, and the verdict above
        # already says how to re-record; the generic "bump the version" advice would contradict it.
        hint = ("it holds this pair's versions, which moved: the re-record command above records it too"
                if verdict.state == "bumped" else
                f"it holds this pair's versions; re-record it with `{record_command(recorded.cases)}`")
        return CaseResult(output, failures, snapshot_hint=hint, rewritten=rewritten, pending_rewrite=pending)
