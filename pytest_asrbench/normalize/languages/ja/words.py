"""Japanese word steps: fillers at the start of a word, spelling variants, product names.

Japanese writes no spaces, so a "word start" is the start of the text or of a chunk that
punctuation or a space set off (the ``punctuation`` step has made 、。・ spaces). Sources:
the original requirements' "Japanese" section (なんとか became なか when the filler んと was cut out of the
word; 何とか / なんとか, 振替 / 振り替え, 名字 / 苗字, 合って / あって; コンフュエンス vs
コンフルエンス; 22 product names of the ITSM scenarios) and Japanese reviewers. Decisions:
docs/japanese.md.
"""

from __future__ import annotations

import re

from pydantic import Field

from pytest_asrbench.errors import ConfigError
from pytest_asrbench.normalize.config import StepOptions
from pytest_asrbench.normalize.languages.ja.codes import KATAKANA
from pytest_asrbench.normalize.steps.registry import require_lexicon, step


class FillerOptions(StepOptions):
    """``[options.ja_fillers]``: hesitations that are removed even when text follows them."""

    leading: list[str] = Field(
        default_factory=list,
        description="Fillers removed at the start of a chunk even with text right after them "
                    "(えーと口座 -> 口座); only ones that never begin a word.")


@step("ja_fillers", language="ja", options=FillerOptions,
      after={"punctuation": "it reads chunks between spaces, and punctuation makes 、。・ spaces"})
def ja_fillers(config, lexicons, options: FillerOptions):
    """Remove hesitations at the start of a word only, never inside one (なんとか stays).

    A chunk (text between spaces) that is one of the config's ``fillers`` is removed
    (あの、すみません -> すみません; あの人 stays: あの before a noun is "that"). A filler of
    ``leading`` is also cut from the start of a chunk (えーと口座 -> 口座), repeatedly
    (えーとあのー…). Runs after ``punctuation``.
    """
    whole = frozenset(config.fillers) | frozenset(options.leading)
    lead = (re.compile("^(?:" + "|".join(re.escape(f) for f in sorted(options.leading, key=len, reverse=True)) + ")+")
            if options.leading else None)

    def chunk(word: str) -> str:
        rest = lead.sub("", word) if lead else word
        return "" if rest in whole else rest  # えーとあの: the rest is a filler too

    return lambda text: " ".join(filter(None, (chunk(word) for word in text.split(" "))))


#: Whole words: a maximal run of katakana, and a maximal run of Latin words with single
#: spaces between them (so a key of several words, "service now", is found by its words).
_KATAKANA_WORDS = re.compile(f"[{KATAKANA}]+")
_LATIN_WORDS = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")


_MAX_VARIANT_PASSES = 8


def _replacer(table: dict[str, str], pattern: str):
    regex = re.compile(pattern)
    return lambda text: regex.sub(lambda match: table[match.group(0)], text)


@step("ja_variants", language="ja",
      before={"ja_codes": "the codes read its output", "ja_numbers": "the numbers read its output (ひとり is 一人 first)"})
def ja_variants(config, lexicons):
    """Spellings of one word written one way (lexicon ``variants``: variant -> the one
    kept): 何とか -> なんとか, 振り替え -> 振替, 苗字 -> 名字, 合って -> あって. Replaced
    wherever they occur, longest first; an entry must never be part of another word read
    differently (docs/japanese.md: homophones such as 橋 / 箸 / 端 are not variants).
    Replaced until nothing changes, so the output is a fixed point.

    Raises:
        ConfigError: a kept spelling contains a variant (the table would chain).
    """
    table = dict(require_lexicon(lexicons, "variants", "ja_variants"))
    if not table:
        return lambda text: text
    for key, value in table.items():
        inside = [other for other in table if other in value]
        if inside:
            raise ConfigError(f"variants: the spelling kept for {key!r}, {value!r}, contains the variant "
                              f"{inside[0]!r}; a kept spelling must not be a variant itself")
    replace = _replacer(table, "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)))

    def run(text: str) -> str:
        # Until nothing changes: a kept spelling and the text after it may spell another
        # variant (振り替ええ -> 振替え -> 振替), and a second pass must find nothing to do.
        for _ in range(_MAX_VARIANT_PASSES):
            changed = replace(text)
            if changed == text:
                return text
            text = changed
        return text

    return run


@step("ja_loanwords", language="ja", after={"lowercase": "it compares Latin words lowercase (Confluence)"})
def ja_loanwords(config, lexicons):
    """Product names in Latin script or a common other katakana spelling become one katakana
    spelling (lexicon ``loanwords``: name -> katakana), so both sides are compared in
    katakana and a near-miss spelling gets partial credit (Confluence -> コンフルエンス).

    Whole words only: a Latin key matches with no letter or digit next to it, a katakana key
    with no katakana next to it (モデル, Dellwood and コンフルエンスページ stay). Runs after
    ``lowercase`` (keys are matched lowercase)."""
    table = {key.lower(): value for key, value in require_lexicon(lexicons, "loanwords", "ja_loanwords").items()}
    if not table:
        return lambda text: text
    longest = max(len(key.split(" ")) for key in table)

    def latin(match: re.Match) -> str:
        words = match.group(0).split(" ")
        out, position = [], 0
        while position < len(words):
            for size in range(min(longest, len(words) - position), 0, -1):
                name = " ".join(words[position:position + size])
                if name in table:
                    out.append(table[name])
                    position += size
                    break
            else:
                out.append(words[position])
                position += 1
        return " ".join(out)

    def katakana(match: re.Match) -> str:
        return table.get(match.group(0), match.group(0))

    def run(text: str) -> str:
        return _KATAKANA_WORDS.sub(katakana, _LATIN_WORDS.sub(latin, text))

    return run
