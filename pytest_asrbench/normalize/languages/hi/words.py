"""Hindi word steps: Latin-script loanwords to their Devanagari spelling.

Source: the original requirements' "Hindi" section (reviewer examples: "code" = "कोड"). The table is
``configs/hi/loanwords.tsv``; values are folded with the config's ``char_folds``.
"""

from __future__ import annotations

from pytest_asrbench.normalize.steps.basic import make_fold
from pytest_asrbench.normalize.steps.registry import require_lexicon, step


@step("hindi_loanwords", language="hi")
def hindi_loanwords(config, lexicons):
    """Latin-script English loanwords become their Devanagari spelling (code = कोड).

    Whole words only, from the ``loanwords`` lexicon. The lexicon holds only words the
    phonetic matcher cannot pair (see ``configs/hi/loanwords.tsv`` and docs/hindi.md).
    """
    table = require_lexicon(lexicons, "loanwords", "hindi_loanwords")
    fold = make_fold(config.char_folds)
    mapping = {key.lower(): fold(value) for key, value in table.items()}

    def run(text: str) -> str:
        return " ".join(mapping.get(token, token) for token in text.split())

    return run
