"""Japanese (``ja``): the rules of ``configs/ja.toml`` that cannot be data.

Same skeleton as every language package: ``script.py`` (width folds), ``codes.py``
(codes spelled in katakana letter names and kana or kanji digits), ``numbers.py`` (kanji
numerals in a numeric context), ``words.py`` (fillers at the start of a word, spelling
variants, product names in katakana). Every step is registered with ``language="ja"``;
the data are TSV files in ``configs/ja/`` and the rules, with their sources and the
ambiguous readings decided, are in ``docs/japanese.md``.

Spelling variants (何とか / なんとか, 振替 / 振り替え) come from a hand-kept table
(``configs/ja/variants.tsv``), not from a dictionary library. Evaluated on the same pairs
(docs/japanese.md, "Spelling variants: library or table"): SudachiPy 0.7.0 with
sudachidict-small's ``normalized_form`` merges 18 of 20 variant pairs and keeps 17 of 17
homophone pairs apart, but it also merges inflections that are spoken differently
(ください / くださる, できる / できた become 出来る-forms), rewrites every verb to its
dictionary form (so the normalized text no longer reads as the transcript), costs 115 MB
installed as a core dependency of every user, and its dictionary's release would move
scores. pykakasi readings merge 16 of 20 but keep only 4 of 17 homophone pairs apart
(橋 / 箸, 会う / 合う, 機会 / 機械 all merge): homophones are not variants. The table
merges exactly what it lists (precision by construction) and costs nothing.
"""

#: The language tag every step of this package is registered under.
LANGUAGE = "ja"
#: Distributions whose output feeds this package's steps (their versions go into the
#: metric signatures of every config listing one of its steps); none: plain Python and
#: the Unicode database of ``unicodedata`` (already in every signature).
LIBRARIES: tuple[str, ...] = ()

from pytest_asrbench.normalize.languages.ja import codes, numbers, script, words  # noqa: E402,F401
