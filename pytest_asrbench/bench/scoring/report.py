"""What ``asrbench bench score`` writes: the scores record (JSON), a terminal and a Markdown table.

The record (schema ``asrbench.scores/1``) holds, per set and overall: ``set``, ``clips``,
``clusters``, ``rate``, ``hits``, ``substitutions``, ``deletions``, ``insertions``,
``reference_length``, ``ci95`` ``[low, high]``, ``ci95_mc_se`` (the Monte Carlo standard error
of each end), ``missing`` and ``extra`` (lists of ids; the overall lists them as
``<set>/<id>``), and with a comparison a ``compare`` object (the second system's figures,
``difference`` = its rate minus the first's, ``difference_ci95`` and its
``difference_ci95_mc_se``, ``second_better``: the share of resamples in which it has the lower
rate). Top level: the metric (name, version, language, unit; for ``th_bench_cer`` its
signature and cleaning too), the bootstrap (seed,
resamples, confidence, resampling unit, the sets resampled jointly for the overall) and the
folders scored. docs/bench.md documents every field.
"""

from __future__ import annotations

from typing import Any

from pytest_asrbench.bench.scoring.corpus import BenchmarkScores, SetScore, SystemScore

SCHEMA = "asrbench.scores/1"


def _system(system: SystemScore) -> dict[str, Any]:
    return {**system.counts.to_dict(), "missing": list(system.missing), "extra": list(system.extra)}


def set_dict(result: SetScore) -> dict[str, Any]:
    """One set's (or the overall's) entry of the record; paths are left out (see :func:`record`)."""
    out = {"set": result.name, "clips": result.clips, "clusters": result.clusters, **_system(result.system),
           "ci95": result.ci95.as_list(), "ci95_mc_se": result.ci95.mc_se_list()}
    if result.other is not None:
        comparison = result.comparison
        out["compare"] = {**_system(result.other), "ci95": result.other_ci95.as_list(),
                          "ci95_mc_se": result.other_ci95.mc_se_list(),
                          "difference": comparison.difference, "difference_ci95": comparison.interval.as_list(),
                          "difference_ci95_mc_se": comparison.interval.mc_se_list(),
                          "second_better": comparison.b_better}
    return out


def scores_dict(scores: BenchmarkScores) -> dict[str, Any]:
    """The figures only (sets, overall, bootstrap): what a ``benchmark`` case snapshots."""
    return {"bootstrap": {"seed": scores.seed, "resamples": scores.resamples, "confidence": scores.confidence,
                          "unit": "cluster", "shared_clusters": [dict(group) for group in scores.shared]},
            "sets": [set_dict(result) for result in scores.sets], "overall": set_dict(scores.overall)}


def record(scores: BenchmarkScores, metric: dict[str, str], refs: str, hyps: str, compare: str | None) -> dict[str, Any]:
    """The whole ``--json`` record: schema, metric, folders, then :func:`scores_dict`."""
    return {"schema": SCHEMA, "metric": metric, "references": refs, "hypotheses": hyps, "compare": compare,
            **scores_dict(scores)}


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.2f}"


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:+.2f}"


def _mc(*intervals) -> str:
    """The largest Monte Carlo standard error of the intervals' ends, in points."""
    errors = [se for interval in intervals for se in interval.mc_se_list() if se is not None]
    return f"{max(errors) * 100:.3f}" if errors else "-"


def table_rows(scores: BenchmarkScores) -> list[list[str]]:
    """Header and one row per set, then the overall: rates (``WER %`` or ``CER %`` by the
    measure's unit) and intervals in percent, and the largest Monte Carlo standard error of
    the row's interval ends (``MC se``, points)."""
    compare = scores.overall.other is not None
    label = scores.measure.label
    header = ["set", "clips", "clusters", f"{label} %", "S", "D", "I", "ci95 %", "MC se", "missing", "extra"]
    if compare:
        header += [f"{label} B %", "B - A", "ci95 (B - A)", "B better"]
    rows = [header]
    for result in (*scores.sets, scores.overall):
        counts = result.system.counts
        row = [result.name, str(result.clips), str(result.clusters), _pct(counts.rate), str(counts.substitutions),
               str(counts.deletions), str(counts.insertions),
               f"{_pct(result.ci95.low)}-{_pct(result.ci95.high)}",
               _mc(result.ci95, *((result.other_ci95, result.comparison.interval) if compare else ())),
               str(len(result.system.missing)), str(len(result.system.extra))]
        if compare:
            c = result.comparison
            row += [_pct(result.other.counts.rate), _signed(c.difference),
                    f"{_signed(c.interval.low)}..{_signed(c.interval.high)}",
                    "-" if c.b_better is None else f"{c.b_better * 100:.1f}%"]
        rows.append(row)
    return rows


def terminal_table(scores: BenchmarkScores) -> str:
    """Aligned plain-text table (names left, figures right), a rule under the header and
    above the overall row."""
    rows = table_rows(scores)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    body = [line(row) for row in rows]
    return "\n".join([body[0], rule, *body[1:-1], rule, body[-1], *scores.notes])


def markdown_table(scores: BenchmarkScores, metric: dict[str, str]) -> str:
    """A Markdown table of the same rows, with a line naming the metric and the bootstrap."""
    rows = table_rows(scores)
    lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] + ["---:"] * (len(rows[0]) - 1)) + " |"]
    lines += ["| " + " | ".join(f"**{c}**" if r[0] == "overall" and i == 0 else c for i, c in enumerate(r)) + " |"
              for r in rows[1:]]
    how = (f"signature {metric['signature']}, cleaning {metric['cleaning']}, spaces removed" if "cleaning" in metric
           else f"language {metric['language']}, {metric['unit']}s, the language's normalizer")
    note = (f"{metric['name']} {metric['version']} ({how}); 95% cluster bootstrap, {scores.resamples} resamples, seed {scores.seed}; "
            "MC se: the largest Monte Carlo standard error of the row's interval ends, in points.")
    return "\n".join(lines) + "\n\n" + "\n\n".join([note, *scores.notes]) + "\n"
