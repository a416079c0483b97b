"""The decode loop of ``asrbench bench run`` and the ``asrbench.bench/1`` record it writes.

Order: the manifest is opened and gated (:func:`~pytest_asrbench.bench.manifest.gate.open_manifest`),
the pre-registration checked, then the executor (:mod:`.executors`: this process, or a pool of
Ray actors) creates its engines and loads their model once each (the cold load time), then
every included row is transcribed with the forced language ``zh`` and no script conversion
(the engine returns what the model wrote; the script-normalized view converts for scoring
only) and scored in manifest order as the transcripts arrive, then the record is assembled.
Where a clip was decoded changes only timings and the record's ``executor`` section.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from pytest_asrbench.asr.cache import HypothesisCache
from pytest_asrbench.asr.engine import HALLUCINATION_FLAGS
from pytest_asrbench.asr.run_record import peak_rss_bytes, percentile
from pytest_asrbench.bench.run.errors import ExecutorError
from pytest_asrbench.bench.manifest.gate import GatedManifest, open_manifest
from pytest_asrbench.bench.manifest.prereg import check_preregistration, read_preregistration
from pytest_asrbench.bench.run import critical, provenance
from pytest_asrbench.bench.run.executors import ClipJob, Executor, executor_for
from pytest_asrbench.bench.run.executors.base import LANGUAGE
from pytest_asrbench.bench.run.longform import longform_entry
from pytest_asrbench.bench.run.measure import Stopwatch, real_time_factor
from pytest_asrbench.bench.run.settings import RunSettings
from pytest_asrbench.bench.run.views import PRIMARY_VIEW, UTTERANCE_FIELDS, VIEWS, pair_views, sum_views, views_dict

SCHEMA = "asrbench.bench/1"
SCRIPTS = ("simplified", "traditional")
#: The split name of a pilot corpus (never valid for a claim).
PILOT_SPLIT = "pilot"
#: Worst utterances quoted as error exemplars (when the corpus permits sharing transcripts).
EXEMPLARS = 10
#: Fields of the original requirements' measurement record this harness cannot measure, and why.
UNMEASURED = {
    "power": "no power meter is read; the CPU governor is recorded where Linux exposes it",
    "runtime_closure_bytes": "the installed environment is shared with other tools; only the model's bytes on "
                             "disk are attributed to the run",
    "timestamps_word_alignment": "the engine returns segment times only; word alignment is not evaluated",
    "streaming_stability": "the engine decodes whole files; there is no streaming partial/final path to measure",
    "meeting_file_compatibility": "not a property of a file benchmark run",
    "recovery_after_cache": "not exercised: the model is loaded once per run (per worker)",
    "egress_audit": "no network monitor runs; the engine loads with HF_HUB_OFFLINE=1 and local files only "
                    "(a policy, recorded, not an audit)",
    "speaker_leakage": "needs the speakers of the other splits; the manifest holds one split",
}


def decode_policy(settings: RunSettings, engine) -> dict:
    """What both arms of a comparison must share: forced language, script target, no
    production script conversion, decoder conditioning, sampling and gating flags, device,
    audio preparation. Search width (``beam_size``), the model and the compute type are what
    an arm may change."""
    decode = engine.identity()["decode"]
    return {
        "language": LANGUAGE,
        "forced_language": True,
        "script_target": settings.script,
        "production_script_conversion": False,
        "temperature": decode.get("temperature"),
        "condition_on_previous_text": decode.get("condition_on_previous_text"),
        "vad_filter": decode.get("vad_filter"),
        "silence_gate": decode.get("silence_gate"),
        "detect_language": decode.get("detect_language"),
        "transcribe_options": decode.get("transcribe_options"),
        "device": decode.get("device"),
        "audio": "16 kHz mono float32 (faster-whisper's PyAV decoder)",
    }


def _utterance(item, transcript, latency: float | None, views: dict, failures: dict, share: bool) -> dict:
    entry = {
        "id": item.row.id, "slice": item.row.slice, "speaker": item.row.speaker,
        "audio_sha256": item.audio_sha256, "duration_seconds": transcript.info.duration,
        "latency_seconds": _round(latency), "flags": list(transcript.flags),
        "no_output": not transcript.text.strip(),
        "views": {name: None if views[name] is None else views[name].to_dict(UTTERANCE_FIELDS) for name in VIEWS},
        "critical": {category: {"total": found["total"], "failed": found["failed"]}
                     for category, found in failures.items()},
    }
    if share:
        entry.update(reference=item.row.reference, hypothesis=transcript.text)
    return entry


def _safety(utterances: list[dict], silence_slice: str) -> dict:
    silent = [u for u in utterances if u["slice"] == silence_slice]
    speech = [u for u in utterances if u["slice"] != silence_slice]
    return {
        "silence_slice": silence_slice,
        "silence_utterances": len(silent),
        "silence_hallucinations": sum(1 for u in silent if not u["no_output"]),
        "silence_no_output": sum(1 for u in silent if u["no_output"]),
        "speech_no_output": sum(1 for u in speech if u["no_output"]),
        "hallucination_flags": sum(1 for u in utterances if set(u["flags"]) & HALLUCINATION_FLAGS),
        "note": None if silent else f"the manifest has no {silence_slice!r} slice: hallucination on silence not measured",
    }


def _exemplars(utterances: list[dict], share: bool) -> dict:
    if not share:
        return {"permitted": False, "items": None,
                "reason": "the corpus sidecar does not set share_transcripts: transcripts are not quoted"}
    def errors(u):
        view = u["views"][PRIMARY_VIEW]
        return 0 if view is None else view["substitutions"] + view["deletions"] + view["insertions"]
    worst = sorted((u for u in utterances if errors(u) or any(c["failed"] for c in u["critical"].values())),
                   key=lambda u: (-errors(u), u["id"]))[:EXEMPLARS]
    return {"permitted": True, "reason": None,
            "items": [{"id": u["id"], "slice": u["slice"], "reference": u["reference"], "hypothesis": u["hypothesis"],
                       "errors": errors(u)} for u in worst]}


def _metrics(manifest: GatedManifest, views_by_id: dict) -> dict:
    slices: dict[str, list] = {}
    for item in manifest.included:
        slices.setdefault(item.row.slice, []).append(views_by_id[item.row.id])
    return {"primary_view": PRIMARY_VIEW, "views": list(VIEWS),
            "overall": views_dict(sum_views(views_by_id.values())),
            "slices": {name: views_dict(sum_views(items)) for name, items in sorted(slices.items())}}


def _script_section(script: str, conversions: list[dict], pairs: int) -> dict:
    reasons = sorted({c["reason"] for c in conversions if c["reason"]})
    return {"target": script, "reference_script": script, "production_conversion": False,
            "opencc": provenance.opencc_versions(), "script_view_pairs": pairs, "conversion_ran": pairs > 0,
            "not_run_reason": "; ".join(reasons) or None}


def validity(record: dict) -> list[str]:
    """Why a record is not valid for a claim (empty: it is)."""
    reasons = []
    prereg = record["corpus"]["preregistration"]
    if prereg is None:
        reasons.append("no pre-registration was given (--preregistration)")
    else:
        reasons += prereg["shortfalls"]
    if record["model"]["licence"]["verdict"] != "permissive":
        reasons.append(f"model licence verdict is {record['model']['licence']['verdict']}")
    if record["smoke"]:
        reasons.append("a smoke record: no model, audio or network was used")
    elif record["corpus"]["split"] == PILOT_SPLIT:
        reasons.append("a pilot split: it finds pipeline issues, it is not evidence for a claim (the protocol)")
    return reasons


def run_bench(settings: RunSettings, *, engine=None, progress=None, executor: Executor | None = None) -> dict:
    """Run the manifest and return the ``asrbench.bench/1`` record (a JSON-able dict).

    Args:
        settings: the run's options.
        engine: an :class:`~pytest_asrbench.asr.engine.SttEngine` to use with the local
            executor (default: built from ``settings`` by
            :func:`~pytest_asrbench.bench.run.executors.build_engine`).
        progress: called with ``(done, total)`` after each row is scored.
        executor: where clips are decoded (default: ``settings.executor``, see
            :func:`~pytest_asrbench.bench.run.executors.executor_for`).

    Raises:
        BenchFileNotFoundError, ManifestFormatError, ManifestHashError, ManifestGateError,
        PreregistrationError: from the manifest stage, before any model loads.
        InputError: an unknown script or executor, or executor options that do not fit it.
        ExecutorError: the ray executor cannot run (not installed, cluster unreachable, a
            worker died past its restart budget).
        AsrError subclasses: the model cannot be found or loaded, a clip cannot be decoded.
    """
    if settings.script not in SCRIPTS:
        from pytest_asrbench.errors import InputError

        raise InputError(f"--script {settings.script!r}: use one of {', '.join(SCRIPTS)}")
    if executor is None:
        executor = executor_for(settings.executor, workers=settings.workers, address=settings.ray_address)
    prereg = read_preregistration(settings.preregistration) if settings.preregistration else None
    expected = settings.expect_manifest_sha256 or (prereg.manifest_sha256 if prereg else None)
    manifest = open_manifest(settings.manifest, settings.audio_root, expect_sha256=expected)
    prereg_section = check_preregistration(prereg, manifest) if prereg else None
    started = _dt.datetime.now(_dt.timezone.utc)
    cache = HypothesisCache(settings.cache_dir, enabled=settings.hypothesis_cache)
    jobs = [ClipJob(index, item.row.id, item.audio_path) for index, item in enumerate(manifest.included)]
    share = manifest.sidecar.share_transcripts
    utterances, views_by_id, failures, longform, latencies, conversions = [], {}, [], [], [], []
    worker_cpu = 0.0
    try:
        executor.start(settings, engine, cache)
        with Stopwatch() as decode:
            for done, (item, decoded) in enumerate(zip(manifest.included, executor.transcribe(jobs)), start=1):
                if decoded.id != item.row.id:  # the executor's promise: results in the jobs' order
                    raise ExecutorError(f"executor {executor.name} returned {decoded.id!r} for row {item.row.id!r}")
                transcript = decoded.transcript
                if decoded.latency_seconds is not None:
                    latencies.append(decoded.latency_seconds)
                worker_cpu += decoded.cpu_seconds
                views, conversion = pair_views(item.row.reference, transcript.text, LANGUAGE, settings.script)
                views_by_id[item.row.id] = views
                conversions.append(conversion)
                found = critical.token_failures(item.row.reference, transcript.text)
                failures.append(found)
                utterances.append(_utterance(item, transcript, decoded.latency_seconds, views, found, share))
                if item.row.intervals:
                    longform.append(longform_entry(item.row.id, item.row.intervals, transcript.segments, LANGUAGE,
                                                   settings.script, share))
                if progress is not None:
                    progress(done, len(manifest.included))
        if len(utterances) != len(jobs):
            raise ExecutorError(f"executor {executor.name} returned {len(utterances)} of {len(jobs)} clips")
        workers = executor.workers()
        model_files = executor.model_files
        executor_section = executor.section()
    finally:
        executor.close()
    engine = executor.engine
    identity = engine.identity()  # resolves the model files (without loading the model)
    loads = [w.load_seconds for w in workers if w.load_seconds is not None]
    remote = executor.name != "local"
    rss = [w.peak_rss_bytes for w in workers if w.peak_rss_bytes is not None] + [peak_rss_bytes() or 0]
    audio_seconds = sum(u["duration_seconds"] for u in utterances)
    decoded_seconds = sum(u["duration_seconds"] for u in utterances if u["latency_seconds"] is not None)
    script_pairs = sum(1 for v in views_by_id.values() if v["cer_script_normalized"] is not None)
    licence = provenance.licence_section(settings.model_license, settings.license_source,
                                         getattr(engine, "uses_embedded_model", False))
    record = {
        "schema": SCHEMA,
        "created": started.isoformat(timespec="seconds"),
        "smoke": False,
        "command": settings.argv,
        "tool": {"name": "pytest-asrbench", "version": _tool_version(), "git": provenance.git_section(Path(__file__).parent)},
        "seed": settings.seed,
        "corpus": provenance.corpus_section(manifest, prereg_section),
        "model": provenance.model_section(engine, settings.model, settings.model_revision, licence,
                                          model_files),
        "engine": {"name": engine.name, "identity": identity},
        "decode_policy": decode_policy(settings, engine),
        "runtime": provenance.runtime_section(),
        "host": provenance.host_section(settings.threads, settings.compute_type, identity.get("kernels")),
        "script": _script_section(settings.script, conversions, script_pairs),
        "metrics": _metrics(manifest, views_by_id),
        "critical_tokens": critical.sum_failures(failures),
        "exemplars": _exemplars(utterances, share),
        "performance": {
            "cold_load_seconds": max(loads) if loads else None,
            "latency_p50_seconds": _round(percentile(latencies, 50)),
            "latency_p95_seconds": _round(percentile(latencies, 95)),
            "real_time_factor": _round(real_time_factor(latencies, decoded_seconds)),
            "audio_seconds": round(audio_seconds, 3),
            "decode_wall_seconds": round(decode.wall, 4),
            "cpu_core_seconds": round(decode.cpu + worker_cpu if remote else decode.cpu, 4),
            "load_cpu_core_seconds": round(sum(w.load_cpu_seconds for w in workers), 4),
            "peak_rss_bytes": max(rss) or None,
            "driver_peak_rss_bytes": peak_rss_bytes(),
            "utterances": len(utterances),
            "cached_utterances": sum(1 for u in utterances if u["latency_seconds"] is None),
        },
        "safety": _safety(utterances, settings.silence_slice),
        "long_form": longform,
        "utterances": utterances,
        "unmeasured": dict(UNMEASURED),
        "executor": executor_section,
    }
    reasons = validity(record)
    record["valid_for_claim"] = not reasons
    record["validity_reasons"] = reasons
    return record


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _tool_version() -> str:
    from pytest_asrbench import __version__

    return __version__
