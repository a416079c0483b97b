"""The headline figures of a case that scores (``score`` and ``asr`` kinds), as plain data for
the run summary, the reports and the JUnit properties.

A figures dict is ``{"unit": "word" | "char", "rate": float | None, "errors": int,
"reference_length": int, "pairs": [[normalized reference, normalized hypothesis], ...],
"written": [[reference, hypothesis], ...]}``: what a corpus (micro-averaged) rate over many
cases needs (errors and reference length are summed, never rates averaged), the normalized
forms from which the aligned view is rebuilt (``scoring.alignment.align``), since snapshots
keep only the error spans, and each pair's texts as written (an ``asr`` case's reference and
transcript), which the reports show above the aligned view.
"""

from __future__ import annotations

from typing import Any

#: The figures' keys, in order.
FIGURE_KEYS = ("unit", "rate", "errors", "reference_length", "pairs", "written")


def score_figures(data: Any) -> dict[str, Any] | None:
    """The figures of a score dict (``scoring.serialize.score_to_dict``'s shape, or a recorded
    snapshot of one, which lacks only the versions); ``None`` when ``data`` is not one (a
    snapshot of another shape, an error record), so an old or foreign recording is simply
    not compared."""
    if not isinstance(data, dict) or any(key not in data for key in ("unit", "rate", "reference_length")):
        return None
    counts = [data.get(key) for key in ("substitutions", "deletions", "insertions")]
    errors = data.get("errors", sum(counts) if all(isinstance(c, int) for c in counts) else None)
    if not isinstance(errors, int) or not isinstance(data["reference_length"], int):
        return None
    found = [pair for pair in data.get("pairs", []) if isinstance(pair, dict)]
    pairs = [[pair.get("normalized_reference", ""), pair.get("normalized_hypothesis", "")] for pair in found]
    written = [[pair.get("reference", ""), pair.get("hypothesis", "")] for pair in found]
    return {"unit": data["unit"], "rate": data["rate"], "errors": errors,
            "reference_length": data["reference_length"], "pairs": pairs, "written": written}
