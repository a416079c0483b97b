"""The decode loop of ``asrbench bench run`` and the ``asrbench.bench/1`` record it writes.

Order: the manifest is opened and gated (:func:`~pytest_asrbench.bench.manifest.gate.open_manifest`),
the pre-registration checked, every included row's audio probed (opened and its first frame
decoded: a corrupt file is one error naming it, before any model loads), then the executor
(:mod:`.executors`: this process, or a pool of Ray actors) creates its engines and loads their model once each (the cold load time), then
every included row is transcribed with the forced language of the corpus (``--language``,
else the sidecar's ``language``, else ``zh``: the Mandarin pilot predates the field) and, for
zh, no script conversion (the engine returns what the model wrote; the script-normalized view
converts for scoring only), scored in manifest order as the transcripts arrive with that
language's views (:func:`~pytest_asrbench.bench.run.views.view_set`; the executor's results
are held to one per row, in manifest order: :func:`in_job_order`), then the record is
assembled. Where a clip was decoded changes only timings and the record's ``executor`` section.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench.asr.audio import check_audio_files
from pytest_asrbench.asr.cache import HypothesisCache
from pytest_asrbench.asr.engine import HALLUCINATION_FLAGS
from pytest_asrbench.asr.run_record import peak_rss_bytes, percentile
from pytest_asrbench.bench.manifest.gate import GatedManifest, open_manifest
from pytest_asrbench.bench.manifest.prereg import check_preregistration, read_preregistration
import pytest_asrbench.bench.run.critical as critical
import pytest_asrbench.bench.run.provenance as provenance
from pytest_asrbench.bench.run.errors import ExecutorError
from pytest_asrbench.bench.run.executors import ClipJob, Decoded, Executor, executor_for
from pytest_asrbench.bench.run.longform import longform_entry
from pytest_asrbench.bench.run.measure import Stopwatch, real_time_factor
from pytest_asrbench.bench.run.settings import RunSettings
from pytest_asrbench.bench.run.slices import slice_statistics
from pytest_asrbench.bench.run.surface import (
    egress_audit,
    egress_section,
    runtime_closure,
    word_timestamp_problems,
    word_timestamps_section,
)
from pytest_asrbench.bench.run.views import CER_VIEWS_LANGUAGE, UTTERANCE_FIELDS, ViewSet, sum_views, view_set, views_dict

SCHEMA = "asrbench.bench/1"
#: The language of a corpus whose sidecar names none (the Mandarin pilot predates the field).
LANGUAGE = CER_VIEWS_LANGUAGE
SCRIPTS = ("simplified", "traditional")
#: The split name of a pilot corpus (never valid for a claim).
PILOT_SPLIT = "pilot"
#: Worst utterances quoted as error exemplars (when the corpus permits sharing transcripts).
EXEMPLARS = 10
#: Fields of the original requirements' measurement record this harness cannot measure, and why.
UNMEASURED = {
    "power": "no power meter is read; the CPU governor is recorded where Linux exposes it",
    "timestamps_word_alignment": "without --word-timestamps the engine returns segment times only; with it, words "
                                 "are checked present and in order (surface.word_timestamps), alignment to the "
                                 "reference is not evaluated",
    "streaming_stability": "the engine decodes whole files; there is no streaming partial/final path to measure",
    "meeting_file_compatibility": "not a property of a file benchmark run",
    "recovery_after_cache": "not exercised: the model is loaded once per run (per worker)",
    "speaker_leakage": "needs the speakers of the other splits; the manifest holds one split",
}


def run_language(requested: str | None, manifest: GatedManifest) -> tuple[str, str]:
    """(language tag, where it came from) of a manifest's run: ``requested`` (``--language``),
    else the sidecar's ``language``, else :data:`LANGUAGE`. ``bench run`` and ``asr parity
    --manifest`` force this language.

    Raises:
        InputError: ``requested`` and the sidecar name different languages.
        UnknownLanguageError: the language has no shipped config (the message lists them).
    """
    from pytest_asrbench.errors import InputError
    from pytest_asrbench.normalize.registry import resolve_language

    declared = manifest.sidecar.language
    if requested is not None:
        tag = resolve_language(requested)
        if declared is not None and resolve_language(declared) != tag:
            raise InputError(f"--language {requested} but {manifest.sidecar.path} names {declared!r}; "
                             "drop --language or fix the sidecar's language")
        return tag, "--language"
    if declared is not None:
        return resolve_language(declared), "the sidecar's language"
    return LANGUAGE, "no language in the sidecar: zh, the Mandarin protocol's"


def decode_policy(settings: RunSettings, decode: dict, language: str = LANGUAGE) -> dict:
    """What both arms of a comparison must share: forced language, script target, no
    production script conversion, decoder conditioning, sampling and gating flags, device,
    batching (``batch_size``: faster-whisper's batched pipeline decodes differently, see
    docs/asr.md), audio preparation. Search width (``beam_size``), the model and the compute
    type are what an arm may change. ``decode`` is the engine identity's ``decode`` settings
    (a smoke record: the run's settings over the engine's defaults)."""
    return {
        "language": language,
        "forced_language": True,
        "script_target": settings.script if language == CER_VIEWS_LANGUAGE else None,
        "production_script_conversion": False,
        "temperature": decode.get("temperature"),
        "condition_on_previous_text": decode.get("condition_on_previous_text"),
        "vad_filter": decode.get("vad_filter"),
        "silence_gate": decode.get("silence_gate"),
        "detect_language": decode.get("detect_language"),
        "transcribe_options": decode.get("transcribe_options"),
        "device": decode.get("device"),
        "batch_size": decode.get("batch_size", 1),
        "audio": "16 kHz mono float32 (faster-whisper's PyAV decoder)",
    }


def _utterance(item, transcript, latency: float | None, views: dict, failures: dict, share: bool) -> dict:
    names = list(views)
    entry = {
        "id": item.row.id, "slice": item.row.slice, "speaker": item.row.speaker,
        "audio_sha256": item.audio_sha256, "duration_seconds": transcript.info.duration,
        "latency_seconds": _round(latency), "flags": list(transcript.flags),
        "no_output": not transcript.text.strip(),
        "views": {name: None if views[name] is None else views[name].to_dict(UTTERANCE_FIELDS) for name in names},
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


def _exemplars(utterances: list[dict], share: bool, primary: str) -> dict:
    if not share:
        return {"permitted": False, "items": None,
                "reason": "the corpus sidecar does not set share_transcripts: transcripts are not quoted"}
    def errors(u):
        view = u["views"][primary]
        return 0 if view is None else view["substitutions"] + view["deletions"] + view["insertions"]
    worst = sorted((u for u in utterances if errors(u) or any(c["failed"] for c in u["critical"].values())),
                   key=lambda u: (-errors(u), u["id"]))[:EXEMPLARS]
    return {"permitted": True, "reason": None,
            "items": [{"id": u["id"], "slice": u["slice"], "reference": u["reference"], "hypothesis": u["hypothesis"],
                       "errors": errors(u)} for u in worst]}


def _metrics(manifest: GatedManifest, views_by_id: dict, views: ViewSet, language_from: str) -> dict:
    slices: dict[str, list] = {}
    for item in manifest.included:
        slices.setdefault(item.row.slice, []).append(views_by_id[item.row.id])
    return {"language": views.language, "language_from": language_from, "unit": views.unit,
            "primary_view": views.primary, "views": list(views.names),
            "overall": views_dict(sum_views(views_by_id.values(), views.names)),
            "slices": {name: views_dict(sum_views(items, views.names)) for name, items in sorted(slices.items())}}


def _script_section(script: str, conversions: list[dict], pairs: int, language: str) -> dict:
    if language != CER_VIEWS_LANGUAGE:
        return {"target": None, "reference_script": None, "production_conversion": False, "opencc": None,
                "script_view_pairs": 0, "conversion_ran": False,
                "not_run_reason": f"a {language} run: script targets are zh's"}
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
    revision = record["model"]["revision"]
    if revision["matches_declared"] is False:
        reasons.append(f"the declared model revision {revision['declared']!r} does not match the weights' "
                       f"{revision['resolved']!r}")
    corpus = record["corpus"]
    if corpus.get("audio_sha256_checked") is False:
        reasons.append(f"{len(corpus['missing_audio'])} row(s) had no audio file (--allow-missing) and the files present "
                       "do not have the sidecar's audio_sha256, so the audio was not checked against it")
    if record["smoke"]:
        reasons.append("a smoke record: no model, audio or network was used")
    elif record["corpus"]["split"] == PILOT_SPLIT:
        reasons.append("a pilot split: it finds pipeline issues, it is not evidence for a claim (the protocol)")
    return reasons


def run_bench(settings: RunSettings, *, engine=None, progress=None, executor: Executor | None = None,
              on_missing_audio=None) -> dict:
    """Run the manifest and return the ``asrbench.bench/1`` record (a JSON-able dict).

    Args:
        settings: the run's options.
        engine: an :class:`~pytest_asrbench.asr.engine.SttEngine` to use with the local
            executor (default: built from ``settings`` by
            :func:`~pytest_asrbench.bench.run.executors.build_engine`).
        progress: called with ``(done, total)`` after each row is scored.
        on_missing_audio: with ``settings.allow_missing``, called before any model loads with
            ``{row id: audio path}`` of the rows excluded because their audio file is missing
            (when there are any; the record names them in ``corpus.missing_audio``).
        executor: where clips are decoded (default: ``settings.executor``, see
            :func:`~pytest_asrbench.bench.run.executors.executor_for`).

    Raises:
        BenchFileNotFoundError, ManifestFormatError, ManifestHashError, ManifestGateError,
        PreregistrationError: from the manifest stage, before any model loads (without
            ``settings.allow_missing``, a missing audio file is a ManifestGateError listing
            every one, reason ``audio-missing``).
        AudioError: an included row's audio cannot be decoded (every such file named), before
            any model loads (:func:`~pytest_asrbench.asr.audio.check_audio_files`).
        InputError: an unknown script or executor, executor options that do not fit it, or
            ``--language`` contradicting the sidecar.
        ExecutorError: the ray executor cannot run (not installed, cluster unreachable, a
            worker died past its restart budget), or an executor broke its promise of one
            result per row in manifest order (:func:`in_job_order`).
        AsrError subclasses: the model cannot be found or loaded.
    """
    if settings.script not in SCRIPTS:
        from pytest_asrbench.errors import InputError

        raise InputError(f"--script {settings.script!r}: use one of {', '.join(SCRIPTS)}")
    if executor is None:
        executor = executor_for(settings.executor, workers=settings.workers, address=settings.ray_address)
    prereg = read_preregistration(settings.preregistration) if settings.preregistration else None
    expected = settings.expect_manifest_sha256 or (prereg.manifest_sha256 if prereg else None)
    manifest = open_manifest(settings.manifest, settings.audio_root, expect_sha256=expected,
                             allow_missing=settings.allow_missing)
    if manifest.missing_audio and on_missing_audio is not None:
        on_missing_audio(dict(manifest.missing_audio))
    prereg_section = check_preregistration(prereg, manifest) if prereg else None
    language, language_from = run_language(settings.language, manifest)
    views = view_set(language, settings.script)
    categories = critical.categories_for(language)
    check_audio_files(item.audio_path for item in manifest.included)  # AudioError before any model loads
    started = _dt.datetime.now(_dt.timezone.utc)
    with egress_audit() as sockets:
        return _decode_and_record(settings, engine, executor, manifest, prereg_section, started, sockets, progress,
                                  (language, language_from), views, categories)


def in_job_order(executor: Executor, jobs: list[ClipJob]) -> Iterator[tuple[ClipJob, Decoded]]:
    """Each job with its result, holding ``executor`` to its promise: one result per job, in
    the order of ``jobs``.

    Raises:
        ExecutorError: a result for another job (index or row id), fewer results than jobs
            (a clip lost), or more (a clip returned twice).
    """
    results = iter(executor.transcribe(jobs))
    for job in jobs:
        decoded = next(results, None)
        if decoded is None:
            raise ExecutorError(f"executor {executor.name} returned {job.index} of {len(jobs)} clips; the run is "
                                "incomplete and no record was written")
        if (decoded.index, decoded.id) != (job.index, job.id):
            raise ExecutorError(f"executor {executor.name} returned clip {decoded.index} ({decoded.id!r}) where "
                                f"clip {job.index} ({job.id!r}) was due: results must come in manifest order")
        yield job, decoded
    extra = next(results, None)
    if extra is not None:
        raise ExecutorError(f"executor {executor.name} returned more than the {len(jobs)} clips asked for (clip "
                            f"{extra.index}, {extra.id!r} again): every clip is to be returned once")


@dataclass
class _Scored:
    """What the decode loop gathers for the record, one row at a time (manifest order)."""

    utterances: list[dict] = field(default_factory=list)
    views_by_id: dict = field(default_factory=dict)
    failures: list[dict] = field(default_factory=list)
    longform: list[dict] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    conversions: list[dict] = field(default_factory=list)
    word_problems: dict[str, list[str]] = field(default_factory=dict)
    worker_cpu: float = 0.0

    def add(self, item, decoded: Decoded, views: ViewSet, categories: tuple[str, ...], share: bool) -> None:
        """Score one decoded row with the run's views and critical-token categories."""
        transcript = decoded.transcript
        if decoded.latency_seconds is not None:
            self.latencies.append(decoded.latency_seconds)
        self.worker_cpu += decoded.cpu_seconds
        if transcript.text.strip():
            self.word_problems[item.row.id] = word_timestamp_problems(transcript.segments)
        counts, conversion = views.pair(item.row.reference, transcript.text)
        self.views_by_id[item.row.id] = counts
        if conversion is not None:
            self.conversions.append(conversion)
        found = critical.token_failures(item.row.reference, transcript.text, categories)
        self.failures.append(found)
        self.utterances.append(_utterance(item, transcript, decoded.latency_seconds, counts, found, share))
        if item.row.intervals:
            self.longform.append(longform_entry(item.row.id, item.row.intervals, transcript.segments, views, share))


