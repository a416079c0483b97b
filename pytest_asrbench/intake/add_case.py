"""Append one reviewer's case to a case file, keeping the file as its author wrote it.

The file is read and written with ruamel.yaml's round-trip mode (comments, key order,
quoting and indentation survive); the new case is validated with the case loader itself
(the same schema and checks as a pytest run) before anything is written, and the file is
replaced atomically. Ids are derived from the case's text: the ASCII words of its texts
joined by ``-`` (at most :data:`ID_WORDS`), or the kind alone when a text has no ASCII word
(Devanagari, Hangul), then a short hash of the texts, so an id is stable for the same example
and unique for another (``score-flight-fight-3f9c2a``).
"""

from __future__ import annotations

import hashlib
import io
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pytest_asrbench._shared.atomic import write_atomic
from pytest_asrbench._shared.paths import from_root
from pytest_asrbench.cases.kinds import KINDS as ALL_KINDS, get_runner, kind_module
from pytest_asrbench.cases.loader import load_case_file
from pytest_asrbench.cases.registry import IntakeForm, intake_form_of
from pytest_asrbench.cases.schema import MAX_ID_LENGTH
from pytest_asrbench.errors import AsrbenchError
from pytest_asrbench.snapshot_layout import is_case_suffix

#: Kinds a reviewer's example becomes: those whose runner declares an ``intake`` form.
KINDS = tuple(kind for kind in ALL_KINDS if intake_form_of(get_runner(kind)) is not None)
#: The command-line option of each intake input.
OPTION = {"reference": "--reference", "hypothesis": "--hypothesis", "text": "--text", "texts": "--text",
          "expect": "--expect", "expect_rate": "--expect-rate"}
ID_WORDS = 4
HASH_DIGITS = 6


class AddCaseError(AsrbenchError):
    """The case cannot be added (a duplicate, a missing field, a case file that does not load)."""


@dataclass(frozen=True)
class Added:
    """What was added: the case file, the case id and the node id pytest knows it by."""

    path: Path
    case_id: str
    nodeid: str


def form_of(kind: str) -> IntakeForm:
    """The :class:`IntakeForm` of ``kind``.

    Raises:
        AddCaseError: ``kind`` cannot be added from the command line.
    """
    form = intake_form_of(get_runner(kind)) if kind in ALL_KINDS else None
    if form is None:
        raise AddCaseError(f"--kind {kind} cannot be added by add-case; use one of: {', '.join(KINDS)}")
    return form


def _most_texts(kind: str) -> int | None:
    """The most ``texts`` a case of ``kind`` may have (its schema's ``maxItems``); ``None`` for no limit."""
    return kind_module(kind).SCHEMA.get("properties", {}).get("texts", {}).get("maxItems")


def build_case(kind: str, *, texts: list[str], reference: str | None, hypothesis: str | None,
               expect: str | None, expect_rate: float | None, note: str | None) -> dict:
    """The case mapping for ``kind`` (without its id), from the inputs its
    :class:`~pytest_asrbench.cases.registry.IntakeForm` takes.

    Raises:
        AddCaseError: an input the kind needs is missing, or one it does not take is given.
    """
    form = form_of(kind)
    given = {"reference": reference, "hypothesis": hypothesis, "expect": expect, "expect_rate": expect_rate}
    takes = " and ".join(dict.fromkeys(OPTION[name] for name in form.inputs if name != "expect_rate"))
    stray = [OPTION[name] for name, value in given.items() if value is not None and name not in form.inputs]
    if texts and not {"text", "texts"} & set(form.inputs):
        stray.insert(0, "--text")
    if stray:
        raise AddCaseError(f"--kind {kind} takes {takes}, not {'/'.join(stray)}")
    missing = [OPTION[name] for name, value in given.items()
               if value is None and name in form.inputs and name != "expect_rate"]
    if "text" in form.inputs and len(texts) != 1:
        missing.insert(0, "one --text")
    if missing:
        raise AddCaseError(f"--kind {kind} takes {takes}: give {' and '.join(missing)}")
    blank = [index + 1 for index, text in enumerate(texts) if not text.strip()]
    if blank:
        raise AddCaseError(f"empty --text value(s) (number {', '.join(map(str, blank))}): give the words the case is about")
    most = _most_texts(kind)
    if "texts" in form.inputs and not form.least_texts <= len(texts) <= (most or len(texts)):
        count = f"exactly {most}" if most == form.least_texts else f"at least {form.least_texts}" + \
            (f" and at most {most}" if most else "")
        raise AddCaseError(f"--kind {kind} takes {count} --text value(s), not {len(texts)}")
    case: dict = {"kind": kind, "source": "reviewer"}
    if note:
        case["note"] = note
    for name in form.inputs:
        if name == "text":
            case["text"] = texts[0]
        elif name == "texts":
            case["texts"] = list(texts)
        elif name == "expect_rate":
            if expect_rate is not None:
                case["expect"] = {"rate": expect_rate}
        else:
            case[name] = given[name]
    return case


