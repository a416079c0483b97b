"""The licence/consent gate: what of a manifest may be scored.

The corpus is refused (:class:`ManifestGateError`, with its reason code) when:

- ``corpus-no-sidecar``: the manifest has no ``.meta.json`` sidecar;
- ``corpus-no-licence`` / ``corpus-no-consent``: the sidecar states no licence or consent
  (:func:`~.meta.provided`);
- ``audio-digest-mismatch``: the measured digest of the audio set is not the sidecar's
  ``audio_sha256`` (other audio than the one the sidecar describes);
- ``no-rows-left``: every row was excluded.

A row is excluded, and counted under its reason code, when its own ``licence`` is ``null``
or states none (``row-no-licence``), when it has no consent (``row-no-consent``: its own
``consent`` is ``null`` or states none, or the sidecar's consent is ``per-row`` and the row
sets none), or when its audio path is refused (:mod:`.audio_paths`). The original requirements' rule: results
on data with missing licence or consent are excluded, not labelled public.

A row whose audio file is missing (``audio-missing``) refuses the corpus unless the caller
allows it (``allow_missing``, the ``--allow-missing`` of ``bench run`` and ``asr parity``):
nothing is lost and nothing is silently skipped, so one error lists every missing file
before anything is decoded; allowed, the rows are excluded and named in
:attr:`GatedManifest.missing_audio`. The sidecar's ``audio_sha256`` then usually covers files
that are not there, so a digest of the files present that differs from it is not refused as
``audio-digest-mismatch`` (missing files and other audio cannot be told apart by one set
digest): :attr:`GatedManifest.audio_digest_checked` is ``False``, and a ``bench run`` record
says the audio was not checked (it is not valid for a claim).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pytest_asrbench._shared.hashing import file_sha256
from pytest_asrbench._shared.input_paths import check_input_paths
from pytest_asrbench.bench.errors import BenchFileNotFoundError, ManifestGateError, ManifestHashError
from pytest_asrbench.bench.manifest.audio_paths import MISSING, resolve_audio
from pytest_asrbench.bench.manifest.meta import Sidecar, audio_set_digest, provided, read_sidecar, sidecar_path
from pytest_asrbench.bench.manifest.rows import ABSENT, ManifestRow, read_rows

ROW_NO_LICENCE = "row-no-licence"
ROW_NO_CONSENT = "row-no-consent"


@dataclass(frozen=True)
class IncludedRow:
    """A row that passed the gate: its resolved audio file and SHA-256, and the licence and
    consent that apply to it."""

    row: ManifestRow
    audio_path: Path
    audio_sha256: str
    licence: str
    consent: str


@dataclass(frozen=True)
class GatedManifest:
    """A manifest after the gate. ``excluded`` maps a row id to its reason code;
    ``missing_audio`` maps the id of each row excluded as ``audio-missing`` to its ``audio``
    path as the manifest writes it; ``audio_digest_checked`` is ``False`` when rows were missing
    and the files present do not have the sidecar's ``audio_sha256`` (see the module docstring)."""

    path: Path
    sha256: str
    sidecar: Sidecar
    rows_total: int
    included: tuple[IncludedRow, ...]
    excluded: dict[str, str] = field(default_factory=dict)
    audio_digest: str = ""
    missing_audio: dict[str, str] = field(default_factory=dict)
    audio_digest_checked: bool = True

    def exclusion_counts(self) -> dict[str, int]:
        """``{reason code: rows}``, sorted by code."""
        return dict(sorted(Counter(self.excluded.values()).items()))


