"""Count the written-form cases of each class and language, and the share that passes.

A written-form class is a kind of form a transcriber writes two ways (fractions, measures and
units, spoken web addresses and emails, times, telephone numbers, abbreviations and titles,
ordinals, decimals, money; British/American spelling in English; in Mandarin, Japanese and
Korean the number classes: cardinals, decimals, fractions and percentages, dates and years,
times, money, measures, ordinals, and Simplified vs Traditional script in Mandarin; Thai
digits and number words). A case belongs to a class by the name of its file
(``cases/en/fractions.yaml``) or, in a file that holds several classes
(``cases/de/written_forms.yaml``), by the first word of its id (``fractions-drei-viertel``);
``CLASS_NAMES`` (the European languages and Hindi), ``NUMBER_CLASS_NAMES`` (zh, ja, ko) and
``THAI_CLASS_NAMES`` list the words each class answers to, ``NAMES_BY_LANGUAGE`` which list
a language reads. A case passes when it has no ``xfail``
(the cases run strict: an ``xfail`` case that passes fails the run, so every other case
passes on a green run). The rule the cases are held to: at least ``MIN_CASES`` cases per class
and language, and at least ``MIN_PASSING`` of them passing.

    python scripts/written_form_classes.py            # print the table; exit 1 below the rule
    python scripts/written_form_classes.py --cases DIR

Shapes: :func:`class_counts` returns ``{(language, class): (cases, passing)}``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pytest_asrbench.cases.loader import load_case_file

ROOT = Path(__file__).resolve().parents[1]

#: The languages held to the rule, in the order of the table.
LANGUAGES = ("en", "hi", "de", "nl", "fr", "es", "it", "zh", "ja", "ko", "th")

#: Each class of the European languages and Hindi, and the file names or first id words that name it.
CLASS_NAMES: dict[str, tuple[str, ...]] = {
    "fractions": ("fractions", "fraction"),
    "units": ("units", "unit", "measures"),
    "web": ("web", "url", "urls", "addresses", "emails", "email"),
    "times": ("times", "time"),
    "phones": ("phones", "phone", "phone_words"),
    "titles": ("titles", "title"),
    "ordinals": ("ordinals", "ordinal"),
    "decimals": ("decimals", "decimal"),
    "money": ("money", "money_more"),
    "spelling": ("spelling_whisper",),
}

#: The number classes of Mandarin, Japanese and Korean (the two renderings of the same speech
#: a reviewer meets: 三千四百 = 3400, 이 점 칠 = 2.7, 四分之三 = 3/4, 二零一九年 = 2019年, 第三 = 第3,
#: 谢谢 = 謝謝), and the file names or first id words that name each. ``fractions`` takes in
#: percentages (分之 and 百分之 are one construction), ``dates`` years, ``units`` measures.
NUMBER_CLASS_NAMES: dict[str, tuple[str, ...]] = {
    "cardinals": ("cardinals", "cardinal", "numeral", "man", "large"),
    "decimals": ("decimals", "decimal"),
    "fractions": ("fractions", "fraction", "percent", "permille", "wari"),
    "dates": ("dates", "date", "year", "month", "months", "day", "november", "march", "irregular"),
    "times": ("times", "time", "clock", "half", "minutes", "duration", "juppun", "ichiji", "thirty"),
    "money": ("money", "won", "yen", "yuan", "kuai", "price", "dollars"),
    "units": ("units", "unit", "measures", "measure", "kilometres", "kilograms", "centimetres",
              "millimetres", "metres", "grams", "litres", "millilitres", "degrees", "kilo", "qianmi"),
    "ordinals": ("ordinals", "ordinal"),
    "script": ("script",),
}

#: Thai's one class: Thai digits (๑๒๓) and number words (หนึ่งร้อยยี่สิบสาม) against ASCII digits.
THAI_CLASS_NAMES: dict[str, tuple[str, ...]] = {
    "thai_numbers": ("numbers_forms", "thai", "number", "words"),
}

#: Which names each language reads.
NAMES_BY_LANGUAGE: dict[str, dict[str, tuple[str, ...]]] = {
    **{language: CLASS_NAMES for language in ("en", "hi", "de", "nl", "fr", "es", "it")},
    **{language: NUMBER_CLASS_NAMES for language in ("zh", "ja", "ko")},
    "th": THAI_CLASS_NAMES,
}

#: Classes that only some languages have.
ONLY_IN: dict[str, tuple[str, ...]] = {"spelling": ("en",), "script": ("zh",)}

MIN_CASES = 10
MIN_PASSING = 0.8

_BY_NAME = {language: {name: cls for cls, names in table.items() for name in names}
            for language, table in NAMES_BY_LANGUAGE.items()}


def classes_of(language: str) -> tuple[str, ...]:
    """The classes ``language`` is held to, in table order.

    Raises:
        KeyError: ``language`` is not in :data:`NAMES_BY_LANGUAGE`.
    """
    return tuple(cls for cls in NAMES_BY_LANGUAGE[language] if language in ONLY_IN.get(cls, (language,)))


def case_class(file_stem: str, case_id: str, language: str = "en") -> str | None:
    """The class of a case of ``language``: its file's, else its id's first word's; ``None``
    when neither names one of the language's classes."""
    names = _BY_NAME[language]
    found = names.get(file_stem) or names.get(case_id.split("-", 1)[0])
    return found if found in classes_of(language) else None


def class_counts(cases_dir: Path = ROOT / "cases") -> dict[tuple[str, str], tuple[int, int]]:
    """``{(language, class): (cases, passing)}`` over the case files of :data:`LANGUAGES`.

    Raises:
        ValueError: a case file has faults (names the file and the first fault).
    """
    counts = {(language, cls): [0, 0] for language in LANGUAGES for cls in classes_of(language)}
    for language in LANGUAGES:
        for path in sorted((cases_dir / language).glob("*.yaml")):
            loaded = load_case_file(path)
            if loaded.errors:
                raise ValueError(f"{path}: {loaded.errors[0]}; fix the case file before counting")
            for case in loaded.cases:
                cls = case_class(path.stem, case.id, language)
                if (language, cls) in counts:
                    counts[language, cls][0] += 1
                    counts[language, cls][1] += case.xfail is None
    return {key: (total, passing) for key, (total, passing) in counts.items()}


def shortfalls(counts: dict[tuple[str, str], tuple[int, int]]) -> list[str]:
    """One sentence per (language, class) below the rule; empty when every class meets it."""
    problems = []
    for (language, cls), (total, passing) in counts.items():
        if total < MIN_CASES:
            problems.append(f"{language} {cls}: {total} cases, fewer than {MIN_CASES}; write more")
        elif passing < MIN_PASSING * total:
            problems.append(f"{language} {cls}: {passing}/{total} pass, under {MIN_PASSING:.0%}")
    return problems


def table(counts: dict[tuple[str, str], tuple[int, int]]) -> str:
    """The counts as a Markdown table, one row per class, ``passing/cases`` per language."""
    lines = ["| class | " + " | ".join(LANGUAGES) + " |", "| --- |" + " --- |" * len(LANGUAGES)]
    rows = dict.fromkeys(cls for _, cls in counts)
    for cls in rows:
        cells = [f"{counts[language, cls][1]}/{counts[language, cls][0]}" if (language, cls) in counts else "–"
                 for language in LANGUAGES]
        lines.append(f"| {cls} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=ROOT / "cases", help="the case folder (default: cases/)")
    args = parser.parse_args(argv)
    counts = class_counts(args.cases)
    print(table(counts))
    problems = shortfalls(counts)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
