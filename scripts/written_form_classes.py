"""Count the written-form cases of each class and language, and the share that passes.

A written-form class is a kind of form a transcriber writes two ways (fractions, measures and
units, spoken web addresses and emails, times, telephone numbers, abbreviations and titles,
ordinals, decimals, money; British/American spelling in English). A case belongs to a class
by the name of its file (``cases/en/fractions.yaml``) or, in a file that holds several classes
(``cases/de/written_forms.yaml``), by the first word of its id (``fractions-drei-viertel``);
``CLASS_NAMES`` lists the words each class answers to. A case passes when it has no ``xfail``
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
LANGUAGES = ("en", "hi", "de", "nl", "fr", "es", "it")

#: Each class and the file names or first id words that name it.
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

#: Classes that only some languages have.
ONLY_IN: dict[str, tuple[str, ...]] = {"spelling": ("en",)}

MIN_CASES = 10
MIN_PASSING = 0.8

_BY_NAME = {name: cls for cls, names in CLASS_NAMES.items() for name in names}


def case_class(file_stem: str, case_id: str) -> str | None:
    """The class of a case: its file's, else its id's first word's; ``None`` when neither names one."""
    return _BY_NAME.get(file_stem) or _BY_NAME.get(case_id.split("-", 1)[0])


def class_counts(cases_dir: Path = ROOT / "cases") -> dict[tuple[str, str], tuple[int, int]]:
    """``{(language, class): (cases, passing)}`` over the case files of :data:`LANGUAGES`.

    Raises:
        ValueError: a case file has faults (names the file and the first fault).
    """
    counts = {(language, cls): [0, 0] for language in LANGUAGES for cls in CLASS_NAMES
              if language in ONLY_IN.get(cls, LANGUAGES)}
    for language in LANGUAGES:
        for path in sorted((cases_dir / language).glob("*.yaml")):
            loaded = load_case_file(path)
            if loaded.errors:
                raise ValueError(f"{path}: {loaded.errors[0]}; fix the case file before counting")
            for case in loaded.cases:
                cls = case_class(path.stem, case.id)
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
    for cls in CLASS_NAMES:
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