def _texts(case: dict) -> tuple[str, ...]:
    if "reference" in case:
        return (str(case["reference"]), str(case["hypothesis"]))
    if "text" in case:
        return (str(case["text"]),)
    return tuple(str(text) for text in case.get("texts") or ())


def derive_id(case: dict) -> str:
    """An id from the case's texts (see the module docstring); matches the schema's id pattern
    and length (:data:`~pytest_asrbench.cases.schema.MAX_ID_LENGTH`: a long word is cut)."""
    texts = _texts(case)
    words: list[str] = []
    for text in texts:
        for word in re.findall(r"[A-Za-z0-9]+", text):
            if word.lower() not in words:
                words.append(word.lower())
    digest = hashlib.sha256("\x1f".join((case["kind"], *texts)).encode("utf-8")).hexdigest()[:HASH_DIGITS]
    # each word cut so that the id stays within the schema's length (it names the snapshot file)
    room = (MAX_ID_LENGTH - len(case["kind"]) - HASH_DIGITS - 2) // ID_WORDS - 1
    return "-".join([case["kind"], *(word[:room] for word in words[:ID_WORDS]), digest])


def _same(existing, case: dict) -> bool:
    if not isinstance(existing, dict) or existing.get("kind") != case["kind"]:
        return False
    if form_of(case["kind"]).unordered:
        return sorted(_texts(existing)) == sorted(_texts(case))
    return _texts(existing) == _texts(case)


def find_duplicate(language_dir: Path, case: dict) -> tuple[Path, str] | None:
    """``(file, id)`` of a case of the same kind and texts in any case file of ``language_dir``."""
    if not language_dir.is_dir():
        return None
    for path in sorted(p for p in language_dir.rglob("*") if is_case_suffix(p) and p.is_file()):
        for existing in load_case_file(path).cases:
            if _same({"kind": existing.kind, **existing.fields}, case):
                return path, existing.id
    return None


def yaml_float(value: float) -> str:
    """``value`` as a plain YAML scalar that reads back as the same float under YAML 1.1, which
    the case loader follows: Python's shortest repr, with ``.0`` added to a mantissa without a
    point (``1e-05`` -> ``1.0e-05``: YAML 1.1 reads an exponent without a point as a string)."""
    text = repr(float(value))
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text


def _yaml():
    from ruamel.yaml import YAML
    from ruamel.yaml.representer import RoundTripRepresenter

    class Representer(RoundTripRepresenter):  # this YAML instance's floats only
        pass

    Representer.add_representer(float, lambda self, value: self.represent_scalar("tag:yaml.org,2002:float",
                                                                                 yaml_float(value)))
    yaml = YAML()  # round-trip: comments, order and quoting are kept
    yaml.Representer = Representer
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long reference over lines
    yaml.indent(mapping=2, sequence=4, offset=2)  # "  - id: ..." as the project's files are written
    return yaml


