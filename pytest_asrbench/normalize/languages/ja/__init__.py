"""Japanese (``ja``): the rules of ``configs/ja.toml`` that cannot be data.

Same skeleton as every language package: ``script.py`` (width folds), ``codes.py``
(codes spelled in katakana letter names and kana or kanji digits), ``numbers.py`` (kanji
numerals in a numeric context), ``amounts.py`` (decimals, fractions, percentages, yen,
clock times, units), ``words.py`` (fillers at the start of a word, spelling
variants, product names in katakana). Every step is registered with ``language="ja"``;
the data are TSV files in ``configs/ja/`` and the rules, with their sources and the
ambiguous readings decided, are in ``docs/japanese.md``.

Spelling variants (何とか / なんとか, 振替 / 振り替え) come from a hand-kept table
(``configs/ja/variants.tsv``), not from a dictionary library. Evaluated on the same pairs
(``benchmarks/japanese_variants.py``; docs/japanese.md, "Spelling variants: library or
table"): SudachiPy 0.7.0 with sudachidict-small's ``normalized_form`` merges 18 of 20 listed
variant pairs and 10 of 10 held-out ones, keeps 16 of 17 distinct pairs apart, but merges
inflections spoken differently (ください / くださる), rewrites every verb to its dictionary
form (the normalized text no longer reads as the transcript), adds 59% to the normalizer's
time and 115 MB as a core dependency of every user, and its dictionary's releases move
scores. pykakasi readings keep only 4 of 17 apart (橋 / 箸, 会う / 合う, 機会 / 機械 merge):
homophones are not variants. The table merges exactly what it lists (precision by
construction, no cost); its price is recall on variants it does not list.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "ja"

import pytest_asrbench.normalize.languages.ja.amounts as amounts  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ja.codes as codes  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ja.numbers as numbers  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ja.script as script  # noqa: E402,F401
import pytest_asrbench.normalize.languages.ja.words as words  # noqa: E402,F401