def _decode_and_record(settings: RunSettings, engine, executor: Executor, manifest: GatedManifest, prereg_section,
                       started, sockets: list[str], progress, language_and_source: tuple[str, str], views: ViewSet,
                       categories: tuple[str, ...]) -> dict:
    """The model loads, the decode loop and the record of :func:`run_bench` (under its egress audit)."""
    language, language_from = language_and_source
    cache = HypothesisCache(settings.cache_dir, enabled=settings.hypothesis_cache)
    jobs = [ClipJob(index, item.row.id, item.audio_path, language) for index, item in enumerate(manifest.included)]
    share = manifest.sidecar.share_transcripts
    scored = _Scored()
    try:
        executor.start(settings, engine, cache)
        with Stopwatch() as decode:
            for done, (job, decoded) in enumerate(in_job_order(executor, jobs), start=1):
                scored.add(manifest.included[job.index], decoded, views, categories, share)
                if progress is not None:
                    progress(done, len(jobs))
        workers = executor.workers()
        model_files = executor.model_files
        executor_section = executor.section()
    finally:
        executor.close()
    utterances, views_by_id = scored.utterances, scored.views_by_id
    latencies, word_problems = scored.latencies, scored.word_problems
    engine = executor.engine
    identity = engine.identity()  # resolves the model files (without loading the model)
    loads = [w.load_seconds for w in workers if w.load_seconds is not None]
    remote = executor.name != "local"
    rss = [w.peak_rss_bytes for w in workers if w.peak_rss_bytes is not None] + [peak_rss_bytes() or 0]
    audio_seconds = sum(u["duration_seconds"] for u in utterances)
    decoded_seconds = sum(u["duration_seconds"] for u in utterances if u["latency_seconds"] is not None)
    script_pairs = sum(1 for v in views_by_id.values() if v.get("cer_script_normalized") is not None)
    licence = provenance.licence_section(settings.model_license, settings.license_source,
                                         getattr(engine, "pinned", None))
    record = {
        "schema": SCHEMA,
        "created": started.isoformat(timespec="seconds"),
        "smoke": False,
        "command": settings.argv,
        "tool": {"name": "pytest-asrbench", "version": _tool_version(), "git": provenance.git_section(Path(__file__).parent)},
        "seed": settings.seed,
        "corpus": provenance.corpus_section(manifest, prereg_section),
        "model": provenance.model_section(engine, settings.model, settings.model_revision, licence, model_files),
        "engine": {"name": engine.name, "identity": identity},
        "decode_policy": decode_policy(settings, identity["decode"], language),
        "runtime": provenance.runtime_section(),
        "host": provenance.host_section(settings.threads, settings.compute_type, identity.get("kernels")),
        "script": _script_section(settings.script, scored.conversions, script_pairs, language),
        "metrics": _metrics(manifest, views_by_id, views, language_from),
        "critical_tokens": critical.sum_failures(scored.failures, categories),
        "exemplars": _exemplars(utterances, share, views.primary),
        "performance": {
            "cold_load_seconds": max(loads) if loads else None,
            "latency_p50_seconds": _round(percentile(latencies, 50)),
            "latency_p95_seconds": _round(percentile(latencies, 95)),
            "real_time_factor": _round(real_time_factor(latencies, decoded_seconds)),
            "audio_seconds": round(audio_seconds, 3),
            "decode_wall_seconds": round(decode.wall, 4),
            "cpu_core_seconds": round(decode.cpu + scored.worker_cpu if remote else decode.cpu, 4),
            "load_cpu_core_seconds": round(sum(w.load_cpu_seconds for w in workers), 4),
            "peak_rss_bytes": max(rss) or None,
            "driver_peak_rss_bytes": peak_rss_bytes(),
            "utterances": len(utterances),
            "cached_utterances": sum(1 for u in utterances if u["latency_seconds"] is None),
        },
        "safety": _safety(utterances, settings.silence_slice),
        "long_form": scored.longform,
        "utterances": utterances,
        "unmeasured": dict(UNMEASURED),
        "executor": executor_section,
    }
    record["slice_statistics"] = slice_statistics(utterances, views.primary, settings.seed)
    egress = egress_section(list(sockets))
    if remote:
        egress["method"] += ("; with the ray executor this process's own traffic to its actors is counted and the "
                             "workers are not audited: audit offline loading with a local run")
    record["surface"] = {"egress": egress, "runtime_closure": runtime_closure(),
                         "word_timestamps": word_timestamps_section(settings.word_timestamps, word_problems,
                                                                    len(word_problems))}
    if settings.word_timestamps:
        record["unmeasured"]["timestamps_word_alignment"] = (
            "word times are checked present and in order (surface.word_timestamps); their alignment to the "
            "reference's words is not evaluated")
    reasons = validity(record)
    record["valid_for_claim"] = not reasons
    record["validity_reasons"] = reasons
    return record


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _tool_version() -> str:
    from pytest_asrbench import __version__

    return __version__
