"""The manifest's sidecar, ``<manifest stem>.meta.json``: where the corpus comes from and
under which terms it may be used.

Fields (all required unless marked):

- ``corpus``, ``source`` (a URL or a description), ``revision`` (the immutable corpus
  revision), ``split`` (``test`` ...): strings;
- ``licence``: the corpus licence (an SPDX id such as ``CC0-1.0`` or the licence's name);
- ``consent``: the consent basis of the speakers (``"synthetic speech, no speaker"``,
  ``"written consent, form v2"`` ...), or ``"per-row"``: every row then carries its own;
- ``selection``: ``{"rule": str, "seed": int or null}``: how the rows were chosen;
- ``audio_sha256``: the digest of the audio set (:func:`audio_set_digest`): checked on every run;
- ``language`` (optional): the language tag of the references and of the forced decode
  (``en``, ``es``, ``zh`` ...; a shipped config); without it the corpus is Mandarin (``zh``),
  as the Mandarin pilot's sidecar, which predates the field, and the run record says so;
- ``share_transcripts`` (optional, default false): whether references and hypotheses may be
  quoted in a record's error exemplars (the original requirements: publishing aggregate scores does not
  authorize publishing transcripts).

A value of ``""``, ``"none"`` or ``"unknown"`` (any case) for ``licence`` or ``consent`` is no
provenance (:func:`provided`); so is ``"withdrawn"`` for consent.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.jsonl import RepeatedKeyError, loads_unique
from pytest_asrbench.bench.errors import ManifestFormatError

STRING_FIELDS = ("corpus", "source", "revision", "split", "licence", "consent", "audio_sha256")
KNOWN_FIELDS = (*STRING_FIELDS, "selection", "share_transcripts", "notes", "language")
#: The consent value that moves consent onto each row.
PER_ROW = "per-row"
#: Values that state no provenance (compared case-insensitively, after stripping).
NO_PROVENANCE = frozenset({"", "none", "unknown", "n/a"})
NO_CONSENT = NO_PROVENANCE | {"withdrawn", "revoked"}
_HEX64 = re.compile(r"[0-9a-f]{64}")


def sidecar_path(manifest: Path) -> Path:
    """``m.jsonl`` -> ``m.meta.json`` (beside it)."""
    manifest = Path(manifest)
    return manifest.with_name(f"{manifest.stem}.meta.json")


def provided(value: object, *, consent: bool = False) -> bool:
    """Whether ``value`` states licence (or, with ``consent``, consent) provenance."""
    if not isinstance(value, str):
        return False
    return value.strip().lower() not in (NO_CONSENT if consent else NO_PROVENANCE)


@dataclass(frozen=True)
class Sidecar:
    """A parsed sidecar; ``raw`` is the whole object as read (recorded in the run record)."""

    path: Path
    sha256: str
    corpus: str
    source: str
    revision: str
    split: str
    licence: str
    consent: str
    selection_rule: str
    selection_seed: int | None
    audio_sha256: str
    share_transcripts: bool
    raw: dict
    language: str | None = None

    @property
    def consent_per_row(self) -> bool:
        return self.consent.strip().lower() == PER_ROW


def read_sidecar(path: Path) -> Sidecar:
    """Read and check a sidecar (not the gate: a missing licence is the gate's to refuse).

    Raises:
        ManifestFormatError: the file is not a JSON object, has an unknown field, a field of
            the wrong type, or an ``audio_sha256`` that is not 64 lower-case hex digits.
        FileNotFoundError: never; a missing sidecar is checked by the gate (reason code).
    """
    path = Path(path)
    data = path.read_bytes()
    try:
        value = loads_unique(data.decode("utf-8"))
    except RepeatedKeyError as exc:
        raise ManifestFormatError(f"{path}: the key {exc.key!r} appears twice; keep one") from None
    except ValueError as exc:
        raise ManifestFormatError(f"{path}: not a JSON object ({exc})") from None
    if not isinstance(value, dict):
        raise ManifestFormatError(f"{path}: the sidecar must be a JSON object with {', '.join(KNOWN_FIELDS[:8])}")
    unknown = sorted(set(value) - set(KNOWN_FIELDS))
    if unknown:
        raise ManifestFormatError(f"{path}: unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(KNOWN_FIELDS)}")
    for key in STRING_FIELDS:
        if key in value and value[key] is not None and not isinstance(value[key], str):
            raise ManifestFormatError(f"{path}: {key} must be a string, got {value[key]!r}")
    for key in ("corpus", "source", "revision", "split", "audio_sha256"):
        if not isinstance(value.get(key), str) or not value[key].strip():
            raise ManifestFormatError(f"{path}: {key} is required (a non-empty string)")
    if not _HEX64.fullmatch(value["audio_sha256"]):
        raise ManifestFormatError(f"{path}: audio_sha256 must be 64 lower-case hex digits (the digest "
                                  f"`asrbench bench run` prints for the audio set), got {value['audio_sha256']!r}")
    selection = value.get("selection")
    if not isinstance(selection, dict) or set(selection) != {"rule", "seed"} \
            or not isinstance(selection["rule"], str) or not selection["rule"].strip() \
            or not (selection["seed"] is None or (isinstance(selection["seed"], int) and not isinstance(selection["seed"], bool))):
        raise ManifestFormatError(f"{path}: selection must be {{\"rule\": \"how rows were chosen\", \"seed\": "
                                  "an integer or null}}")
    language = value.get("language")
    if language is not None and (not isinstance(language, str) or not language.strip()):
        raise ManifestFormatError(f"{path}: language must be a language tag such as \"en\", got {language!r}")
    share = value.get("share_transcripts", False)
    if not isinstance(share, bool):
        raise ManifestFormatError(f"{path}: share_transcripts must be true or false, got {share!r}")
    return Sidecar(path, hashlib.sha256(data).hexdigest(), value["corpus"], value["source"], value["revision"],
                   value["split"], value.get("licence") or "", value.get("consent") or "", selection["rule"],
                   selection["seed"], value["audio_sha256"], share, value, language)


def audio_set_digest(entries: Iterable[tuple[str, str]]) -> str:
    """The digest of an audio set: SHA-256 of the sorted ``"<audio path>\\t<file SHA-256>\\n"``
    lines (UTF-8) of every row's audio, each path as the manifest writes it. It names the
    audio as unpacked, so a run can check it without the archive it came in."""
    lines = sorted({f"{audio}\t{digest}\n" for audio, digest in entries})
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()
