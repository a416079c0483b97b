"""The steps of the frozen Thai benchmark cleaning, profile ``bench_v1`` of ``configs/th.toml``.

``bench_v1`` is th-bench-v1, the cleaning the benchmark's FLEURS and GigaSpeech2 references
were made with when its published figures were recorded (source: the reference-builder
specification, its ``clean_text``), and the one its hypotheses are cleaned with:

1. ``th_bench_v1_punctuation``: remove ASCII punctuation except ``?`` and ``!``, and the
   curly quotes ``“ ” ‘ ’``, the em and en dashes ``— –`` and the ellipsis ``…``;
2. ``lowercase`` (generic: ``str.lower``), then ``th_bench_v1_strip`` (both ends);
3. ``th_bench_v1_pythainlp``: pythainlp 5.3.5's ``normalize`` (zero-width characters
   removed, runs of spaces made one, repeated vowels and misplaced marks put right).

Removing ``.`` also removes decimal points (``22.00`` -> ``2200``): a documented consequence
(17 FLEURS references), kept because the published figures were scored that way.

Frozen: a change is a new profile (``bench_v2``, new steps ``th_bench_v2_*``), never an edit
of these steps or of the profile's list (:data:`BENCH_V1_STEPS`);
``tests/test_thai_profiles.py`` pins the rules and the profile's outputs on a fixed list.
"""

from __future__ import annotations

import string

from pytest_asrbench.normalize.languages.th.library import require_version, thai_normalize
from pytest_asrbench.normalize.steps.registry import step

#: The profile name in ``configs/th.toml`` and the cleaning's published name.
BENCH_V1_PROFILE = "bench_v1"
BENCH_V1_NAME = "th-bench-v1"
#: The profile's frozen step list; the benchmark cleaning refuses a config that lists others.
BENCH_V1_STEPS: tuple[str, ...] = ("th_bench_v1_punctuation", "lowercase", "th_bench_v1_strip", "th_bench_v1_pythainlp")
#: Characters v1 deletes: ASCII punctuation but ``?`` and ``!``, curly quotes, dashes, ellipsis.
V1_DELETED = "".join(c for c in string.punctuation if c not in "?!") + "\u201c\u201d\u2018\u2019\u2014\u2013\u2026"
#: The pythainlp release v1's ``normalize`` step is defined by.
V1_PYTHAINLP = "5.3.5"

_V1_TABLE = str.maketrans("", "", V1_DELETED)


@step("th_bench_v1_punctuation", language="th")
def th_bench_v1_punctuation(config, lexicons):
    """Delete :data:`V1_DELETED` (no space left in their place: ``a-b`` -> ``ab``)."""
    return lambda text: text.translate(_V1_TABLE)


@step("th_bench_v1_strip", language="th")
def th_bench_v1_strip(config, lexicons):
    """Strip whitespace from both ends (``str.strip``); inner whitespace is left to pythainlp."""
    return str.strip


@step("th_bench_v1_pythainlp", language="th", libraries=("pythainlp",))
def th_bench_v1_pythainlp(config, lexicons):
    """pythainlp's ``normalize``, pinned: 5.3.5 must be the installed pythainlp.

    Raises (when the profile is built):
        PythainlpVersionError: another pythainlp version is installed; its ``normalize`` may give
            other outputs, which would silently move the published figures.
    """
    require_version(V1_PYTHAINLP, f"the frozen Thai benchmark cleaning {BENCH_V1_NAME} (profile {BENCH_V1_PROFILE})")
    return thai_normalize()
