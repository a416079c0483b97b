"""What ``asrbench bench run`` was asked for: the settings every executor builds its engines from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class RunSettings:
    """What ``asrbench bench run`` was asked for (the CLI's options). ``cache_dir`` is the
    hypothesis cache folder used with ``hypothesis_cache`` (default: the user cache's,
    ``$ASRBENCH_CACHE_DIR/hypotheses``)."""

    manifest: Path
    audio_root: Path
    model: str = "embedded"
    script: str = "simplified"
    model_license: str | None = None
    license_source: str | None = None
    model_revision: str | None = None
    threads: int = 4
    seed: int = 0
    beam_size: int = 5
    compute_type: str = "int8"
    batch_size: int = 1
    device: str = "cpu"
    engine: str = "faster-whisper"
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
