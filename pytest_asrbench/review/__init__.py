"""Reviewing snapshot changes before they replace the recordings.

``pytest --asrbench cases --snapshot-update --asrbench-pending`` writes each changed case
snapshot beside its recording as ``<case>.json.pending`` (:mod:`.pending`) instead of over it;
``asrbench review`` (:mod:`.cli`) shows each change (:mod:`.changes`) and writes only the
accepted ones (:mod:`.session`). Signature re-recordings are the version gate's own decision
and are never pending; accepting a change re-checks the gate (:func:`.pending.gate_refusal`).
"""
