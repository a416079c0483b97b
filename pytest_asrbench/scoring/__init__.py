"""Scoring: alignment of normalized reference and hypothesis, error counts and rates."""

from pytest_asrbench.scoring.alignment import AlignmentOp, align
from pytest_asrbench.scoring.metrics import METRICS, Metric, get_metric
from pytest_asrbench.scoring.score import Score, score

__all__ = ["METRICS", "AlignmentOp", "Metric", "Score", "align", "get_metric", "score"]