def manifest_sha256(path: Path) -> str:
    """SHA-256 (hex) of the manifest file's bytes: the corpus hash a comparison checks."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _row_reason(row: ManifestRow, sidecar: Sidecar) -> tuple[str | None, str, str]:
    licence = sidecar.licence if row.licence is ABSENT else row.licence
    if not provided(licence):
        return ROW_NO_LICENCE, "", ""
    if row.consent is ABSENT:
        consent = None if sidecar.consent_per_row else sidecar.consent
    else:
        consent = row.consent
    if not provided(consent, consent=True) or (isinstance(consent, str) and consent.strip().lower() == "per-row"):
        return ROW_NO_CONSENT, "", ""
    return None, licence, consent


def open_manifest(manifest: Path, audio_root: Path, *, expect_sha256: str | None = None,
                  allow_missing: bool = True) -> GatedManifest:
    """Read ``manifest`` and its sidecar and apply the gate.

    Args:
        manifest: the JSONL file.
        audio_root: the folder every row's ``audio`` is relative to.
        expect_sha256: the manifest hash a comparison or pre-registration expects (``None``:
            not checked).
        allow_missing: exclude a row whose audio file is missing (``audio-missing``, named in
            :attr:`GatedManifest.missing_audio`); ``False`` refuses the corpus instead.

    Raises:
        BenchFileNotFoundError: the manifest is not a file or the audio root not a folder
            (missing, or of the other kind; :mod:`pytest_asrbench._shared.input_paths`).
        ManifestFormatError: a bad row or sidecar (``file:line`` or the field).
        ManifestHashError: the manifest's SHA-256 is not ``expect_sha256``.
        ManifestGateError: the corpus is refused (the module docstring lists the reason codes);
            without ``allow_missing``, a missing audio file (``audio-missing``: every one listed,
            before the audio digest is compared); with it, a digest that differs is not refused
            when rows were missing (``audio_digest_checked`` is ``False``).
    """
    manifest, audio_root = Path(manifest), Path(audio_root)
    check_input_paths([("--manifest", manifest, "file", "manifest (JSONL)", None)], BenchFileNotFoundError)
    digest = manifest_sha256(manifest)
    if expect_sha256 is not None and digest != expect_sha256.lower():
        raise ManifestHashError(f"{manifest}: SHA-256 {digest} is not the expected {expect_sha256}; this is "
                                "another manifest than the one registered or compared against: use that one")
    check_input_paths([("--audio-root", audio_root, "folder", "audio folder", None)], BenchFileNotFoundError)
    rows = read_rows(manifest)
    meta = sidecar_path(manifest)
    if not meta.is_file():
        raise ManifestGateError(f"{manifest}: no sidecar {meta.name} beside it (corpus-no-sidecar); write one with "
                                "corpus, source, revision, split, licence, consent, selection and audio_sha256",
                                "corpus-no-sidecar")
    sidecar = read_sidecar(meta)
    if not provided(sidecar.licence):
        raise ManifestGateError(f"{meta}: the corpus states no licence (corpus-no-licence); results on data without "
                                "a licence are not scored: add the licence and where it is stated", "corpus-no-licence")
    if not provided(sidecar.consent, consent=True):
        raise ManifestGateError(f"{meta}: the corpus states no consent basis (corpus-no-consent); add it, or "
                                "\"per-row\" with a consent on every row", "corpus-no-consent")
    included, excluded, audio = [], {}, []
    for row in rows:
        path, reason = resolve_audio(audio_root, row.audio)
        if path is not None:
            audio.append((row.audio, file_sha256(path)))
        if reason is None:
            reason, licence, consent = _row_reason(row, sidecar)
        if reason is not None:
            excluded[row.id] = reason
            continue
        included.append(IncludedRow(row, path, audio[-1][1], licence, consent))
    missing = {row.id: row.audio for row in rows if excluded.get(row.id) == MISSING}
    if missing and not allow_missing:
        raise ManifestGateError(_missing_message(manifest, audio_root, missing), MISSING)
    measured = audio_set_digest(audio)
    checked = measured == sidecar.audio_sha256
    if not checked and not missing:
        raise ManifestGateError(f"{meta}: the audio under {audio_root} has digest {measured}, not the sidecar's "
                                f"audio_sha256 {sidecar.audio_sha256} (audio-digest-mismatch); this is other audio "
                                "than the sidecar describes: use the described audio, or review it and update the "
                                "sidecar", "audio-digest-mismatch")
    if not included:
        raise ManifestGateError(f"{manifest}: every row was excluded ({_counts(excluded)}) (no-rows-left)", "no-rows-left")
    return GatedManifest(manifest, digest, sidecar, len(rows), tuple(included), excluded, measured, missing, checked)


def _missing_message(manifest: Path, audio_root: Path, missing: dict[str, str]) -> str:
    listed = "\n".join(f"  {ident}: {audio}" for ident, audio in missing.items())
    return (f"{manifest}: {len(missing)} row(s) name an audio file that is not under --audio-root {audio_root} "
            f"(audio-missing):\n{listed}\nput the files there (or give the right --audio-root), or pass "
            "--allow-missing to run without these rows (they are listed on stderr and recorded as excluded)")


def _counts(excluded: dict[str, str]) -> str:
    return ", ".join(f"{reason}: {count}" for reason, count in sorted(Counter(excluded.values()).items()))
