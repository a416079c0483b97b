"""``asrbench bench run --smoke``: the record's shape with no model, no audio and no network.

Everything that can be known without them is filled in as in a real run (tool, git commit,
runtime versions, host, licence verdict of the flags given, decode policy of the default
settings); everything that needs a decode is ``None`` or empty, and the record says it is a
smoke record, not valid for a claim. CI runs it to prove the writer, the schema and the
command line agree.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from pathlib import Path

from pytest_asrbench.asr.fingerprint import kernel_fingerprint
import pytest_asrbench.bench.run.critical as critical
import pytest_asrbench.bench.run.provenance as provenance
from pytest_asrbench.bench.run.executors.base import engine_settings
from pytest_asrbench.bench.run.runner import LANGUAGE, SCHEMA, UNMEASURED, RunSettings, decode_policy, validity
from pytest_asrbench.bench.run.views import PRIMARY_VIEW, VIEWS

_EMPTY = hashlib.sha256(b"").hexdigest()


def smoke_record(settings: RunSettings) -> dict:
    """A schema-valid ``asrbench.bench/1`` record of no decode (see the module docstring)."""
    nothing = {name: None for name in VIEWS}
    record = {
        "schema": SCHEMA,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "smoke": True,
        "command": settings.argv,
        "tool": {"name": "pytest-asrbench", "version": _version(), "git": provenance.git_section(Path(__file__).parent)},
        "seed": settings.seed,
        "corpus": {
            "manifest": "(smoke: no manifest)", "manifest_sha256": _EMPTY, "sidecar_sha256": _EMPTY,
            "corpus": "(smoke)", "source": "(smoke)", "revision": "(smoke)", "licence": "(smoke)",
            "consent": "(smoke)", "split": "(smoke)", "selection": {"rule": "(smoke)", "seed": None},
            "audio_sha256": _EMPTY, "audio_sha256_checked": True, "share_transcripts": False,
            "rows": {"total": 0, "included": 0, "excluded": 0}, "exclusions": {}, "excluded_ids": {},
            "missing_audio": {},
            "slices": {}, "speakers": 0, "preregistration": None,
        },
        "model": {
            "requested": settings.model, "artifact_id": None, "source": None,
            "revision": {"declared": settings.model_revision, "resolved": None,
                         "resolved_from": "smoke: no model was loaded", "matches_declared": None},
            "model_sha256": None, "file_sha256": None, "bytes_on_disk": None, "embedded": False,
            "licence": provenance.licence_section(settings.model_license, settings.license_source, None),
        },
        "engine": {"name": settings.engine, "identity": {"smoke": True}},
        "decode_policy": decode_policy(settings, _default_decode(settings), LANGUAGE),
        "runtime": provenance.runtime_section(),
        "host": provenance.host_section(settings.threads, settings.compute_type, kernel_fingerprint()),
        "script": {"target": settings.script, "reference_script": settings.script, "production_conversion": False,
                   "opencc": provenance.opencc_versions(), "script_view_pairs": 0, "conversion_ran": False,
                   "not_run_reason": "smoke: nothing was scored"},
        "metrics": {"primary_view": PRIMARY_VIEW, "views": list(VIEWS), "overall": nothing, "slices": {}},
        "critical_tokens": critical.sum_failures([]),
        "exemplars": {"permitted": False, "items": None, "reason": "smoke: nothing was transcribed"},
        "performance": {key: None for key in ("cold_load_seconds", "latency_p50_seconds", "latency_p95_seconds",
                                              "real_time_factor", "decode_wall_seconds", "cpu_core_seconds",
                                              "load_cpu_core_seconds", "peak_rss_bytes")}
        | {"audio_seconds": 0.0, "utterances": 0},
        "safety": {"silence_slice": settings.silence_slice, "silence_utterances": 0, "silence_hallucinations": 0,
                   "silence_no_output": 0, "speech_no_output": 0, "hallucination_flags": 0,
                   "note": "smoke: nothing was transcribed"},
        "long_form": [],
        "utterances": [],
        "unmeasured": dict(UNMEASURED) | {"everything_decoded": "smoke: no model, audio or network was used"},
        "executor": {"name": "none", "address": None, "library": None, "workers": 0, "threads_per_worker": None,
                     "resources_per_worker": None, "max_restarts": None, "max_task_retries": None,
                     "worker_processes": []},
    }
    reasons = validity(record)
    record["valid_for_claim"] = False
    record["validity_reasons"] = reasons
    return record


def _default_decode(settings: RunSettings) -> dict:
    """The decode settings the run's options would give the default engine, read without an
    engine (no model, no GPU probe, no check): its defaults with the options laid over them."""
    from pytest_asrbench.asr.decode_settings import DecodeSettings

    return DecodeSettings(**engine_settings(settings)).output_dict()


def _version() -> str:
    from pytest_asrbench import __version__

    return __version__