def _new_file(language: str) -> str:
    return (f"# Reviewers' examples for {language}, added with `asrbench add-case`.\n"
            f"language: {language}\ncases: []\n")


def append_case(path: Path, language: str, case: dict, case_id: str | None, root: Path) -> Added:
    """Append ``case`` to ``path`` (created with a header when missing) under ``case_id`` (or
    a derived id), after validating the whole new file with the case loader.

    Raises:
        AddCaseError: the file does not load, is for another language, already has the id,
            or the new case is not valid (the loader's message, with the field to fix).
    """
    from ruamel.yaml.comments import CommentedMap

    from ruamel.yaml.error import YAMLError

    yaml = _yaml()
    if path.is_dir():
        raise AddCaseError(f"--file {path} is a folder; give a case file such as {path / 'reviewer.yaml'}")
    if path.exists() and not is_case_suffix(path):
        raise AddCaseError(f"--file {path} is not a case file (its name must end in .yaml or .yml)")
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else _new_file(language)
        document = yaml.load(text)
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        raise AddCaseError(f"{path}: cannot read it as a case file ({str(exc).splitlines()[0]}); fix it first "
                           "(pytest --asrbench <file> names the problem) or give another --file") from exc
    if not isinstance(document, dict) or "cases" not in document:
        raise AddCaseError(f"{path}: not a case file (no `cases:` list); give another --file")
    if str(document.get("language")) != language:
        raise AddCaseError(f"{path}: a case file for language {document.get('language')!r}, not {language!r}; "
                           "give -l to match it or another --file")
    if case_id is not None and not case_id.strip():
        raise AddCaseError("--id is empty: give an id (letters, digits, '_', '.', '-'), or leave --id out to derive one")
    case_id = case_id or derive_id(case)
    if any(isinstance(c, dict) and c.get("id") == case_id for c in document["cases"] or ()):
        raise AddCaseError(f"{path}: a case with id {case_id!r} exists already; give another --id")
    entry = CommentedMap(id=case_id)
    entry.update({key: value if key in ("kind", "source") else _styled(value) for key, value in case.items()})
    if document["cases"] is None or not hasattr(document["cases"], "append"):
        raise AddCaseError(f"{path}: `cases:` is not a list")
    if len(document["cases"]) == 0:
        from ruamel.yaml.comments import CommentedSeq

        document["cases"] = CommentedSeq()
    document["cases"].append(entry)
    buffer = io.StringIO()
    yaml.dump(document, buffer)
    new_text = buffer.getvalue()
    _validate(path, new_text, case_id, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, new_text.encode("utf-8"))
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    return Added(path, case_id, f"{shown}::{case_id}")


def _styled(value):
    """The project's case style: texts in double quotes, lists and ``expect`` maps in flow
    style on one line (``texts: ["a", "b"]``, ``expect: {rate: 0.25}``)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if isinstance(value, str):
        return DoubleQuotedScalarString(value)
    if isinstance(value, list):
        styled = CommentedSeq(_styled(item) for item in value)
        styled.fa.set_flow_style()
        return styled
    if isinstance(value, dict):
        styled = CommentedMap((key, _styled(item)) for key, item in value.items())
        styled.fa.set_flow_style()
        return styled
    return value


def _validate(path: Path, text: str, case_id: str, root: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        trial = Path(folder) / path.name
        trial.write_text(text, encoding="utf-8")
        loaded = load_case_file(trial)
    if loaded.errors:
        problems = "\n  ".join(from_root(str(error).replace(str(trial), str(path)), root) for error in loaded.errors)
        raise AddCaseError(f"the case would not load; nothing written:\n  {problems}")
    if case_id not in [case.id for case in loaded.cases]:
        raise AddCaseError(f"{path}: the new case {case_id!r} did not read back; nothing written")
