"""zh ends with ``remove_spaces`` alone: ``collapse_whitespace`` listed before it would change
no output, on every text the zh normalizer is pinned on and on every whitespace character in
the contexts its steps read (so the pipeline does not pay for it on every text).

Why: ``remove_spaces`` drops the ASCII space; ``collapse_whitespace`` first turns any run of
``str.isspace`` characters into one ASCII space and strips the ends, so the pair drops every
whitespace character. They agree exactly when nothing but ASCII spaces reaches them, and
``unicode_whitespace`` (fourth in the list) already makes every whitespace character and the
zero width space an ASCII space; the steps between it and the pair (lowercase, zh_script,
digit_groups, zh_numbers, punctuation) must then emit no other whitespace. The second test
checks that condition itself, over the same texts and every cell of the zh lexicons.
"""

from __future__ import annotations

import sys

import pytest

from pytest_asrbench.normalize.registry import build_pipeline, get_config
from tests.digests import case_texts
from tests.test_cjk_thai_output_identity import ROOT, _lexicon_pieces, random_texts

#: Every character ``str.split()`` splits at, and the zero width space unicode_whitespace also maps.
SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()] + ["\u200b"]
#: Contexts the zh steps read: Han, numerals (digit groups, number words, percent, times),
#: full-width forms, Traditional characters, Latin, punctuation, the ends of the text.
CONTEXTS = ["我{}们", "{}1{}000{}", "三{}千{}四百", "百分之{}十五", "三点{}半", "１{}２", "謝{}謝", "App{}5",
            "50{}%", "，{}。", "{}", "{}{}", "3{}:{}30", "1{},{}000", "ＡＢＣ{}ａｂｃ"]


def _texts() -> list[str]:
    adversarial = [context.replace("{}", space) for space in SPACES for context in CONTEXTS]
    return [*case_texts(ROOT / "cases", "zh"), *random_texts("zh"), *_lexicon_pieces("zh"), *adversarial]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


def test_collapse_whitespace_before_zh_remove_spaces_would_change_no_output(texts):
    steps = get_config("zh").steps
    assert steps[-1] == "remove_spaces" and "collapse_whitespace" not in steps
    listed = build_pipeline("zh", steps)
    with_collapse = build_pipeline("zh", [*steps[:-1], "collapse_whitespace", "remove_spaces"])
    differing = [text for text in texts if listed(text) != with_collapse(text)]
    assert differing == [], differing[:5]
    # the inputs reach the difference: on its own text the pair does drop what remove_spaces keeps
    pair, alone = build_pipeline("zh", ["collapse_whitespace", "remove_spaces"]), build_pipeline("zh", ["remove_spaces"])
    dropped = {space for space in SPACES if pair(f"我{space}们") != alone(f"我{space}们")}
    assert dropped == set(SPACES) - {" ", "\u200b"}  # the zero width space is unicode_whitespace's alone


def test_only_ascii_spaces_reach_the_zh_space_step(texts):
    steps = get_config("zh").steps
    before = build_pipeline("zh", steps[:steps.index("remove_spaces")])
    other = set(SPACES) - {" "}
    reaching = [text for text in texts if other & set(before(text))]
    assert reaching == [], reaching[:5]
