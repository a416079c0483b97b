"""The pre-registration: counts per slice and the minimum number of speakers, fixed before
the final run (the original requirements: "pre-register counts per slice and the minimum speaker count").

A JSON file::

    {"manifest_sha256": "<hex, optional>", "slices": {"mainland_short": 3, "silence": 1},
     "min_speakers": 1}

It is checked after the gate and before any decoding: a slice with fewer included rows than
registered, fewer distinct speakers than ``min_speakers``, or a registered slice missing from
the manifest is a shortfall; the run still happens, but its record lists the shortfalls and
says it is not valid for a claim. A manifest slice that was not registered is listed too
(its figures are exploratory) without invalidating the run.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.bench.errors import BenchFileNotFoundError, PreregistrationError
from pytest_asrbench.bench.manifest.gate import GatedManifest


@dataclass(frozen=True)
class Preregistration:
    path: Path
    sha256: str
    slices: dict[str, int]
    min_speakers: int
    manifest_sha256: str | None


def read_preregistration(path: Path) -> Preregistration:
    """Read a pre-registration file.

    Raises:
        BenchFileNotFoundError: no such file.
        PreregistrationError: not an object of ``slices`` (name -> integer >= 1),
            ``min_speakers`` (integer >= 1) and optional ``manifest_sha256`` (64 hex digits).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BenchFileNotFoundError(f"--preregistration {path}: no such file") from None
    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise PreregistrationError(f"{path}: not JSON ({exc})") from None
    if not isinstance(value, dict) or not set(value) <= {"slices", "min_speakers", "manifest_sha256"} \
            or "slices" not in value or "min_speakers" not in value:
        raise PreregistrationError(f"{path}: must be an object with slices, min_speakers and optional manifest_sha256")
    slices = value["slices"]
    if not isinstance(slices, dict) or not slices or not all(
            isinstance(count, int) and not isinstance(count, bool) and count >= 1 for count in slices.values()):
        raise PreregistrationError(f"{path}: slices must map each slice name to a count (an integer >= 1)")
    minimum = value["min_speakers"]
    if isinstance(minimum, bool) or not isinstance(minimum, int) or minimum < 1:
        raise PreregistrationError(f"{path}: min_speakers must be an integer >= 1, got {minimum!r}")
    expected = value.get("manifest_sha256")
    if expected is not None and not (isinstance(expected, str) and len(expected) == 64
                                     and all(c in "0123456789abcdef" for c in expected)):
        raise PreregistrationError(f"{path}: manifest_sha256 must be 64 lower-case hex digits")
    return Preregistration(path, hashlib.sha256(data).hexdigest(), dict(slices), minimum, expected)


def check_preregistration(prereg: Preregistration, manifest: GatedManifest) -> dict:
    """The record's ``preregistration`` section: the registered and included counts, the
    shortfalls (each a sentence), unregistered slices, and ``valid_for_claim``."""
    counts = Counter(item.row.slice for item in manifest.included)
    speakers = len({item.row.speaker for item in manifest.included})
    shortfalls = []
    for name, wanted in sorted(prereg.slices.items()):
        if counts.get(name, 0) < wanted:
            shortfalls.append(f"slice {name}: {counts.get(name, 0)} rows included, {wanted} pre-registered")
    if speakers < prereg.min_speakers:
        shortfalls.append(f"speakers: {speakers} included, at least {prereg.min_speakers} pre-registered")
    return {
        "file": str(prereg.path),
        "sha256": prereg.sha256,
        "slices": dict(sorted(prereg.slices.items())),
        "min_speakers": prereg.min_speakers,
        "included": {"slices": dict(sorted(counts.items())), "speakers": speakers},
        "shortfalls": shortfalls,
        "unregistered_slices": sorted(set(counts) - set(prereg.slices)),
        "valid_for_claim": not shortfalls,
    }
