"""The pre-registered usability threshold file of ``bench compare --thresholds``: the P1 rule
and the added-capability route.

A JSON object, written before the runs it judges and naming their manifest:

```json
{"schema": "asrbench.thresholds/1", "registered": "2026-12-01", "manifest_sha256": "<64 hex>",
 "view": "stt_wer",
 "overall": {"max_rate": 0.2, "max_latency_p95_seconds": 4.0, "max_real_time_factor": 1.0,
             "max_peak_rss_bytes": 1000000000},
 "slices": {"short": {"max_rate": 0.1}},
 "capabilities": {"numbers": {"max_rate": 0.3}}}
```

- ``overall`` and ``slices``: the minimum usability threshold (P1): a record meets it when
  every bound holds (``max_rate`` on the view, ``view`` defaulting to the record's primary
  view; the cost bounds on the record's performance section);
- ``capabilities`` (optional): slices whose threshold a candidate may meet where the baseline
  does not (the "validated added capability" route; validated by the slice's paired interval).

The file's SHA-256 is recorded in the decision.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench.bench.errors import ComparisonError

SCHEMA = "asrbench.thresholds/1"
#: Bound name -> (record section, field) it limits; ``max_rate`` reads the view.
BOUNDS = {
    "max_rate": None,
    "max_latency_p50_seconds": "latency_p50_seconds",
    "max_latency_p95_seconds": "latency_p95_seconds",
    "max_real_time_factor": "real_time_factor",
    "max_peak_rss_bytes": "peak_rss_bytes",
}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Thresholds:
    path: str
    sha256: str
    registered: str
    manifest_sha256: str
    view: str | None
    overall: dict[str, float]
    slices: dict[str, dict[str, float]]
    capabilities: dict[str, dict[str, float]]


def _bounds(value, where: str, *, rate_only: bool = False) -> dict[str, float]:
    if not isinstance(value, dict) or not value:
        raise ComparisonError(f"{where}: expected an object of bounds ({', '.join(BOUNDS)})")
    allowed = ("max_rate",) if rate_only else tuple(BOUNDS)
    out = {}
    for name, bound in value.items():
        if name not in allowed:
            raise ComparisonError(f"{where}: unknown bound {name!r}; use {', '.join(allowed)}")
        if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not math.isfinite(bound) or bound < 0:
            raise ComparisonError(f"{where}.{name}: expected a finite number >= 0, got {bound!r}")
        out[name] = float(bound)
    return out


def read_thresholds(path: Path) -> Thresholds:
    """Read and check a threshold file.

    Raises:
        ComparisonError: missing file, not JSON, unknown key, wrong schema, a bound that is not
            a number >= 0, no ``registered`` date or ``manifest_sha256``.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ComparisonError(f"--thresholds {path}: cannot read it ({exc.strerror or exc})") from None
    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise ComparisonError(f"--thresholds {path}: not JSON ({exc})") from None
    known = {"schema", "registered", "manifest_sha256", "view", "overall", "slices", "capabilities", "notes"}
    if not isinstance(value, dict) or set(value) - known:
        extra = sorted(set(value) - known) if isinstance(value, dict) else []
        raise ComparisonError(f"--thresholds {path}: expected an object with {', '.join(sorted(known))}"
                              + (f"; unknown: {', '.join(extra)}" if extra else ""))
    if value.get("schema") != SCHEMA:
        raise ComparisonError(f"--thresholds {path}: schema must be {SCHEMA!r}, got {value.get('schema')!r}")
    if not isinstance(value.get("registered"), str) or not _DATE.fullmatch(value["registered"]):
        raise ComparisonError(f"--thresholds {path}: registered must be the date it was registered (YYYY-MM-DD)")
    if not isinstance(value.get("manifest_sha256"), str) or not _HEX64.fullmatch(value["manifest_sha256"]):
        raise ComparisonError(f"--thresholds {path}: manifest_sha256 must be the 64-hex SHA-256 of the manifest "
                              "it was registered for")
    view = value.get("view")
    if view is not None and (not isinstance(view, str) or not view):
        raise ComparisonError(f"--thresholds {path}: view must be a view name such as \"cer_normalized\"")
    if "overall" not in value and "slices" not in value:
        raise ComparisonError(f"--thresholds {path}: give the minimum usability threshold in overall and/or slices")
    overall = _bounds(value["overall"], f"{path}: overall") if "overall" in value else {}
    slices = {name: _bounds(b, f"{path}: slices.{name}", rate_only=True) for name, b in value.get("slices", {}).items()}
    capabilities = {name: _bounds(b, f"{path}: capabilities.{name}", rate_only=True)
                    for name, b in value.get("capabilities", {}).items()}
    return Thresholds(str(path), hashlib.sha256(data).hexdigest(), value["registered"], value["manifest_sha256"],
                      view, overall, slices, capabilities)


def _rate(views: dict | None, view: str) -> float | None:
    entry = (views or {}).get(view)
    return None if entry is None else entry["rate"]


def usability_failures(record: dict, thresholds: Thresholds) -> list[str]:
    """Every bound of the P1 threshold ``record`` misses, as ``what value > bound`` (empty: it
    meets it). A figure the record lacks (``null``) misses its bound.

    Raises:
        ComparisonError: the file was registered for another manifest, or names a view or a
            slice the record does not have.
    """
    if record["corpus"]["manifest_sha256"] != thresholds.manifest_sha256:
        raise ComparisonError(f"--thresholds {thresholds.path} was registered for manifest "
                              f"{thresholds.manifest_sha256}, the records ran {record['corpus']['manifest_sha256']}")
    view = thresholds.view or record["metrics"]["primary_view"]
    if view not in record["metrics"]["views"]:
        raise ComparisonError(f"--thresholds {thresholds.path}: view {view!r} is not one of the record's "
                              f"({', '.join(record['metrics']['views'])})")
    failures = []
    for name, bound in thresholds.overall.items():
        figure = _rate(record["metrics"]["overall"], view) if name == "max_rate" else record["performance"][BOUNDS[name]]
        label = f"{view} overall" if name == "max_rate" else BOUNDS[name]
        if figure is None or figure > bound:
            failures.append(f"{label} {figure} > {bound}")
    for slice_name, bounds in thresholds.slices.items():
        if slice_name not in record["metrics"]["slices"]:
            raise ComparisonError(f"--thresholds {thresholds.path}: slice {slice_name!r} is not in the record "
                                  f"({', '.join(record['metrics']['slices'])})")
        figure = _rate(record["metrics"]["slices"][slice_name], view)
        if figure is None or figure > bounds["max_rate"]:
            failures.append(f"{view} on slice {slice_name} {figure} > {bounds['max_rate']}")
    return failures


def slice_rate(record: dict, thresholds: Thresholds, slice_name: str) -> float | None:
    """The threshold view's rate of ``slice_name`` in ``record`` (``None`` when absent)."""
    view = thresholds.view or record["metrics"]["primary_view"]
    return _rate(record["metrics"]["slices"].get(slice_name), view)
