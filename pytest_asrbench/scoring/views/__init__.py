"""Metric views: named figures a metric adds to a score (see :mod:`.base`).

Built-in views, each registered by importing its module here:

- ``code_switch`` (:mod:`.codeswitch`): the Hindi-English error-region rescue; the
  headline rate becomes the code-switch-aware WER, ``details`` gains ``strict_rate`` and
  the rescues (docs/hindi.md).
- ``cer_views`` (:mod:`.cer_views`): the four CER views of an evaluation protocol
  (zh-eval-v1: ``cer_raw``, ``cer_punct``, ``cer_normalized``, ``cer_script_normalized``),
  for languages whose config defines its profiles (docs/mandarin.md).
- ``compounds`` (:mod:`.compounds`): for word scores of English, German and Dutch, a split
  and a closed compound of the same letters count as one correct word ("data base" =
  "database"); ``details`` keeps the strict rate when a compound was merged.
- ``loanwords`` (:mod:`.codeswitch.loanwords`): for character scores of Japanese and Korean,
  a Latin name on one side and its katakana or Hangul on the other count as the same word
  (Figma = フィグマ = 피그마); ``details["loanwords"]`` lists every rescued pair.
- ``spacing`` (:mod:`.spacing`): for a character-scored language that keeps its word spaces
  (Korean), the headline rate becomes the CER without spaces; ``details`` keeps the spaced
  CER (docs/korean.md).
"""

import pytest_asrbench.scoring.views.cer_views as cer_views
import pytest_asrbench.scoring.views.codeswitch as codeswitch
import pytest_asrbench.scoring.views.compounds as compounds
import pytest_asrbench.scoring.views.spacing as spacing
from pytest_asrbench.scoring.views.base import (
    MetricView,
    ViewResult,
    apply_views,
    get_view,
    keeps_spans,
    known_views,
    pair_rewrites,
    register_view,
)

__all__ = [
    "MetricView",
    "ViewResult",
    "apply_views",
    "cer_views",
    "codeswitch",
    "compounds",
    "get_view",
    "keeps_spans",
    "known_views",
    "pair_rewrites",
    "register_view",
    "spacing",
]
