"""What two bench records must share to be compared, and what their arms differ in.

Refused (:class:`ComparisonError`, naming the field and both values): a smoke record; another
manifest (``corpus.manifest_sha256``); another decode policy (any field of
``decode_policy``: forced language, script target, conditioning, temperature, VAD, silence
gate, device, audio preparation: the protocol's "hold constant" list); other included rows
(the gate excluded different rows, e.g. audio changed under one run).

Not refused but reported: the host profile. Latency and core cost are compared only when both
runs ran on the same profile (:data:`HOST_FIELDS` and the kernel fingerprint); CER is
compared whatever the host.
"""

from __future__ import annotations

from pytest_asrbench.bench.errors import ComparisonError

#: Host fields that make a latency comparison fair when equal.
HOST_FIELDS = ("os", "architecture", "cpu_model", "logical_cpus", "ram_bytes", "threads", "kernels")


def check_comparable(base: dict, candidate: dict) -> None:
    """Raise :class:`ComparisonError` unless the two records can be compared (module docstring)."""
    for name, record in (("base", base), ("candidate", candidate)):
        if record["smoke"]:
            raise ComparisonError(f"the {name} record is a smoke record (no decode); compare two real runs")
    a, b = base["corpus"]["manifest_sha256"], candidate["corpus"]["manifest_sha256"]
    if a != b:
        raise ComparisonError(f"corpus.manifest_sha256 differs: base {a}, candidate {b}; both arms must run the "
                              "same manifest")
    fields = sorted(set(base["decode_policy"]) | set(candidate["decode_policy"]))
    for field in fields:
        left, right = base["decode_policy"].get(field), candidate["decode_policy"].get(field)
        if left != right:
            raise ComparisonError(f"decode_policy.{field} differs: base {left!r}, candidate {right!r}; the decode "
                                  "policy is held constant between arms (run both with the same settings)")
    ids_a = {u["id"] for u in base["utterances"]}
    ids_b = {u["id"] for u in candidate["utterances"]}
    if ids_a != ids_b:
        only = sorted(ids_a ^ ids_b)[:10]
        raise ComparisonError(f"the included rows differ ({', '.join(only)}); the gate excluded other rows in one "
                              "run: compare runs over the same audio")


def host_profile(record: dict) -> dict:
    """The host fields a latency comparison depends on."""
    return {name: record["host"].get(name) for name in HOST_FIELDS}


#: What an arm may change: the model itself. Every other difference is a hold-constant violation.
MODEL_FIELDS = ("model.artifact_id", "model.model_sha256", "model.revision.resolved", "decode.model")


#: The executor fields a cost comparison holds constant (the record's ``executor`` section).
EXECUTOR_FIELDS = ("name", "workers", "threads_per_worker")


def hold_constant_violations(differences: dict[str, tuple]) -> list[str]:
    """The differences of :func:`arm_differences` other than the model (:data:`MODEL_FIELDS`):
    decode settings (beam size, temperature, conditioning ...), the compute type, the device,
    each as ``field base -> candidate``. The protocol holds them constant between arms."""
    return [f"{name} {a!r} -> {b!r}" for name, (a, b) in differences.items() if name not in MODEL_FIELDS]


def arm_differences(base: dict, candidate: dict) -> dict[str, tuple]:
    """``{field: (base value, candidate value)}`` of what the arms differ in: the model
    (artifact, SHA-256, resolved revision), the engine's decode settings, the compute type, the
    executor (:data:`EXECUTOR_FIELDS`)."""
    out: dict[str, tuple] = {}
    for field in ("artifact_id", "model_sha256"):
        if base["model"].get(field) != candidate["model"].get(field):
            out[f"model.{field}"] = (base["model"].get(field), candidate["model"].get(field))
    rev_a, rev_b = base["model"]["revision"]["resolved"], candidate["model"]["revision"]["resolved"]
    if rev_a != rev_b:
        out["model.revision.resolved"] = (rev_a, rev_b)
    decode_a = base["engine"]["identity"].get("decode", {})
    decode_b = candidate["engine"]["identity"].get("decode", {})
    for field in sorted(set(decode_a) | set(decode_b)):
        if decode_a.get(field) != decode_b.get(field):
            out[f"decode.{field}"] = (decode_a.get(field), decode_b.get(field))
    if base["host"]["compute_type"] != candidate["host"]["compute_type"]:
        out["host.compute_type"] = (base["host"]["compute_type"], candidate["host"]["compute_type"])
    # where the clips were decoded moves latency and core-seconds, never a transcript: arms run
    # on different executors (or worker counts) have no comparable cost
    executor_a, executor_b = base.get("executor") or {}, candidate.get("executor") or {}
    for field in EXECUTOR_FIELDS:
        if executor_a.get(field) != executor_b.get(field):
            out[f"executor.{field}"] = (executor_a.get(field), executor_b.get(field))
    return out
