"""Metric views: named figures a metric adds to a score (see :mod:`.base`).

Built-in views, each registered by importing its module here:

- ``code_switch`` (:mod:`.codeswitch`): the Hindi-English error-region rescue; the
  headline rate becomes the code-switch-aware WER, ``details`` gains ``strict_rate`` and
  the rescues (docs/hindi.md).
- ``spacing`` (:mod:`.spacing`): for a character-scored language that keeps its word spaces
  (Korean), the headline rate becomes the CER without spaces; ``details`` keeps the spaced
  CER (docs/korean.md).
"""

from pytest_asrbench.scoring.views import codeswitch, spacing
from pytest_asrbench.scoring.views.base import (
    Counts,
    MetricView,
    ViewResult,
    apply_views,
    get_view,
    known_views,
    register_view,
)

__all__ = [
    "Counts",
    "MetricView",
    "ViewResult",
    "apply_views",
    "codeswitch",
    "get_view",
    "known_views",
    "register_view",
    "spacing",
]
