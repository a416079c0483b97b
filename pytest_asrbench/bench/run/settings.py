"""What ``asrbench bench run`` was asked for: the settings every executor builds its engines from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench._shared.cpus import default_threads
from pytest_asrbench.asr.engine import DEFAULT_ENGINE
from pytest_asrbench.asr.decode_settings import DecodeSettings


@dataclass
class RunSettings:
    """What ``asrbench bench run`` was asked for (the CLI's options). ``cache_dir`` is the
    hypothesis cache folder used with ``hypothesis_cache`` (default: the user cache's,
    ``$ASRBENCH_CACHE_DIR/hypotheses``). The engine settings default to the engine's own
    (:class:`~pytest_asrbench.asr.decode_settings.DecodeSettings`, as the CLI's options
    do): ``threads`` to the usable CPUs, capped (:func:`~pytest_asrbench._shared.cpus.default_threads`).
    ``allow_missing`` excludes rows whose audio file is missing instead of refusing the run
    (:func:`~pytest_asrbench.bench.manifest.gate.open_manifest`)."""

    manifest: Path
    audio_root: Path
    model: str = DecodeSettings.model
    script: str = "simplified"
    model_license: str | None = None
    license_source: str | None = None
    model_revision: str | None = None
    threads: int = field(default_factory=default_threads)
    seed: int = 0
    beam_size: int = DecodeSettings.beam_size
    compute_type: str = DecodeSettings.compute_type
    batch_size: int = DecodeSettings.batch_size
    device: str = DecodeSettings.device
    engine: str = DEFAULT_ENGINE
    preregistration: Path | None = None
    expect_manifest_sha256: str | None = None
    silence_slice: str = "silence"
    executor: str = "local"
    workers: int | None = None
    ray_address: str | None = None
    hypothesis_cache: bool = False
    cache_dir: Path | None = None
    argv: list[str] = field(default_factory=list)
    language: str | None = None
    word_timestamps: bool = False
    allow_missing: bool = False
