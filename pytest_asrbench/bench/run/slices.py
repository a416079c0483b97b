"""Per-slice statistics of a bench run: what the protocol's slice table asks each slice to report.

For every slice of the manifest, from the record's utterances (the primary view's counts):

- ``rate`` (corpus, micro-averaged: (S + D + I) / reference length) with its cluster bootstrap
  interval over speakers, ``median_rate`` (the median of the utterances' own rates, those with
  a non-empty reference), ``substitutions``, ``deletions``, ``insertions``;
- ``latency_p50_seconds``, ``latency_p95_seconds`` (linear interpolation, as the run's) and
  ``real_time_factor`` (summed latency / summed audio duration), over the decoded utterances (one
  from the hypothesis cache has no latency);
- rates of counted events, each ``{"count", "total", "rate", "interval"}`` with a cluster
  (speaker) bootstrap interval: ``not_exact`` (utterances whose primary view has any error:
  the exact-match failure rate the numbers/dates/IDs slice asks for), ``critical_failed``
  (failed critical tokens over critical tokens), ``no_output`` (utterances with no text),
  and ``text_output`` (utterances with any text: on the silence slice, the hallucination rate).

Intervals come from :func:`pytest_asrbench.stats.bootstrap.cluster_interval` (95%, percentile,
seeded by the run's seed, stream ``"slices"``); a rate with nothing to count (total 0) is
``None`` with a ``None`` interval.
"""

from __future__ import annotations

from statistics import median

from pytest_asrbench.asr.run_record import percentile

#: Resamples of each slice interval.
SLICE_RESAMPLES = 1000


def _interval(rows: list[tuple[str, int, int]], seed: int) -> list[float | None]:
    """The 95% cluster bootstrap interval of sum(count) / sum(total) over speaker clusters."""
    from pytest_asrbench.stats.bootstrap import cluster_interval, generator

    clusters: dict[str, list[int]] = {}
    for speaker, count, total in rows:
        entry = clusters.setdefault(speaker, [0, 0])
        entry[0] += count
        entry[1] += total
    if not clusters or sum(total for _, total in clusters.values()) == 0:
        return [None, None]
    errors = [entry[0] for entry in clusters.values()]
    lengths = [entry[1] for entry in clusters.values()]
    interval = cluster_interval(errors, lengths, generator(seed, "slices"), SLICE_RESAMPLES)
    return [None if v is None else round(v, 6) for v in interval.as_list()]


def _event(rows: list[tuple[str, int, int]], seed: int) -> dict:
    count = sum(c for _, c, _ in rows)
    total = sum(t for _, _, t in rows)
    return {"count": count, "total": total, "rate": None if total == 0 else round(count / total, 6),
            "interval": _interval(rows, seed)}


def _errors(view: dict | None) -> int:
    return 0 if view is None else view["substitutions"] + view["deletions"] + view["insertions"]


def slice_statistics(utterances: list[dict], primary: str, seed: int) -> dict[str, dict]:
    """``{slice: statistics}`` (module docstring) of the record's ``utterances``, slices sorted.

    Args:
        utterances: the record's utterance entries (``slice``, ``speaker``, ``views``,
            ``latency_seconds``, ``duration_seconds``, ``no_output``, ``critical``).
        primary: the view whose counts are used.
        seed: the bootstrap seed (the run's).
    """
    by_slice: dict[str, list[dict]] = {}
    for utterance in utterances:
        by_slice.setdefault(utterance["slice"], []).append(utterance)
    out = {}
    for name, items in sorted(by_slice.items()):
        views = [u["views"].get(primary) for u in items]
        scored = [(u, v) for u, v in zip(items, views) if v is not None and v["reference_length"] > 0]
        length = sum(v["reference_length"] for _, v in scored)
        errors = sum(_errors(v) for _, v in scored)
        # a transcript from the hypothesis cache has no latency: timings cover the decoded ones
        timed = [u for u in items if u["latency_seconds"] is not None]
        latencies = [u["latency_seconds"] for u in timed]
        audio = sum(u["duration_seconds"] for u in timed)
        out[name] = {
            "utterances": len(items),
            "speakers": len({u["speaker"] for u in items}),
            "rate": None if length == 0 else round(errors / length, 6),
            "rate_interval": _interval([(u["speaker"], _errors(v), v["reference_length"]) for u, v in scored], seed),
            "median_rate": None if not scored else round(median(_errors(v) / v["reference_length"] for _, v in scored), 6),
            "substitutions": sum(v["substitutions"] for _, v in scored),
            "deletions": sum(v["deletions"] for _, v in scored),
            "insertions": sum(v["insertions"] for _, v in scored),
            "latency_p50_seconds": _round(percentile(latencies, 50)),
            "latency_p95_seconds": _round(percentile(latencies, 95)),
            "real_time_factor": None if audio <= 0 or not latencies else round(sum(latencies) / audio, 4),
            "not_exact": _event([(u["speaker"], int(_errors(v) > 0), 1) for u, v in scored], seed),
            "critical_failed": _event([(u["speaker"], sum(c["failed"] for c in u["critical"].values()),
                                        sum(c["total"] for c in u["critical"].values())) for u in items], seed),
            "no_output": _event([(u["speaker"], int(u["no_output"]), 1) for u in items], seed),
            "text_output": _event([(u["speaker"], int(not u["no_output"]), 1) for u in items], seed),
        }
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
